/**
 * The frames of one read of a feed, as one way of rendering them (format, base URL, integer ids) writes them: built
 * and encoded once, then handed to every stream of that rendering as the same bytes. A stream whose cursor is inside
 * the read gets the tail of the buffer from its first new event on, a view of the same memory, not a copy: a thousand
 * streams of one feed cost one rendering and one encoding per event, and a thousand socket writes.
 */
export class RenderedFrames {
  private readonly bytes: Buffer;
  /** Where each row's frame starts in `bytes`. */
  private readonly starts: number[];

  /**
   * @param seqs the rows' arrival numbers, in order.
   * @param frames each row's frame (SseStream.frame), in the same order.
   */
  constructor(private readonly seqs: readonly number[], frames: readonly string[]) {
    this.starts = new Array<number>(frames.length);
    let at = 0;
    frames.forEach((frame, i) => {
      this.starts[i] = at;
      at += Buffer.byteLength(frame);
    });
    this.bytes = Buffer.from(frames.join(""));
  }

  /** The frames of the rows that arrived after `cursor`, or null when there are none. */
  after(cursor: number): Buffer | null {
    const first = this.seqs.findIndex((seq) => seq > cursor);
    if (first < 0) return null;
    return first === 0 ? this.bytes : this.bytes.subarray(this.starts[first]);
  }
}
