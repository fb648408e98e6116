/**
 * Every row's own ceiling (issue 27): a bare node:http server that answers each row's requests with the bytes
 * feedgate sent for them, captured in the same run (bench/capture.ts): the same status, reason, headers in the
 * same order and case, the same body; for the 304 row a bare 304 with feedgate's headers. Per-request headers
 * (Date, X-GitHub-Request-Id, X-RateLimit-Remaining) go out as captured: the same size, nothing computed.
 *
 * Everything is built once at start; a request costs a Map lookup by method and URL (and, for the one URL that
 * also has a conditional row, a look at If-None-Match), then node:http's own work: the least any Node.js server
 * can do to send those bytes, so each row's CPU ratio is feedgate's cost over the bare cost of its own answer.
 *
 * Run as its own process, as feedgate is: `node --import tsx bench/row-ceiling.ts <capture file>`.
 */
import { createServer, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import type { CaptureFile } from "./capture.js";

const file = process.argv[2];
if (!file) throw new Error("usage: row-ceiling.ts <capture file from bench/capture.ts>");

interface Answer {
  status: number;
  statusMessage: string;
  /** Flat name, value list: node:http writes it as it is, in this order. */
  headers: string[];
  body: Buffer;
}

type Answers = Map<string, { plain?: Answer; conditional?: { etag: string; answer: Answer } }>;

/** By `${method} ${url}`: the unconditional answer, and the 304 for one ETag when a row polls with it. */
function load(): { answers: Answers; keepAliveSeconds: number | undefined } {
  const { entries } = JSON.parse(readFileSync(file!, "utf8")) as CaptureFile;
  const answers: Answers = new Map();
  const keepAlive = new Set<number>();
  for (const e of entries) {
    const answer: Answer = {
      status: e.status,
      statusMessage: e.statusMessage,
      headers: e.headers,
      body: Buffer.from(e.body, "base64"),
    };
    const slot = answers.get(`${e.method} ${e.path}`) ?? {};
    if (e.ifNoneMatch === null) slot.plain = answer;
    else slot.conditional = { etag: e.ifNoneMatch, answer };
    answers.set(`${e.method} ${e.path}`, slot);
    if (e.keepAliveSeconds !== null) keepAlive.add(e.keepAliveSeconds);
  }
  if (keepAlive.size > 1) throw new Error(`captures with different Keep-Alive timeouts: ${[...keepAlive].join(", ")}`);
  return { answers, keepAliveSeconds: [...keepAlive][0] };
}

let { answers, keepAliveSeconds } = load();

const notFound: Answer = {
  status: 404,
  statusMessage: "Not Found",
  headers: ["Content-Length", "0"],
  body: Buffer.alloc(0),
};

/**
 * writeHead with the whole list writes the head at once; with neither Content-Length nor Transfer-Encoding among
 * them (a page feedgate sent chunked), node:http chunks the body itself, as it did for feedgate.
 */
function send(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, answer.statusMessage, answer.headers);
  response.end(answer.body);
}

const server = createServer((request, response) => {
  // Drain the request (POST bodies) so keep-alive connections stay usable.
  request.resume();
  const slot = answers.get(`${request.method} ${request.url}`);
  if (!slot) return send(response, notFound);
  const conditional = slot.conditional;
  if (conditional && request.headers["if-none-match"] === conditional.etag) return send(response, conditional.answer);
  send(response, slot.plain ?? notFound);
});
// node:http sends `Keep-Alive: timeout=<seconds>` from this: the same as feedgate's (Fastify's 72 s, not node's 5).
if (keepAliveSeconds !== undefined) server.keepAliveTimeout = keepAliveSeconds * 1000;
// The benchmark refreshes a row's capture just before the row (its counters' sizes of now) and signals a reload.
process.on("SIGHUP", () => {
  ({ answers, keepAliveSeconds } = load());
  if (keepAliveSeconds !== undefined) server.keepAliveTimeout = keepAliveSeconds * 1000;
});
// Port 0: the benchmark finds the port from /proc, as it does for feedgate.
server.listen(0, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
