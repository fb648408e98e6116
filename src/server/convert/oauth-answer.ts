/**
 * The OAuth endpoints' answers by `Accept`, as GitHub sends them (docs: authorizing-oauth-apps, "Response"):
 * `application/json`, `application/xml`, else form-encoded (what gh reads when it sends no `Accept`).
 */
const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const escapeXml = (text: string) => text.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);

export type OAuthFields = Record<string, string | number>;

export function oauthAnswer(accept: string | undefined, fields: OAuthFields): { type: string; body: string } {
  const wants = accept ?? "";
  if (/application\/json/i.test(wants))
    return { type: "application/json; charset=utf-8", body: JSON.stringify(fields) };
  if (/application\/xml/i.test(wants)) {
    const elements = Object.entries(fields).map(([name, value]) => `<${name}>${escapeXml(String(value))}</${name}>`);
    return { type: "application/xml; charset=utf-8", body: `<OAuth>${elements.join("")}</OAuth>` };
  }
  const form = new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)]));
  return { type: "application/x-www-form-urlencoded; charset=utf-8", body: form.toString() };
}
