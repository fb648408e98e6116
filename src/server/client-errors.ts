/**
 * Answers requests Node's HTTP parser refuses before any route sees them: malformed bytes, headers too large, a
 * request or its headers not received within their timeout. Replaces Fastify's default handler for two reasons:
 * that one logs the error whole, and a parser error carries `rawPacket`, the request's raw bytes with its
 * `Authorization` header and `access_token`; and it answers in Fastify's error shape rather than GitHub's.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { GENERAL_DOCS } from "./errors.js";

const STATUS_BY_CODE: Record<string, number> = {
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADER_OVERFLOW: 431,
};

export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection is gone: there is no one to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status = STATUS_BY_CODE[error.code ?? ""] ?? 400;
  // The code and the client only: never the error object, whose rawPacket holds the request's bytes.
  this.log.debug({ code: error.code, remoteAddress: socket.remoteAddress, status }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ message: STATUS_CODES[status], documentation_url: GENERAL_DOCS });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
