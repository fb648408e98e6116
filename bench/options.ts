/** The benchmark's flags: `npm run bench -- --events 200000 --duration 10` for a quick run. */
import { parseArgs } from "node:util";
import { ROOT } from "./processes.js";

export interface BenchOptions {
  events: number;
  seed: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  dataDir: string;
  resultsDir: string;
  regenerate: boolean;
  gzip: boolean;
  reuseDb: boolean;
  postgres: boolean;
  build: boolean;
  only: string[] | null;
  cpuProf: boolean;
  logLevel: string;
  postgresSeconds: number;
  /** `--postgres-rows`: the idle feed rows again, served from the PostgreSQL database the import made. */
  postgresRows: boolean;
  /**
   * `--postgres-db URL`: only the PostgreSQL rows, served from this database (an earlier `feedgate import` of the same
   * generated events); no import, no SQLite. Null otherwise.
   */
  postgresDb: string | null;
  /** `--streams 1000,10000`: the stream counts the streams row measures, in turn, on the same server. */
  streams: number[];
  /** `--stream-rate N`: events/s posted while 1,000 streams are open (scaled for other counts). */
  streamRate: number;
  /** `--soak 10m`: run the soak (bench/soak.ts) for this many seconds instead of the scenarios; null otherwise. */
  soakSeconds: number | null;
}

const HELP = `npm run bench -- [flags]

  --events N        events to generate and serve (default 1000000)
  --large           the 10,000,000-event run (implies --gzip; ~50 GB of disk and about half an hour)
  --gzip            write the generated file gzipped (GH Archive's format; about 6x less disk, costs CPU on both sides)
  --duration S      measured seconds per scenario (default 15)
  --warmup S        warm-up seconds before each (default a quarter of --duration, at least 1)
  --connections N   concurrent connections (default 32)
  --seed N          generator seed (default 1): same seed, same data
  --data-dir DIR    generated files and databases (default bench/data, git-ignored)
  --results-dir DIR where the report is saved (default bench/results)
  --regenerate      write the data file again even if one of that size and seed exists
  --reuse-db        serve the SQLite database of an earlier run instead of importing again (no import figure)
  --skip-postgres   do not measure the PostgreSQL import
  --postgres-seconds S  stop the PostgreSQL import after S seconds and report the rate so far (default 120)
  --postgres-rows   import into PostgreSQL in full (database feedgate_bench, dropped after; no --postgres-seconds),
                    then measure the feed rows (repo, events, user, received, page1000, 304, as --only picks) served
                    from it, each against its own ceiling, as rows "PostgreSQL: ..."
  --postgres-db URL only the PostgreSQL rows (as --postgres-rows measures them), served from this database, which holds
                    an earlier feedgate import of the same generated events (a ten-million-event import takes 20 to 40
                    minutes); it is seeded with the world and otherwise left as it is: no import, no SQLite rows
  --no-build        use dist/ as it is (default: npm run build first)
  --only a,b        run only these scenarios (each HTTP row brings its own ceiling; "ceiling" is the old single
                    one, kept for history): ceiling, repo, events, user, received, page1000, 304, test-double, live-repo,
                    live-events, live-user, live-received, live-304, authorizations, app-jwt, installation-token,
                    mint (a GitHub App's JWT, its installation token, minting one) (live-*: polled while
                    1,000 events/s are ingested through POST /admin/events), webhooks (deliveries/s to a
                    local receiver: a flood, then --duration seconds below capacity), streams (fan-out to
                    --streams open streams)
  --streams N,...   the streams row's stream counts, each measured in turn (default 1000; 1000,10000 adds the
                    10,000-stream measurement: needs ulimit -n above 10,200)
  --stream-rate N   events/s posted to 1,000 open streams (default 20); other counts get the same frames/s in all
                    (a tenth of it for 10,000 streams)
  --cpu-prof        profile the server (node --cpu-prof) and append a summary; best with --only one scenario
  --log-level L     the server's log level (default warn; info logs every request)
  --soak D          instead of the scenarios: polls, ingests, deliveries and streams together for D (10m, 90s, 1h),
                    sampling RSS, open handles, event-loop delay and database size, with their slopes per hour
`;

/** `90s`, `10m`, `1h`, or plain seconds. */
function duration(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^([0-9]+)(s|m|h)?$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] as "s" | "m" | "h") ?? "s"] : 0;
  if (seconds < 10)
    throw new Error(`--${name} must be a duration of at least 10s, such as 90s, 10m or 1h, got "${value}"`);
  return seconds;
}

function count(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ""));
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

export function parseOptions(argv = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: "string" },
      large: { type: "boolean" },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      seed: { type: "string" },
      "data-dir": { type: "string" },
      "results-dir": { type: "string" },
      regenerate: { type: "boolean" },
      "reuse-db": { type: "boolean" },
      gzip: { type: "boolean" },
      "skip-postgres": { type: "boolean" },
      "no-build": { type: "boolean" },
      only: { type: "string" },
      "cpu-prof": { type: "boolean" },
      "log-level": { type: "string" },
      "postgres-seconds": { type: "string" },
      "postgres-rows": { type: "boolean" },
      "postgres-db": { type: "string" },
      streams: { type: "string" },
      "stream-rate": { type: "string" },
      soak: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.large && values.events !== undefined) throw new Error("--large and --events exclude each other");
  const durationSeconds = count("duration", values.duration, 15);
  return {
    events: values.large ? 10_000_000 : count("events", values.events, 1_000_000),
    seed: count("seed", values.seed, 1, 0),
    durationSeconds,
    warmupSeconds: count("warmup", values.warmup, Math.max(1, Math.round(durationSeconds / 4)), 0),
    connections: count("connections", values.connections, 32),
    dataDir: values["data-dir"] ?? `${ROOT}bench/data`,
    resultsDir: values["results-dir"] ?? `${ROOT}bench/results`,
    regenerate: Boolean(values.regenerate),
    gzip: Boolean(values.gzip || values.large),
    reuseDb: Boolean(values["reuse-db"]),
    postgres: !values["skip-postgres"],
    build: !values["no-build"],
    only: values.only
      ? values.only
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : null,
    cpuProf: Boolean(values["cpu-prof"]),
    logLevel: values["log-level"] ?? "warn",
    postgresSeconds: count("postgres-seconds", values["postgres-seconds"], 120),
    postgresRows: Boolean(values["postgres-rows"]),
    postgresDb: values["postgres-db"] ?? null,
    streams: (values.streams ?? "1000").split(",").map((n) => count("streams", n.trim(), 1000)),
    streamRate: count("stream-rate", values["stream-rate"], 20, 2),
    soakSeconds: duration("soak", values.soak),
  };
}
