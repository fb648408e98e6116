/**
 * A Probot-style bot's round trip against the test double (issue 44): a person opens an issue, the app's webhook
 * delivers `issues.opened` to the bot's HTTP server, the bot answers with a comment through its installation token
 * (minted at the first delivery and kept, as Probot's auth keeps it), and the trip ends when the comment is stored
 * (its 201). Measured with the bot's and the person's requests in process (`fg.fetch`) and over sockets (`fg.url`);
 * the delivery is always a real POST, as feedgate makes it.
 */
import { createPrivateKey } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { SignJWT } from "jose";
import { startFeedgate } from "../src/testing/index.js";
import { percentile } from "./percentile.js";

const TRIPS = 200;
const WARM_UP = 20;

export interface RoundTrip {
  p50Ms: number;
  p99Ms: number;
}

export async function botRoundTrip(transport: "in process" | "sockets"): Promise<RoundTrip> {
  const fg = await startFeedgate({ world: { users: [{ login: "alice" }], repos: [{ full_name: "alice/hello" }] } });
  const send: typeof fetch = transport === "in process" ? fg.fetch : fetch;
  // One promise per issue, made by whichever side gets there first: the bot's comment may be stored before the
  // person's request has read its answer.
  const commented = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  const slot = (number: number) => {
    let entry = commented.get(number);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      entry = { promise, resolve };
      commented.set(number, entry);
    }
    return entry;
  };
  let app: { id: number; key: ReturnType<typeof createPrivateKey> } | undefined;
  let token: Promise<string> | undefined;
  const mint = async (installationId: number) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ iat: now - 30, exp: now + 570, iss: String(app!.id) })
      .setProtectedHeader({ alg: "RS256" })
      .sign(app!.key);
    const minted = await send(`${fg.url}/app/installations/${installationId}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}` },
    });
    return ((await minted.json()) as { token: string }).token;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      response.end("ok");
      if (request.headers["x-github-event"] !== "issues") return;
      const payload = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        action: string;
        issue: { number: number };
        installation: { id: number };
      };
      if (payload.action !== "opened") return;
      const number = payload.issue.number;
      const comment = await send(`${fg.url}/repos/alice/hello/issues/${number}/comments`, {
        method: "POST",
        headers: { authorization: `token ${await (token ??= mint(payload.installation.id))}` },
        body: JSON.stringify({ body: "Thanks for opening this issue!" }),
      });
      if (comment.status === 201) slot(number).resolve();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const bot = await fg.githubApp({
      owner: "alice",
      permissions: { issues: "write" },
      events: ["issues"],
      webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    });
    app = { id: bot.id, key: createPrivateKey(bot.privateKey) };
    await bot.install("alice", ["hello"]);
    const person = await fg.token("alice");
    const trips: number[] = [];
    for (let i = 0; i < WARM_UP + TRIPS; i++) {
      const started = performance.now();
      const opened = await send(`${fg.url}/repos/alice/hello/issues`, {
        method: "POST",
        headers: { authorization: `token ${person}` },
        body: JSON.stringify({ title: `Trip ${i}` }),
      });
      const { number } = (await opened.json()) as { number: number };
      await slot(number).promise;
      if (i >= WARM_UP) trips.push(performance.now() - started);
    }
    trips.sort((a, b) => a - b);
    return { p50Ms: percentile(trips, 0.5), p99Ms: percentile(trips, 0.99) };
  } finally {
    server.close();
    await fg.close();
  }
}
