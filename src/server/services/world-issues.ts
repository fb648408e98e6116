/**
 * A world file's `issues`: issues as a repository already has them (GitHub's state, not activity: seeding makes no
 * event and no webhook), each with its number, author, state, labels, assignees and times. They are checked with the
 * rest of the document, before anything is written, and stored after its batch, in one action transaction; an issue
 * whose number the repository has already is left as it is, so seeding the same world again changes nothing.
 */
import type { ActionTransaction, IngestBatch, Store } from "../store/store.js";
import { fail, isObject, REPO_NAME, type Json } from "./input-checks.js";

export interface WorldIssue {
  source: string;
  repo: string;
  number: number;
  user: string;
  title: string;
  body: string | null;
  state: "open" | "closed";
  labels: string[];
  assignees: string[];
  createdAt: Date;
  closedAt: Date | null;
}

const ISSUE_KEYS = [
  "repo",
  "number",
  "user",
  "title",
  "body",
  "state",
  "labels",
  "assignees",
  "created_at",
  "closed_at",
];
/** The colour of a label a world issue names that no world entry describes: GitHub's for a label made on the fly. */
const WORLD_LABEL_COLOR = "ededed";

function time(value: unknown, where: string): Date {
  const at =
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}T[0-9:.]+(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) fail(where, 'must be an ISO 8601 time with a zone ("2026-01-01T10:00:00Z")');
  return at;
}

function names(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v.trim() === ""))
    fail(where, "must be an array of non-empty strings");
  return value as string[];
}

/**
 * The document's issues, checked. `batch` is the rest of the document's: an issue's repository and the accounts it
 * names must be in it or stored already, so that nothing can refuse the issues once the batch is written.
 */
export async function worldIssues(
  store: Store,
  entries: unknown[],
  batch: IngestBatch,
  now: Date,
): Promise<WorldIssue[]> {
  const repos = new Set(batch.repos.map((r) => r.fullName.toLowerCase()));
  const accounts = new Set(batch.accounts.map((a) => a.login.toLowerCase()));
  const known = async (login: string) =>
    accounts.has(login.toLowerCase()) || (await store.users.findByLogin(login)) !== null;
  const numbers = new Set<string>();
  const issues: WorldIssue[] = [];
  for (const [i, value] of entries.entries()) {
    const where = `issues[${i}]`;
    if (!isObject(value)) fail(where, "must be an object");
    const e = value as Json;
    const unknown = Object.keys(e).filter((k) => !ISSUE_KEYS.includes(k));
    if (unknown.length > 0) fail(where, `unknown key ${unknown.map((k) => `"${k}"`).join(", ")}`);
    if (typeof e.repo !== "string" || !REPO_NAME.test(e.repo)) fail(`${where}.repo`, 'must be "owner/name"');
    const repo = e.repo as string;
    if (!repos.has(repo.toLowerCase())) {
      const [owner, name] = repo.split("/") as [string, string];
      if (!(await store.directory.findRepo(owner, name))) fail(`${where}.repo`, `no repository ${repo} in the world`);
    }
    if (!Number.isSafeInteger(e.number) || (e.number as number) < 1)
      fail(`${where}.number`, "must be a whole number from 1");
    const number = e.number as number;
    if (numbers.has(`${repo.toLowerCase()}#${number}`)) fail(`${where}.number`, `${repo} has issue ${number} twice`);
    numbers.add(`${repo.toLowerCase()}#${number}`);
    if (typeof e.user !== "string" || !(await known(e.user))) fail(`${where}.user`, "must name a user of the world");
    if (typeof e.title !== "string" || e.title.trim() === "") fail(`${where}.title`, "must be a non-empty string");
    if (e.body !== undefined && e.body !== null && typeof e.body !== "string")
      fail(`${where}.body`, "must be a string");
    const state = e.state ?? "open";
    if (state !== "open" && state !== "closed") fail(`${where}.state`, 'must be "open" or "closed"');
    const assignees = names(e.assignees, `${where}.assignees`);
    for (const [j, login] of assignees.entries())
      if (!(await known(login))) fail(`${where}.assignees[${j}]`, "must name a user of the world");
    const createdAt = e.created_at === undefined ? now : time(e.created_at, `${where}.created_at`);
    const closedAt =
      state === "closed" ? (e.closed_at === undefined ? createdAt : time(e.closed_at, `${where}.closed_at`)) : null;
    if (state === "open" && e.closed_at !== undefined) fail(`${where}.closed_at`, "is for closed issues only");
    issues.push({
      source: where,
      repo,
      number,
      user: e.user as string,
      title: (e.title as string).trim(),
      body: (e.body as string | null | undefined) ?? null,
      state,
      labels: names(e.labels, `${where}.labels`),
      assignees,
      createdAt,
      closedAt,
    });
  }
  return issues;
}

/** Stores the issues a repository does not have yet (by number); answers how many it stored. */
export async function storeWorldIssues(tx: ActionTransaction, issues: WorldIssue[]): Promise<number> {
  let stored = 0;
  for (const w of issues) {
    const [owner, name] = w.repo.split("/") as [string, string];
    const repo = (await tx.directory.findRepo(owner, name))!;
    if (await tx.issues.find(repo.id, w.number)) continue;
    const author = (await tx.users.findByLogin(w.user))!;
    const issue = await tx.issues.insert({
      repoId: repo.id,
      number: w.number,
      userId: author.id,
      title: w.title,
      body: w.body,
      milestoneId: null,
      at: w.createdAt,
    });
    if (w.state === "closed")
      await tx.issues.update(issue.id, {
        state: "closed",
        stateReason: "completed",
        closedAt: w.closedAt,
        updatedAt: w.closedAt!,
      });
    const labels = await tx.issues.labelsNamed(repo.id, w.labels);
    for (const label of w.labels)
      if (!labels.some((l) => l.name.toLowerCase() === label.toLowerCase()))
        labels.push(
          await tx.issues.insertLabel({
            repoId: repo.id,
            name: label,
            color: WORLD_LABEL_COLOR,
            description: null,
            isDefault: false,
          }),
        );
    await tx.issues.addLabels(
      issue.id,
      labels.map((l) => l.id),
    );
    const assignees: number[] = [];
    for (const login of w.assignees) assignees.push((await tx.users.findByLogin(login))!.id);
    await tx.issues.addAssignees(issue.id, assignees);
    stored++;
  }
  return stored;
}
