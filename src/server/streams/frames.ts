/**
 * The frames of one read of a feed, as one way of rendering them (format, base URL, integer ids) writes them: built
 * and encoded once, then handed to every stream of that rendering as the same bytes. A stream whose cursor is inside
 * the read gets the tail of the buffer from its first new event on, a view of the same memory, not a copy: a thousand
 * streams of one feed cost one rendering and one encoding per event, and a thousand socket writes.
 */

const CRLF = Buffer.from("\r\n", "latin1");

/** Some frames, as a stream is written them: the bytes, and the same bytes as one chunk of a chunked HTTP/1.1 body. */
export class FrameBytes {
  private chunked: Buffer | undefined;

  constructor(readonly bytes: Buffer) {}

  /**
   * The bytes with their chunk's size line and closing CRLF (RFC 9112, 7.1) in one buffer, made on first use and
   * shared by every stream written it: a stream written straight to its connection costs one buffer and one write.
   */
  chunk(): Buffer {
    this.chunked ??= Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`, "latin1"), this.bytes, CRLF]);
    return this.chunked;
  }
}

export class RenderedFrames {
  private readonly bytes: Buffer;
  /** Where each row's frame starts in `bytes`. */
  private readonly starts: number[];
  /** The views handed out, by the index of their first row: streams at the same cursor share one (and its chunk). */
  private readonly views = new Map<number, FrameBytes>();

  /**
   * @param seqs the rows' arrival numbers, in order.
   * @param frames each row's frame (SseStream.frame), in the same order.
   */
  constructor(
    private readonly seqs: readonly number[],
    frames: readonly string[],
  ) {
    this.starts = new Array<number>(frames.length);
    let at = 0;
    frames.forEach((frame, i) => {
      this.starts[i] = at;
      at += Buffer.byteLength(frame);
    });
    this.bytes = Buffer.from(frames.join(""));
  }

  /** The frames of the rows that arrived after `cursor`, or null when there are none. */
  after(cursor: number): FrameBytes | null {
    const first = this.seqs.findIndex((seq) => seq > cursor);
    if (first < 0) return null;
    let view = this.views.get(first);
    if (!view)
      this.views.set(
        first,
        (view = new FrameBytes(first === 0 ? this.bytes : this.bytes.subarray(this.starts[first]))),
      );
    return view;
  }
}
