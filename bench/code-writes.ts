/**
 * `npm run bench:code`: the code rows that write (issue "code without a git server"), through a real `feedgate serve`
 * (SQLite by default; `--db postgres://...` for PostgreSQL) over HTTP, each a sequence of real writes whose server CPU
 * is read from /proc before and after:
 *
 * - a commit through the contents API (`PUT .../contents/:path`, a new file each), and one through git data (blob,
 *   tree on `base_tree`, commit, `PATCH .../git/refs/heads/main`): CPU per commit, latency p50/p99;
 * - opening and merging a pull request (a branch made and committed to beforehand, not counted): CPU per open, per merge;
 * - `GET .../compare/main...far` of two branches 1,000 commits apart (made through git data beforehand);
 * - the push webhook's arrival after the contents write's answer, at a receiver in this process: p50/p99.
 *
 * Writes run one at a time, so a row's CPU is its own. The machine is shared: CPU per write is the figure to read.
 *
 *   npm run bench:code -- [--commits 300] [--pulls 100] [--db URL]
 */
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile } from "./percentile.js";
import { CLI, cpuSecondsOf, feedgate, startListening } from "./processes.js";

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const COMMITS = Number(argument("commits", "300"));
const PULLS = Number(argument("pulls", "100"));
const FAR = 1000;

const TOKEN = "c0de0000000000000000000000000000000000b1";
const WORLD = {
  users: [{ login: "octocat" }],
  repos: [{ full_name: "octocat/hello", files: { "README.md": "# hello\n" } }],
  tokens: [{ user: "octocat", token: TOKEN, scopes: ["repo", "admin:repo_hook"], note: "bench" }],
};
const say = (line: string) => process.stderr.write(`${line}\n`);

interface Row {
  label: string;
  count: number;
  cpuMs: number;
  p50: number;
  p99: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-bench-code-"));
  const db = argument("db", join(dir, "code.db"));
  const worldFile = join(dir, "world.json");
  writeFileSync(worldFile, JSON.stringify(WORLD));
  await feedgate(["seed", worldFile, "--db", db]);
  const server = await startListening(
    [
      CLI,
      "serve",
      "--db",
      db,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--log-level",
      "warn",
      "--rate-limit-authenticated",
      "1000000000",
    ],
    join(dir, "server.log"),
  );
  const arrivals = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.headers["x-github-event"] === "push") {
        const after = (JSON.parse(Buffer.concat(chunks).toString()) as { after: string }).after;
        arrivals.set(after, performance.now());
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${server.url}/repos/octocat/hello${path}`, {
      method,
      headers: {
        Authorization: `token ${TOKEN}`,
        Accept: "application/vnd.github+json",
        "Content-Type": "application/json",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  /** Runs `work` `count` times one after another: server CPU per run and each run's latency. */
  const row = async (label: string, count: number, work: (i: number) => Promise<void>): Promise<Row> => {
    const latencies: number[] = [];
    const cpu = cpuSecondsOf(server.pid);
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await work(i);
      latencies.push(performance.now() - started);
    }
    const cpuMs = ((cpuSecondsOf(server.pid) - cpu) * 1000) / count;
    latencies.sort((a, b) => a - b);
    return { label, count, cpuMs, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  };
  const head = async (branch: string) => ((await api("GET", `/git/ref/heads/${branch}`)).object as { sha: string }).sha;
  const content = (i: number) => Buffer.from(`line ${i}\n`).toString("base64");

  try {
    const rows: Row[] = [];
    await api("POST", "/hooks", { config: { url: receiverUrl, content_type: "json" }, events: ["push"] });
    say(`${COMMITS} commits through the contents API`);
    const answered = new Map<string, number>();
    rows.push(
      await row("commit through `PUT .../contents/:path`", COMMITS, async (i) => {
        const made = await api("PUT", `/contents/files/c-${i}.txt`, { message: `c ${i}`, content: content(i) });
        answered.set((made.commit as { sha: string }).sha, performance.now());
      }),
    );
    say(`${COMMITS} commits through git data`);
    rows.push(
      await row(
        "commit through blobs, trees, commits, refs (5 requests: the parent ref and commit read too)",
        COMMITS,
        async (i) => {
          const parent = await head("main");
          const blob = await api("POST", "/git/blobs", { content: `data ${i}\n`, encoding: "utf-8" });
          const base = ((await api("GET", `/git/commits/${parent}`)).tree as { sha: string }).sha;
          const tree = await api("POST", "/git/trees", {
            base_tree: base,
            tree: [{ path: `data/d-${i}.txt`, mode: "100644", type: "blob", sha: blob.sha }],
          });
          const commit = await api("POST", "/git/commits", { message: `d ${i}`, tree: tree.sha, parents: [parent] });
          await api("PATCH", "/git/refs/heads/main", { sha: commit.sha });
        },
      ),
    );
    say(`${PULLS} pull requests opened and merged`);
    const branches: string[] = [];
    for (let i = 0; i < PULLS; i++) {
      await api("POST", "/git/refs", { ref: `refs/heads/topic-${i}`, sha: await head("main") });
      await api("PUT", `/contents/topics/t-${i}.txt`, { message: `t ${i}`, content: content(i), branch: `topic-${i}` });
      branches.push(`topic-${i}`);
    }
    const numbers: number[] = [];
    rows.push(
      await row("open a pull request", PULLS, async (i) => {
        const pull = await api("POST", "/pulls", { title: `Topic ${i}`, head: branches[i], base: "main" });
        numbers.push(pull.number as number);
      }),
    );
    rows.push(
      await row("merge a pull request (merge commit)", PULLS, async (i) => {
        await api("PUT", `/pulls/${numbers[i]}/merge`, {});
      }),
    );
    say(`a branch ${FAR} commits ahead, then compare`);
    await api("POST", "/git/refs", { ref: "refs/heads/far", sha: await head("main") });
    let parent = await head("far");
    const baseTree = ((await api("GET", `/git/commits/${parent}`)).tree as { sha: string }).sha;
    for (let i = 0; i < FAR; i++) {
      const commit = await api("POST", "/git/commits", { message: `far ${i}`, tree: baseTree, parents: [parent] });
      parent = commit.sha as string;
    }
    await api("PATCH", "/git/refs/heads/far", { sha: parent });
    rows.push(
      await row(`\`GET .../compare/main...far\`, ${FAR} commits apart`, 50, async () => {
        await api("GET", "/compare/main...far?per_page=1");
      }),
    );
    const delays = [...answered].flatMap(([sha, at]) => (arrivals.has(sha) ? [arrivals.get(sha)! - at] : []));
    delays.sort((a, b) => a - b);
    const lines = [
      `# Code writes (${db.startsWith("postgres") ? "PostgreSQL" : "SQLite"})`,
      "",
      "| row | writes | server CPU ms each | p50 ms | p99 ms |",
      "|---|---:|---:|---:|---:|",
      ...rows.map(
        (r) => `| ${r.label} | ${r.count} | ${r.cpuMs.toFixed(2)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
      ),
      "",
      `Push webhook arrival after the contents write's answer: ${delays.length} of ${answered.size} received, ` +
        `p50 ${percentile(delays, 0.5).toFixed(1)} ms, p99 ${percentile(delays, 0.99).toFixed(1)} ms`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await server.stop();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
