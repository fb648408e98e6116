/**
 * The ceiling: the fastest a Node.js process on this machine can answer this workload. A bare node:http server
 * that answers every request with the same pre-serialized page of 30 events (the exact bytes feedgate served
 * for `GET /events`, so both move the same payload) and does nothing else: no routing, no auth, no database.
 * feedgate's requests per second are reported as a ratio to this number, measured in the same run, so results
 * from different machines (or a busy machine) stay comparable.
 *
 * Run as its own process, as feedgate is: `node --import tsx bench/ceiling.ts <body-file>`.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: ceiling.ts <file with the response body>");
const body = readFileSync(file);
const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.length) };

const server = createServer((request, response) => {
  // Drain the request (POST bodies, if any) so keep-alive connections stay usable.
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});
// Port 0: the benchmark finds the port from /proc, as it does for feedgate.
server.listen(0, "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
