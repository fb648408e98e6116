/**
 * The Client: options checked at construction, one method per endpoint-table row (see operations.ts),
 * credentials with the two-factor retry, and paging that follows the server's `Link` URLs.
 */
import { endpoints, type Endpoint, type Endpoints, type ResponseKind } from "../api/endpoints.js";
import { authorizationHeader, checkAuth, otpChallenge, type AuthOptions } from "./auth.js";
import { ParameterError } from "./errors.js";
import { checkHeaders, type UnconditionalHeaders } from "./headers.js";
import { parseLink } from "./link.js";
import {
  generateFamilies,
  type Data,
  type Families,
  type Operation,
  type Operations,
  type Params,
  type ParamsArgument,
} from "./operations.js";
import { followStream, StreamUnavailableError, type Opened, type StreamOptions } from "./stream.js";
import { NetworkError } from "./errors.js";
import { prepare } from "./prepare.js";
import { interpret } from "./response.js";
import { describe, exchange, type Fetch, type WireRequest } from "./transport.js";
import { withStringIds } from "./ids.js";
import type { Meta, Result, Success } from "./types.js";
import { SUPPORTED_MEDIA_TYPE, SUPPORTED_VERSION } from "../api/versions.js";

/** The interface version this SDK speaks (spec section 9). */
export const VERSION = SUPPORTED_VERSION;

export interface ClientOptions {
  /** Where the service is, e.g. `http://127.0.0.1:3000` or `https://ghe.example/api/v3`. */
  baseUrl: string;
  version: typeof VERSION;
  auth?: AuthOptions;
  /** Sent with every request; the names the spec permits, conditional ones excepted. */
  headers?: UnconditionalHeaders;
  /** Milliseconds for a whole exchange, body included; none by default. */
  timeout?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: Fetch;
}

/** A result, or a `Link` header value (node-github's `getNextPage(link)`). */
export type PageSource = { readonly meta: Meta; readonly url: string } | string;

export interface PageOptions {
  headers?: UnconditionalHeaders;
}

type Rel = "next" | "prev" | "first" | "last";

/** List operations: the ones `paginate` accepts. */
type ListEndpoint = Endpoint & { readonly response: `${string}[]` };

function checkBaseUrl(value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new ParameterError(
      "baseUrl",
      `baseUrl must be an absolute http(s) URL without query, got ${JSON.stringify(value)}`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** A feed operation: one of `client.events`' methods. */
type FeedEndpoint = Endpoints["events"][keyof Endpoints["events"]];

/** `client.events`: the feeds' methods, and `stream` for any of them live. */
export interface EventFamily extends Operations<Endpoints["events"]> {
  /**
   * The feed's new events as they are stored, oldest first, for as long as the caller iterates (or until
   * `options.signal` aborts). Reconnects by itself with `Last-Event-ID`, losing nothing. Throws HttpError for a
   * refused request (404, 401), and StreamUnavailableError when the server answers with a page instead (a server
   * without streams): poll then.
   */
  stream<E extends FeedEndpoint>(
    operation: Operation<E>,
    ...args: [...ParamsArgument<E>, options?: StreamOptions]
  ): AsyncGenerator<Data<E>[number], void, undefined>;
}

export interface Client extends Omit<Families, "events"> {
  readonly events: EventFamily;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface declares the methods the constructor makes from the endpoint table
export class Client {
  readonly baseUrl: string;
  readonly version: typeof VERSION;
  #auth: AuthOptions | null = null;
  readonly #headers: Record<string, string>;
  readonly #timeout: number | undefined;
  readonly #fetch: Fetch;
  /** What each result answered (its endpoint's response kind), so the pages it links to are read alike. */
  readonly #kinds = new WeakMap<object, ResponseKind>();

  constructor(options: ClientOptions) {
    if (typeof options !== "object" || options === null)
      throw new ParameterError("options", "options must be an object");
    if (options.version !== VERSION) {
      throw new ParameterError(
        "version",
        `version ${JSON.stringify(options.version)} is not supported; this client speaks "${VERSION}"`,
      );
    }
    this.version = VERSION;
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.#headers = checkHeaders(options.headers, "options.headers", { conditional: false });
    const { timeout } = options;
    if (timeout !== undefined && !(typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0)) {
      throw new ParameterError("timeout", `timeout must be a positive number of milliseconds, got ${String(timeout)}`);
    }
    this.#timeout = timeout;
    if (options.fetch !== undefined && typeof options.fetch !== "function")
      throw new ParameterError("fetch", "fetch must be a function");
    // Bound: browsers refuse a fetch called with another object as `this` ("Illegal invocation").
    const fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#fetch = (input, init) => fetch(input, init);
    if (options.auth !== undefined) this.authenticate(options.auth);
    const families = generateFamilies(endpoints, (endpoint, operation, params) => {
      const request = prepare(endpoint, operation, params);
      return this.#send(
        request.method,
        `${this.baseUrl}${request.target}`,
        request.headers,
        request.body,
        endpoint.response,
      );
    });
    // The second argument is the options whatever the operation (TypeScript cannot index a generic tuple to say so).
    const stream: EventFamily["stream"] = (operation, ...args) =>
      this.#stream(operation, args[0], args[1] as StreamOptions | undefined);
    Object.assign(this, families, { events: Object.freeze({ ...families.events, stream }) });
  }

  /** Sets the credentials for later requests; `null` makes them anonymous. */
  authenticate(auth: AuthOptions | null): void {
    this.#auth = auth === null ? null : checkAuth(auth);
  }

  hasNextPage(from: PageSource): boolean {
    return this.#rel(from, "next") !== undefined;
  }

  hasPrevPage(from: PageSource): boolean {
    return this.#rel(from, "prev") !== undefined;
  }

  hasFirstPage(from: PageSource): boolean {
    return this.#rel(from, "first") !== undefined;
  }

  hasLastPage(from: PageSource): boolean {
    return this.#rel(from, "last") !== undefined;
  }

  getNextPage<T>(from: Success<T>, options?: PageOptions): Promise<Success<T>>;
  getNextPage(from: PageSource, options?: PageOptions): Promise<Success<unknown>>;
  getNextPage(from: PageSource, options?: PageOptions) {
    return this.#follow(from, "next", options);
  }

  getPrevPage<T>(from: Success<T>, options?: PageOptions): Promise<Success<T>>;
  getPrevPage(from: PageSource, options?: PageOptions): Promise<Success<unknown>>;
  getPrevPage(from: PageSource, options?: PageOptions) {
    return this.#follow(from, "prev", options);
  }

  getFirstPage<T>(from: Success<T>, options?: PageOptions): Promise<Success<T>>;
  getFirstPage(from: PageSource, options?: PageOptions): Promise<Success<unknown>>;
  getFirstPage(from: PageSource, options?: PageOptions) {
    return this.#follow(from, "first", options);
  }

  getLastPage<T>(from: Success<T>, options?: PageOptions): Promise<Success<T>>;
  getLastPage(from: PageSource, options?: PageOptions): Promise<Success<unknown>>;
  getLastPage(from: PageSource, options?: PageOptions) {
    return this.#follow(from, "last", options);
  }

  /**
   * Every page of a list, first to last, following `rel="next"` only (as Octokit does). A 304 on the first
   * page (the caller sent If-None-Match) means nothing changed: nothing is yielded.
   */
  async *paginate<E extends ListEndpoint>(
    operation: Operation<E>,
    ...[params]: ParamsArgument<E>
  ): AsyncGenerator<Success<Data<E>>, void, undefined> {
    let page = await (operation as unknown as (p?: Params<E>) => Promise<Result<Data<E>>>)(params);
    while (!page.notModified) {
      yield page;
      if (!this.hasNextPage(page)) return;
      page = await this.getNextPage(page);
    }
  }

  #rel(from: PageSource, rel: Rel): string | undefined {
    if (typeof from === "string") return parseLink(from, this.baseUrl)[rel];
    if (typeof from !== "object" || from === null || typeof from.meta !== "object") {
      throw new ParameterError("page", "expected a result (with meta) or a Link header value");
    }
    return parseLink(from.meta.link, from.url || this.baseUrl)[rel];
  }

  async #follow(from: PageSource, rel: Rel, options: PageOptions = {}): Promise<Success<unknown>> {
    const url = this.#rel(from, rel);
    if (url === undefined)
      throw new ParameterError("page", `there is no ${rel} page: the Link header has no rel="${rel}"`);
    const headers = checkHeaders(options.headers, "headers", { conditional: false });
    const kind = typeof from === "object" ? this.#kinds.get(from) : undefined;
    return (await this.#send("GET", url, headers, undefined, kind)) as Success<unknown>;
  }

  /**
   * Sends with the client's headers and credentials; answers one two-factor challenge by asking `auth.otp`.
   * @param kind what the answer holds, when known: its ids are then read as strings (./ids.ts).
   */
  async #send(
    method: string,
    url: string,
    callerHeaders: Record<string, string>,
    body: Record<string, unknown> | undefined,
    kind?: ResponseKind,
  ) {
    const result = await this.#exchange(method, url, callerHeaders, body, kind === "redirect" ? "manual" : undefined);
    if (kind !== undefined) {
      withStringIds(kind, result.data);
      this.#kinds.set(result, kind);
    }
    return result;
  }

  /** The headers of a request to `url`: the client's, the caller's, and the credentials for the service's own origin. */
  #headersFor(url: string, callerHeaders: Record<string, string>): Record<string, string> {
    const auth = this.#auth;
    const headers: Record<string, string> = { accept: SUPPORTED_MEDIA_TYPE, ...this.#headers, ...callerHeaders };
    // Credentials go only to the service's own origin, as fetch itself does on cross-origin redirects:
    // a Link URL is the server's word, not the caller's.
    if (auth && new URL(url).origin === new URL(this.baseUrl).origin) {
      headers.authorization = authorizationHeader(auth);
      if (auth.type === "basic" && typeof auth.otp === "string") headers["x-service-otp"] ??= auth.otp;
    }
    return headers;
  }

  /** A feed's live stream (./stream.ts): each opening is one GET with `Accept: text/event-stream`. */
  async *#stream<E extends FeedEndpoint>(
    operation: Operation<E>,
    params: unknown,
    options: StreamOptions | undefined,
  ): AsyncGenerator<Data<E>[number], void, undefined> {
    const endpoint: Endpoint = operation.endpoint;
    const prepared = prepare(endpoint, operation.operation, params);
    const url = `${this.baseUrl}${prepared.target}`;
    const open = async (lastEventId: string | undefined, signal: AbortSignal): Promise<Opened> => {
      const headers = this.#headersFor(url, {
        ...prepared.headers,
        accept: "text/event-stream",
        ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
      });
      const request: WireRequest = { method: "GET", url, headers };
      let response: Response;
      try {
        response = await this.#fetch(url, { method: "GET", headers, signal });
      } catch (error) {
        throw new NetworkError(`GET ${describe(request).url} failed: ${(error as Error).message}`, describe(request), {
          cause: error,
        });
      }
      const type = response.headers.get("content-type") ?? "";
      if (response.ok && type.startsWith("text/event-stream") && response.body) return { body: response.body };
      if (!response.ok) {
        try {
          interpret(request, { response, text: await response.text() });
        } catch (error) {
          return { failure: error as Error };
        }
      }
      await response.body?.cancel();
      return {
        failure: new StreamUnavailableError(
          `GET ${describe(request).url} answered ${type || "without a content type"}, ` +
            "not an event stream: the server offers no live streams",
          describe(request),
        ),
      };
    };
    const parse = (data: string) => {
      const item: unknown = JSON.parse(data);
      withStringIds(endpoint.response, [item]);
      return item as Data<E>[number];
    };
    yield* followStream(open, parse, (error) => error instanceof NetworkError, options);
  }

  async #exchange(
    method: string,
    url: string,
    callerHeaders: Record<string, string>,
    body: Record<string, unknown> | undefined,
    redirect?: "manual",
  ) {
    const auth = this.#auth;
    const headers = this.#headersFor(url, callerHeaders);
    if (body !== undefined) headers["content-type"] = "application/json; charset=utf-8";
    const ownOrigin = new URL(url).origin === new URL(this.baseUrl).origin;
    const request: WireRequest = { method, url, headers, body, ...(redirect ? { redirect } : {}) };
    const first = await exchange(request, this.#fetch, this.#timeout);
    const challenge = first.response.status === 401 ? otpChallenge(first.response.headers) : null;
    if (!challenge || auth?.type !== "basic" || typeof auth.otp !== "function" || !ownOrigin)
      return interpret(request, first);

    const code = await auth.otp(challenge);
    if (typeof code !== "string")
      throw new ParameterError("auth.otp", "auth.otp must return a string (the one-time code)");
    const retry: WireRequest = { ...request, headers: { ...headers, "x-service-otp": code.trim() } };
    return interpret(retry, await exchange(retry, this.#fetch, this.#timeout));
  }
}
