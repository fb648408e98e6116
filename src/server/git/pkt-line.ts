/**
 * Git's pkt-line framing (gitprotocol-common(5)), which the smart HTTP protocol speaks in both directions: four hex
 * digits giving the length of the line including themselves, then the payload; `0000` (flush), `0001` (delim, v2)
 * and `0002` (response end, v2) carry none. No npm package is kept up for this (git-write-pkt-line and
 * git-read-pkt-line date from 2013 and stream object by object): the framing is these few lines.
 */

/** The largest pkt-line git sends or takes: 65520 bytes with its header (LARGE_PACKET_MAX in git's pkt-line.h). */
export const MAX_PKT_LENGTH = 65520;

export const FLUSH = Buffer.from("0000");
export const DELIM = Buffer.from("0001");

/** One pkt-line holding `payload` (text is written as UTF-8; a line of text ends in its own `\n`). */
export function pktLine(payload: string | Uint8Array): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload) : Buffer.from(payload);
  if (body.length + 4 > MAX_PKT_LENGTH) throw new RangeError(`a pkt-line holds at most ${MAX_PKT_LENGTH - 4} bytes`);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, "0")), body]);
}

/** A packet as read: a line's payload, or one of the special packets. */
export type Packet = { kind: "data"; payload: Buffer } | { kind: "flush" } | { kind: "delim" } | { kind: "end" };

/** Input that is not pkt-lines: the client sent something git would not. */
export class PktLineError extends Error {
  override name = "PktLineError";
}

/** Every packet of `input`, in order; a length that is not four hex digits, or runs past the end, is refused. */
export function readPackets(input: Buffer): Packet[] {
  const packets: Packet[] = [];
  for (let at = 0; at < input.length; ) {
    const header = input.toString("latin1", at, at + 4);
    if (!/^[0-9a-f]{4}$/i.test(header)) throw new PktLineError(`bad pkt-line length ${JSON.stringify(header)}`);
    const length = Number.parseInt(header, 16);
    if (length === 0) packets.push({ kind: "flush" });
    else if (length === 1) packets.push({ kind: "delim" });
    else if (length === 2) packets.push({ kind: "end" });
    else if (length < 4 || at + length > input.length)
      throw new PktLineError(`pkt-line of length ${length} is cut short`);
    else packets.push({ kind: "data", payload: input.subarray(at + 4, at + length) });
    at += Math.max(length, 4);
  }
  return packets;
}

/** A data packet's text without its trailing newline (git's packet_read_line does the same). */
export const packetText = (packet: Packet): string | null =>
  packet.kind === "data" ? packet.payload.toString("utf8").replace(/\n$/, "") : null;

/** The side-band channels of a pack's response: its bytes, progress text, and an error that ends it. */
export const BAND = { data: 1, progress: 2, error: 3 } as const;

/**
 * `bytes` on a side-band channel, cut into pkt-lines of at most `max` bytes each (65520 with side-band-64k and in
 * protocol v2, 1000 with the old side-band), each payload's first byte the channel.
 */
export function* sideBand(band: number, bytes: Buffer, max = MAX_PKT_LENGTH): Generator<Buffer> {
  const room = max - 5;
  for (let at = 0; at < bytes.length; at += room) {
    yield pktLine(Buffer.concat([Buffer.from([band]), bytes.subarray(at, at + room)]));
  }
}
