/**
 * A ref update is a push (https://docs.github.com/webhooks/webhook-events-and-payloads#push), whichever API made it:
 * `git/refs`, a contents write, a merge. In the action's transaction it moves the ref (only from where the caller saw
 * it, so two racing pushes cannot both win) and makes what GitHub makes of a push: for a new branch or tag the
 * `CreateEvent` and the `create` webhook, for a deleted one the `DeleteEvent` and the `delete` webhook, for a moved one
 * the `PushEvent` in the Events API's trimmed payload (CL25: `repository_id`, `push_id`, `ref`, `head`, `before`),
 * and for every one the `push` webhook with the commits it brought, each with the paths it added, removed and
 * modified (diffed against its first parent, as GitHub lists them). A protected branch's rules are kept first
 * (../protection/protection-rules.ts): what they forbid is refused in the words of the caller's API, nothing written.
 * A pushed branch's head gets the check suites of the apps that take them (services/checks/suites-on-push.ts).
 */
import { webOrigin } from "../../convert/urls.js";
import { ApiError } from "../../errors.js";
import type { RepoRow, UserRow } from "../../store/store.js";
import type { Making } from "../actions/acting.js";
import type { NetworkObjects } from "./network-objects.js";
import { type CommitFields, type GitPerson, formatApiDate } from "../../git/objects.js";
import { diffTrees } from "../../git/tree-diff.js";
import { ancestorsOf, commitsNotIn } from "./history.js";
import { pullsPushed } from "../pulls/pull-heads.js";
import { PROTECTED_BRANCHES_DOCS, pushRefusals, rulesOf } from "../protection/protection-rules.js";
import { suitesRequested } from "../checks/suites-on-push.js";

/** The branch a repository's contents are read from when no ref is named: GitHub's `main` until one is set. */
export const defaultBranchOf = (repo: RepoRow): string => repo.settings.defaultBranch || "main";

/** Git's null object id: a push's `before` when it created the ref, its `after` when it deleted it. */
export const NULL_SHA = "0".repeat(40);

/**
 * The push webhook lists at most this many commits ("The array includes a maximum of 2048 commits", GitHub's push
 * webhook documentation); the walk that finds them stops there.
 */
const MAX_PUSHED_COMMITS = 2048;

export interface RefUpdate {
  /** The ref's full name: `refs/heads/main`, `refs/tags/v1.0`. */
  name: string;
  /** Where the caller saw the ref: null when it made it. */
  before: string | null;
  /** Where it points now: null when it deleted it. */
  after: string | null;
  /** Not a fast-forward (GitHub's `forced`). */
  forced: boolean;
}

/** GitHub's 422 when the ref moved between the caller's read and its write. */
const refMoved = () => new ApiError(422, "Reference cannot be updated");

/**
 * How an API refuses a push its branch's protection forbids, from GitHub's reasons: the refs API's 422 with them as
 * its message (GitHub's "Ensure your app is ready for Protected Branches", 2015: "Cannot delete a protected branch").
 */
export type ProtectedRefusal = (reasons: string[]) => ApiError;
export const protectedRef: ProtectedRefusal = (reasons) =>
  new ApiError(422, reasons.join(" "), { documentationUrl: PROTECTED_BRANCHES_DOCS });
/** A pull request's merge: its base's rules were checked as a merge's (services/protection/protection-rules.ts). */
export const MERGING = "merging" as const;

/** `branch` or `tag`, and the short name the Events API and the create/delete webhooks carry (`main`, `v1.0`). */
export function refKind(name: string): { refType: "branch" | "tag"; short: string } | null {
  if (name.startsWith("refs/heads/")) return { refType: "branch", short: name.slice("refs/heads/".length) };
  if (name.startsWith("refs/tags/")) return { refType: "tag", short: name.slice("refs/tags/".length) };
  return null;
}

/**
 * The e-mail feedgate gives the commits it writes for a person: GitHub's noreply address (as with "Keep my email
 * addresses private"), which names the account, so that a commit's author is found again (./commits.ts).
 */
export const commitEmail = (user: UserRow): string => `${user.wireId}+${user.login}@users.noreply.github.com`;

/** A person as the API takes them by default: the caller, now, in UTC. */
export const personOf = (user: UserRow, at: Date): GitPerson => ({
  name: user.login,
  email: commitEmail(user),
  date: new Date(Math.floor(at.getTime() / 1000) * 1000),
  offsetMinutes: 0,
});

/** A commit's time as git wrote it, with its offset (`2019-03-29T07:57:33+01:00`), as push webhooks show it. */
function timestamp(person: GitPerson): string {
  if (person.offsetMinutes === 0) return formatApiDate(person);
  const local = new Date(person.date.getTime() + person.offsetMinutes * 60_000);
  const sign = person.offsetMinutes < 0 ? "-" : "+";
  const magnitude = Math.abs(person.offsetMinutes);
  const offset = `${String(Math.floor(magnitude / 60)).padStart(2, "0")}:${String(magnitude % 60).padStart(2, "0")}`;
  return `${local.toISOString().slice(0, 19)}${sign}${offset}`;
}

/**
 * The commits reachable from `after` but not from `known` (what the repository already had), newest first, in
 * breadth-first order from `after`; both walks bounded.
 */
async function pushedCommits(objects: NetworkObjects, after: string, known: readonly string[]) {
  const had = await ancestorsOf(objects, known, MAX_PUSHED_COMMITS * 4);
  return commitsNotIn(objects, after, had, MAX_PUSHED_COMMITS);
}

/** A commit as the push webhook lists it (`commits[]`, `head_commit`). */
async function webhookCommit(
  objects: NetworkObjects,
  sha: string,
  commit: CommitFields,
  users: UserRow[],
  web: string,
) {
  const parent = commit.parents[0] ? await objects.commit(commit.parents[0]) : null;
  const changes = await diffTrees(objects.trees, parent?.tree ?? null, commit.tree);
  const paths = (status: string) => changes.filter((change) => change.status === status).map((change) => change.path);
  const person = (p: GitPerson) => {
    const user = users.find((u) => commitEmail(u) === p.email);
    return { name: p.name, email: p.email, ...(user ? { username: user.login } : {}) };
  };
  return {
    id: sha,
    tree_id: commit.tree,
    distinct: true,
    message: commit.message,
    timestamp: timestamp(commit.author),
    url: `${web}/commit/${sha}`,
    author: person(commit.author),
    committer: person(commit.committer),
    added: paths("added"),
    removed: paths("removed"),
    modified: paths("modified"),
  };
}

/**
 * Moves the ref in the action's transaction and makes the push's events and webhooks. `objects` is the action's
 * (its made objects are written here, before the ref that points at them).
 */
export async function push(
  making: Making,
  objects: NetworkObjects,
  update: RefUpdate,
  /** What to answer when another write moved the ref first: the refs API's 422 unless the caller says otherwise. */
  moved: () => ApiError = refMoved,
  /** How the caller's API refuses what the branch's protection forbids (the refs API's 422 unless it says otherwise). */
  refused: ProtectedRefusal | typeof MERGING = protectedRef,
): Promise<void> {
  const { tx, scene } = making;
  const { repo, actor } = scene;
  const kind = refKind(update.name);
  if (kind?.refType === "branch" && refused !== MERGING) {
    const rules = await rulesOf(tx, repo, kind.short);
    const reasons = rules ? await pushRefusals(tx, repo, actor, update, rules) : [];
    if (reasons.length > 0) throw refused(reasons);
  }
  await objects.write();
  const applied =
    update.after === null
      ? update.before !== null && (await tx.git.deleteRef(repo.id, update.name, update.before))
      : await tx.git.setRef(repo.id, update.name, update.after, update.before);
  if (!applied) throw moved();
  const created = update.before === null;
  const deleted = update.after === null;
  const pusherType = { pusher_type: "user" };
  const master = defaultBranchOf(repo);
  if (kind && created) {
    const payload = {
      ref: kind.short,
      ref_type: kind.refType,
      master_branch: master,
      description: repo.settings.description,
      ...pusherType,
    };
    await making.event("CreateEvent", payload);
    making.webhook("create", null, payload);
  } else if (kind && deleted) {
    const payload = { ref: kind.short, ref_type: kind.refType, ...pusherType };
    await making.event("DeleteEvent", payload);
    making.webhook("delete", null, payload);
  } else {
    await making.event("PushEvent", (id) => ({
      repository_id: repo.wireId,
      push_id: Number(id),
      ref: update.name,
      head: update.after,
      before: update.before,
    }));
  }
  if (kind?.refType === "branch") await pullsPushed(making, kind.short, update.before, update.after);
  if (kind?.refType === "branch" && update.after !== null)
    await suitesRequested(making, objects, {
      branch: kind.short,
      before: update.before ?? NULL_SHA,
      after: update.after,
    });
  if (scene.context === null) return;
  const web = `${webOrigin(scene.baseUrl)}/${repo.fullName}`;
  const others = (await tx.git.refs(repo.id, "refs/")).filter((ref) => ref.name !== update.name).map((r) => r.sha);
  const commits =
    update.after === null ? [] : await pushedCommits(objects, update.after, created ? others : [update.before!]);
  const users = [actor];
  const listed = await Promise.all(
    commits.reverse().map(({ sha, fields }) => webhookCommit(objects, sha, fields, users, web)),
  );
  const head = update.after === null ? null : await objects.commit(update.after);
  const short = (sha: string | null) => (sha ?? NULL_SHA).slice(0, 12);
  making.webhook("push", null, {
    ref: update.name,
    before: update.before ?? NULL_SHA,
    after: update.after ?? NULL_SHA,
    pusher: { name: actor.login, email: commitEmail(actor) },
    created,
    deleted,
    forced: update.forced,
    base_ref: null,
    compare: created
      ? `${web}/commit/${update.after}`
      : `${web}/compare/${short(update.before)}...${short(update.after)}`,
    commits: listed,
    head_commit:
      head && update.after
        ? (listed.find((c) => c.id === update.after) ?? (await webhookCommit(objects, update.after, head, users, web)))
        : null,
  });
}
