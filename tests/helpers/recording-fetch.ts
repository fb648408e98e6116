/** A fetch that records what the SDK sends, then sends it (or answers itself), so tests can assert "no request". */

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export function recordingFetch(answer?: (request: SentRequest) => Response | Promise<Response>) {
  const sent: SentRequest[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = {
      url,
      method: init.method ?? "GET",
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body === undefined || init.body === null ? undefined : String(init.body),
    };
    sent.push(request);
    return answer ? answer(request) : globalThis.fetch(url, init);
  };
  return { fetch, sent };
}

/** A JSON answer, as a canned server would give it. */
export const jsonResponse = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", ...init.headers },
  });
