/**
 * The old single ceiling, kept as a column for history: a bare node:http server that answers every request with
 * the same pre-serialized page of 30 events (the body feedgate served for `GET /events`) and does nothing else.
 * Every row used to be compared with it, which flattered no row: the 304 poll sends 1 KB, a repository page may
 * send twice this page. Rows are now judged against their own ceilings (bench/row-ceiling.ts), which send each
 * row's own answer, headers included.
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
