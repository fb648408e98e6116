// A webhook receiver written as GitHub apps write them: @octokit/webhooks checks each delivery's signature
// (X-Hub-Signature-256, with the hook's secret) and calls the handlers for its event. Run it, point a feedgate
// hook at the URL it prints, and it prints one line per delivery.
//   WEBHOOK_SECRET=s3cret PORT=4567 node examples/webhook-receiver.mjs
import { createServer } from "node:http";
import { Webhooks, createNodeMiddleware } from "@octokit/webhooks";

const webhooks = new Webhooks({ secret: process.env.WEBHOOK_SECRET ?? "s3cret" });

webhooks.onAny(({ id, name, payload }) => {
  const where = payload.repository?.full_name ?? payload.organization?.login ?? "";
  console.log(`${name}${payload.action ? `.${payload.action}` : ""} ${where} by ${payload.sender?.login ?? "?"} (delivery ${id})`);
});
webhooks.onError((error) => console.error(`refused a delivery: ${error.message}`));

const server = createServer(createNodeMiddleware(webhooks, { path: "/hook" }));
server.listen(Number(process.env.PORT ?? 4567), "127.0.0.1", () => {
  console.log(`receiving on http://127.0.0.1:${server.address().port}/hook`);
});
