/**
 * Every account and repository an ingest batch names, walked in the order ingest-plan.ts applies the batch,
 * so that a bulk insert can give each new one what applying the entries one by one would have: the spelling
 * of its first mention, the first GitHub id given, and "Organization" once any entry says so.
 */
import type { AccountType, IngestBatch } from "./store.js";

export interface NamedAccount {
  login: string;
  type: AccountType;
  externalId: number | null;
  /** False when only a token names it: a token never creates its user. */
  create: boolean;
}

export interface NamedRepo {
  fullName: string;
  owner: string;
  name: string;
  externalId: number | null;
}

export interface Names {
  /** By lowercase login; logins and repository names are case-insensitive, as on GitHub. */
  accounts: Map<string, NamedAccount>;
  /** By lowercase full name. */
  repos: Map<string, NamedRepo>;
}

export function namedIn(batch: IngestBatch): Names {
  const accounts = new Map<string, NamedAccount>();
  const repos = new Map<string, NamedRepo>();

  const account = (login: string, type: AccountType = "User", externalId?: number, create = true) => {
    const key = login.toLowerCase();
    const named = accounts.get(key);
    // A token's look-up never creates the account: the first entry that does decides its spelling.
    if (!named || (create && !named.create)) {
      accounts.set(key, { login, type, externalId: externalId ?? null, create });
      return;
    }
    if (type === "Organization") named.type = "Organization";
    if (named.externalId === null && externalId !== undefined) named.externalId = externalId;
    named.create ||= create;
  };
  const repo = (fullName: string, externalId?: number) => {
    const slash = fullName.indexOf("/");
    account(fullName.slice(0, slash));
    const key = fullName.toLowerCase();
    const named = repos.get(key);
    if (!named) repos.set(key, { fullName, owner: fullName.slice(0, slash), name: fullName.slice(slash + 1), externalId: externalId ?? null });
    else if (named.externalId === null && externalId !== undefined) named.externalId = externalId;
  };

  for (const a of batch.accounts) account(a.login, a.type, a.externalId);
  for (const m of batch.memberships) {
    account(m.org, "Organization");
    account(m.member);
  }
  for (const r of batch.repos) {
    repo(r.fullName, r.externalId);
    if (r.forkOf !== undefined) repo(r.forkOf);
  }
  for (const c of batch.collaborators) {
    repo(c.repo);
    account(c.user);
  }
  for (const f of batch.follows) {
    account(f.follower);
    account(f.followee);
  }
  for (const w of batch.watches) {
    account(w.user);
    repo(w.repo);
  }
  for (const t of batch.tokens) account(t.login, "User", undefined, false);
  for (const e of batch.events) {
    account(e.actorLogin);
    if (e.repoName !== null) repo(e.repoName);
    if (e.orgLogin !== null) account(e.orgLogin, "Organization");
  }
  for (const e of batch.issueEvents) {
    repo(e.repoName);
    if (e.actorLogin !== null) account(e.actorLogin);
  }
  return { accounts, repos };
}
