// A webhook receiver written as GitHub apps write them: @octokit/webhooks checks each delivery's signature
// (X-Hub-Signature-256, with the hook's secret) and calls the handlers for its event. Run it, point a feedgate
// hook at the URL it prints, and it prints one line per delivery.
//   WEBHOOK_SECRET=s3cret PORT=4567 node examples/webhook-receiver.mjs
//
// GitHub sends either content type a hook asks for: application/json (the body is the payload) or
// application/x-www-form-urlencoded, the default of a hook created without `content_type` (the payload is the
// `payload` field). The signature covers the bytes as sent, so it is checked on the raw body before either is read;
// @octokit/webhooks' own middleware takes JSON only, hence this small server around `verify` and `receive`.
import { createServer } from "node:http";
import { Webhooks } from "@octokit/webhooks";

const webhooks = new Webhooks({ secret: process.env.WEBHOOK_SECRET ?? "s3cret" });

webhooks.onAny(({ id, name, payload }) => {
  const where = payload.repository?.full_name ?? payload.organization?.login ?? "";
  console.log(
    `${name}${payload.action ? `.${payload.action}` : ""} ${where} by ${payload.sender?.login ?? "?"} (delivery ${id})`,
  );
});
webhooks.onError((error) => console.error(`a handler failed: ${error.message}`));

/** The payload's JSON text, by content type; null for a type GitHub does not send. */
function payloadText(contentType, raw) {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return raw;
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(raw).get("payload");
  return null;
}

const refuse = (response, status, why) => {
  console.error(`refused a delivery: ${why}`);
  response.writeHead(status, { "content-type": "text/plain" }).end(`${why}\n`);
};

const server = createServer(async (request, response) => {
  if (request.method !== "POST" || new URL(request.url, "http://x").pathname !== "/hook")
    return refuse(response, 404, "not found");
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const raw = Buffer.concat(chunks).toString("utf8");
  const text = payloadText(request.headers["content-type"], raw);
  if (text === null) return refuse(response, 415, `unsupported content type ${request.headers["content-type"]}`);
  const signature = request.headers["x-hub-signature-256"];
  if (typeof signature !== "string" || !(await webhooks.verify(raw, signature)))
    return refuse(response, 401, "signature does not match");
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    return refuse(response, 400, "the payload is not JSON");
  }
  try {
    await webhooks.receive({
      id: String(request.headers["x-github-delivery"]),
      name: String(request.headers["x-github-event"]),
      payload,
    });
    response.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
  } catch (error) {
    response.writeHead(500, { "content-type": "text/plain" }).end(`${error.message}\n`);
  }
});
server.listen(Number(process.env.PORT ?? 4567), "127.0.0.1", () => {
  console.log(`receiving on http://127.0.0.1:${server.address().port}/hook`);
});
