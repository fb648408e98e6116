/** The server's own figures, read from its Prometheus text at /metrics (prom-client's default metrics). */

export interface ServerMetrics {
  /** Event-loop delay in seconds since the scrape before: prom-client resets its monitor at every scrape. */
  p99: number;
  max: number;
  /** The V8 heap in use and the memory outside it (bytes), and the handles libuv holds open. */
  heap: number;
  external: number;
  handles: number;
}

export async function serverMetrics(url: string): Promise<ServerMetrics> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} ([0-9.eE+-]+)$`, "m").exec(text)?.[1] ?? NaN);
  return {
    p99: value("nodejs_eventloop_lag_p99_seconds"), max: value("nodejs_eventloop_lag_max_seconds"),
    heap: value("nodejs_heap_size_used_bytes"), external: value("nodejs_external_memory_bytes"), handles: value("nodejs_active_handles_total"),
  };
}
