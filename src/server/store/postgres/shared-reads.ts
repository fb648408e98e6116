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
 * for the one in flight and its own. A read in flight that takes too long (a connection the network swallowed, which
 * only the query timeout ends) is not waited for: the queued read starts anyway, so one stuck connection does not
 * hold every request behind it.
 *
 * Not shared: only PostgreSQL's reads are round trips worth sharing; SQLite answers at once.
 */
interface Reading<T> {
  /** The read the callers that came while this one was in flight share; null until one comes. */
  queued: Promise<T> | null;
  startQueued: (() => void) | null;
}

/** How long the queued read waits for the one in flight: a version read answers in a millisecond or so. */
const STALLED_MS = 100;

export class SharedReads<K, T> {
  /** Reads in flight by key; a key's entry is gone once its reads are done, so idle keys take no memory. */
  private readonly reading = new Map<K, Reading<T>>();

  /** @param stalledMs how long queued callers wait for a read in flight before their own starts regardless. */
  constructor(
    private readonly read: (key: K) => Promise<T>,
    private readonly stalledMs = STALLED_MS,
  ) {}

  /** The value as read by a read that starts after this call. */
  get(key: K): Promise<T> {
    const inFlight = this.reading.get(key);
    if (inFlight === undefined) return this.start(key);
    inFlight.queued ??= new Promise<T>((resolve, reject) => {
      let started = false;
      const stalled = setTimeout(() => inFlight.startQueued?.(), this.stalledMs);
      inFlight.startQueued = () => {
        if (started) return;
        started = true;
        clearTimeout(stalled);
        this.start(key).then(resolve, reject);
      };
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
      // Gone before the queued read starts, which files itself anew: callers from now on queue behind that one. (A
      // stalled read's queued one may have started already, and filed itself: that entry stays.)
      if (this.reading.get(key) === reading) this.reading.delete(key);
      reading.startQueued?.();
    };
    read.then(settled, settled);
    return read;
  }
}
