/**
 * The one walk over an ingest batch: its entries in the order they are applied, each naming the accounts and
 * repositories it mentions, in that order. It runs twice per batch with two targets: first one that only gathers
 * the names (ingest-names.ts), so that they are looked up and created in bulk, then the plan that applies the
 * entries (ingest-plan.ts). One walk, so the names gathered are always exactly the names the plan will use.
 */
import type { Step } from "./ingest-protocol.js";
import type { AccountType } from "./user-store.js";
import type { OrgRole } from "./directory-store.js";
import type {
  AccountUpsert,
  EventInsert,
  IngestBatch,
  IssueEventInsert,
  RepoUpsert,
  TokenInsert,
} from "./ingest-store.js";

/** What a walk does with each entry; ids are the target's own (the gathering target has none to give). */
export interface BatchTarget {
  account(login: string, source: string, type?: AccountType, externalId?: number): number;
  repo(fullName: string, source: string, externalId?: number): { id: number };
  upsertAccount(a: AccountUpsert): Step<void>;
  upsertRepo(r: RepoUpsert): void;
  member(orgId: number, memberId: number, role: OrgRole): void;
  collaborator(repoId: number, userId: number, remove: boolean): void;
  follow(followerId: number, followeeId: number): void;
  watch(userId: number, repoId: number): void;
  token(t: TokenInsert): Step<void>;
  event(e: EventInsert, ids: { actorId: number; repoId: number | null; orgId: number | null }): void;
  issueEvent(e: IssueEventInsert, ids: { repoId: number; actorId: number | null }): void;
}

/** The batch, entry by entry; within an entry, names are taken left to right as written here. */
export function* walkBatch(batch: IngestBatch, target: BatchTarget): Step<void> {
  for (const a of batch.accounts) yield* target.upsertAccount(a);
  for (const m of batch.memberships) {
    const orgId = target.account(m.org, m.source, "Organization");
    target.member(orgId, target.account(m.member, m.source), m.role ?? "member");
  }
  for (const r of batch.repos) target.upsertRepo(r);
  for (const c of batch.collaborators) {
    const repoId = target.repo(c.repo, c.source).id;
    target.collaborator(repoId, target.account(c.user, c.source), c.remove ?? false);
  }
  for (const f of batch.follows) {
    const followerId = target.account(f.follower, f.source);
    target.follow(followerId, target.account(f.followee, f.source));
  }
  for (const w of batch.watches) {
    const userId = target.account(w.user, w.source);
    target.watch(userId, target.repo(w.repo, w.source).id);
  }
  for (const t of batch.tokens) yield* target.token(t);
  for (const e of batch.events) {
    const actorId = target.account(e.actorLogin, e.source);
    const repoId = e.repoName === null ? null : target.repo(e.repoName, e.source).id;
    const orgId = e.orgLogin === null ? null : target.account(e.orgLogin, e.source, "Organization");
    target.event(e, { actorId, repoId, orgId });
  }
  for (const e of batch.issueEvents) {
    const repoId = target.repo(e.repoName, e.source).id;
    target.issueEvent(e, { repoId, actorId: e.actorLogin === null ? null : target.account(e.actorLogin, e.source) });
  }
}
