/** The server's own figures, read from its Prometheus text at /metrics (prom-client's default metrics). */
import { EVENT_LOOP_MONITOR_MS } from "../src/server/metrics.js";

/**
 * How late the server's event loop took its turns since the scrape before (ms; prom-client resets its monitor at
 * every scrape): the monitor records the time between its timer's turns, so its interval is taken off.
 */
export interface LoopDelay {
  p99: number;
  max: number;
}

export interface ServerMetrics {
  loopDelay: LoopDelay;
  /** The V8 heap in use and the memory outside it (bytes), and the handles libuv holds open. */
  heap: number;
  external: number;
  handles: number;
}

export async function serverMetrics(url: string): Promise<ServerMetrics> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} ([0-9.eE+-]+)$`, "m").exec(text)?.[1] ?? NaN);
  const late = (seconds: number) => Math.max(0, seconds * 1000 - EVENT_LOOP_MONITOR_MS);
  return {
    loopDelay: {
      p99: late(value("nodejs_eventloop_lag_p99_seconds")),
      max: late(value("nodejs_eventloop_lag_max_seconds")),
    },
    heap: value("nodejs_heap_size_used_bytes"),
    external: value("nodejs_external_memory_bytes"),
    handles: value("nodejs_active_handles_total"),
  };
}

/** The server's event-loop delay since its last scrape; null when its /metrics could not be read. */
export async function loopDelaySince(metricsUrl: string): Promise<LoopDelay | null> {
  try {
    const { loopDelay } = await serverMetrics(metricsUrl);
    return Number.isFinite(loopDelay.p99) && Number.isFinite(loopDelay.max) ? loopDelay : null;
  } catch {
    return null;
  }
}
