/**
 * A Server-Sent Events client on a raw TCP socket: the request written by hand (HTTP/1.0, so the answer comes
 * unchunked and ends with the connection) and the frames parsed as the HTML standard says, so the tests see exactly
 * the bytes the server sends.
 */
import { connect, type Socket } from "node:net";

export interface Frame {
  id?: string;
  event?: string;
  /** The `data` lines joined with "\n", as EventSource does. */
  data?: string;
  comments: string[];
  retry?: string;
}

export interface RawStream {
  status: number;
  headers: Record<string, string>;
  /** The body, for a response that is not a stream (an error). */
  body(): Promise<string>;
  /** The next frame with an event or data (comment-only frames are collected in `comments`). */
  next(): Promise<Frame>;
  /** Comment lines seen so far. */
  comments: string[];
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close(): void;
  socket: Socket;
}

function parseFrame(block: string): Frame {
  const frame: Frame = { comments: [] };
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) frame.comments.push(line.slice(1).trim());
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const [name, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
    if (name === "data") data.push(value);
    else if (name === "id" || name === "event" || name === "retry") frame[name] = value;
  }
  if (data.length) frame.data = data.join("\n");
  return frame;
}

export function openRawStream(url: string, path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const lines = [
    `GET ${path} HTTP/1.0`,
    `Host: ${hostname}:${port}`,
    "Accept: text/event-stream",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  socket.setEncoding("utf8");

  let buffer = "";
  let head: { status: number; headers: Record<string, string> } | undefined;
  const frames: Frame[] = [];
  const waiting: ((frame: Frame) => void)[] = [];
  const comments: string[] = [];
  let onHead!: (value: { status: number; headers: Record<string, string> }) => void;
  let onHeadFailed!: (error: Error) => void;
  const headRead = new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
    onHead = resolve;
    onHeadFailed = reject;
  });
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  let rest = "";
  const bodyDone = ended.then(() => rest);

  socket.on("error", (error) => onHeadFailed(error));
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    if (!head) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...headerLines] = buffer.slice(0, end).split("\r\n");
      const found: Record<string, string> = {};
      for (const line of headerLines)
        found[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      head = { status: Number(statusLine!.split(" ")[1]), headers: found };
      buffer = buffer.slice(end + 4);
      onHead(head);
    }
    if (!head.headers["content-type"]?.startsWith("text/event-stream")) {
      rest += buffer;
      buffer = "";
      return;
    }
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      comments.push(...frame.comments);
      if (frame.data === undefined && frame.event === undefined) continue;
      const taker = waiting.shift();
      if (taker) taker(frame);
      else frames.push(frame);
    }
  });

  return headRead.then(({ status, headers: found }) => ({
    status,
    headers: found,
    comments,
    ended,
    socket,
    body: () => bodyDone,
    next: () => {
      const frame = frames.shift();
      if (frame) return Promise.resolve(frame);
      return new Promise<Frame>((resolve, reject) => {
        waiting.push(resolve);
        void ended.then(() => reject(new Error("the stream ended before the next event")));
      });
    },
    close: () => socket.destroy(),
  }));
}

/** Resolves with `promise`, or rejects when it takes longer than `ms`: for "within a second" promises. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
    ),
  ]);
}
