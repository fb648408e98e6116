/**
 * Small reads that many concurrent requests share, without one ever reading the database as it was before the
 * request arrived.
 *
 * Every request reads the store's version first (plugins/store-version.ts), and a received feed its user's
 * follows-and-watches number, so that it sees every write committed before it arrived, by any instance. With
 * PostgreSQL each is a round trip, and under load most of a cached page's cost. A caller here joins a read that
 * has not started yet, never one already under way: that one's snapshot may predate a write the caller must see.
 * So while a read is in flight, every caller that arrives waits for the one read queued behind it, which starts
 * when the first settles: a burst of requests costs two round trips, not one each, and a request waits at most
 * for the one in flight and its own.
 */
interface Reading<T> {
  /** The read the callers that came while this one was in flight share; null until one comes. */
  queued: Promise<T> | null;
  startQueued: (() => void) | null;
}

export class SharedReads<K, T> {
  /** Reads in flight by key; a key's entry is gone once its reads are done, so idle keys take no memory. */
  private readonly reading = new Map<K, Reading<T>>();

  constructor(private readonly read: (key: K) => Promise<T>) {}

  /** The value as read by a read that starts after this call. */
  get(key: K): Promise<T> {
    const inFlight = this.reading.get(key);
    if (inFlight === undefined) return this.start(key);
    inFlight.queued ??= new Promise<T>((resolve, reject) => {
      inFlight.startQueued = () => this.start(key).then(resolve, reject);
    });
    return inFlight.queued;
  }

  private start(key: K): Promise<T> {
    const reading: Reading<T> = { queued: null, startQueued: null };
    this.reading.set(key, reading);
    let read: Promise<T>;
    try {
      read = this.read(key);
    } catch (error) {
      read = Promise.reject(error);
    }
    const settled = () => {
      // Gone before the queued read starts, which files itself anew: callers from now on queue behind that one.
      this.reading.delete(key);
      reading.startQueued?.();
    };
    read.then(settled, settled);
    return read;
  }
}
