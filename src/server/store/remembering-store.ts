/**
 * The store as the server uses it: look-ups that every request makes again (the caller's token and account, a
 * repository by name, whether a user may read it) are remembered between requests for as long as the database says
 * that nothing they depend on has changed.
 *
 * What says so is the store's version (StoreVersion), read once at the start of every request (`refresh()`). Its
 * numbers are raised in the transaction of every write by database triggers (migration 6), whichever process or
 * instance writes, so a token deleted through one instance is refused by every instance on its next request: that
 * request reads the new number first and forgets. An answer is kept only under the version that stood when its
 * look-up began, so a look-up that raced a write can never outlive it.
 *
 * What is remembered, and under which number:
 * - by `credentials`: tokens by their last eight characters (found or not: a token is only ever created by a write
 *   that raises it), accounts by id and login, and logins by GitHub's numeric ids (found only: an import creates
 *   accounts without raising anything);
 * - by `repos`: repositories by name and id, and their names by GitHub's ids (found only, for the same reason);
 * - by `access`: who may read a repository and who belongs to an organization (both answers: only collaborator and
 *   member changes alter them; a repository's owner never changes);
 * - by `access` and `repos` together: a caller's role and permission in a repository (both answers: a transfer changes
 *   its owner, which raises `repos`);
 * - by `hooks` and `repos`: whether an active hook would receive a repository's webhooks (both answers: hooks and
 *   installations raise `hooks`, a transfer `repos`), asked by every action.
 * - by `received`: users' received-feed numbers (EventStore.receivedVersion), which only follows and watches raise.
 * Everything else goes straight to the store.
 */
import { entryBoundedCache } from "../bounded-cache.js";
import type { AuthorizationRow, AuthorizationStore } from "./authorization-store.js";
import type { DirectoryStore, OrgRole, RepoAccess, RepoRow } from "./directory-store.js";
import type { EventStore, StoreVersion } from "./event-store.js";
import type { HookStore } from "./hook-store.js";
import type { UserRow, UserStore } from "./user-store.js";
import type { Store } from "./store.js";

/** Entries per kind of look-up: the working set of a busy instance (callers, repositories polled), not the database. */
const ENTRIES = 50_000;

/** Answers of one kind, valid while one number of the version (or one set of them, joined) stands. */
class Remembered<V extends {}> {
  private standing: number | string = -1;
  private readonly answers = entryBoundedCache<string, V>(ENTRIES);

  /** Forgets everything when the number has moved on (refresh() never hands an older one). */
  observe(version: number | string): void {
    if (version === this.standing) return;
    this.standing = version;
    this.answers.clear();
  }

  /**
   * The remembered answer, or the store's, kept when `keep` says it may be and the number did not move while it
   * was being looked up. A miss is simply asked again (only `keep`-able answers are ever stored).
   */
  async get(key: string, look: () => Promise<V>, keep: (answer: V) => boolean = () => true): Promise<V> {
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const standing = this.standing;
    const answer = await look();
    if (standing === this.standing && keep(answer)) this.answers.set(key, answer);
    return answer;
  }
}

/** Found answers only: null is asked again next time. */
const found = <V>(answer: V | null): answer is V => answer !== null;
/** null cannot be an LRU value: a boxed answer carries "not found" when that may be remembered too. */
type Boxed<V> = { value: V };

/** An object that answers the overridden methods itself and passes every other one to `inner`. */
function overriding<T extends object>(inner: T, overrides: Partial<T>): T {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export class RememberingStore {
  /** The store with remembered look-ups; writes and everything else go to the database as before. */
  readonly store: Store;
  private current: StoreVersion = {
    generation: -1,
    credentials: -1,
    repos: -1,
    access: -1,
    received: -1,
    hooks: -1,
  };
  private lastRead: StoreVersion | null = null;

  private readonly tokens = new Remembered<AuthorizationRow[]>();
  private readonly accountsById = new Remembered<Boxed<UserRow | null>>();
  private readonly accountsByLogin = new Remembered<Boxed<UserRow | null>>();
  private readonly repos = new Remembered<Boxed<RepoRow | null>>();
  private readonly reposById = new Remembered<Boxed<RepoRow | null>>();
  private readonly readers = new Remembered<Boxed<boolean>>();
  private readonly members = new Remembered<Boxed<boolean>>();
  private readonly orgRoles = new Remembered<Boxed<OrgRole | null>>();
  private readonly repoAccesses = new Remembered<Boxed<RepoAccess | null>>();
  private readonly hooked = new Remembered<Boxed<boolean>>();
  private readonly loginsByWireId = new Remembered<Boxed<string | null>>();
  private readonly repoNamesByWireId = new Remembered<Boxed<string | null>>();
  private readonly receivedNumbers = new Remembered<Boxed<number>>();

  constructor(private readonly inner: Store) {
    const box =
      <V>(look: () => Promise<V>) =>
      async () => ({ value: await look() });
    const boxedFound = <V>(answer: Boxed<V | null>) => found(answer.value);
    const users = overriding<UserStore>(inner.users, {
      findById: async (id) =>
        (
          await this.accountsById.get(
            String(id),
            box(() => inner.users.findById(id)),
            boxedFound,
          )
        ).value,
      findByLogin: async (login) =>
        (
          await this.accountsByLogin.get(
            login.toLowerCase(),
            box(() => inner.users.findByLogin(login)),
            boxedFound,
          )
        ).value,
    });
    const authorizations = overriding<AuthorizationStore>(inner.authorizations, {
      findByTokenLastEight: (lastEight) =>
        this.tokens.get(lastEight, () => inner.authorizations.findByTokenLastEight(lastEight)),
    });
    const repoAccess = async (userId: number, repoId: number) =>
      (
        await this.repoAccesses.get(
          `${userId}:${repoId}`,
          box(() => inner.directory.repoAccess(userId, repoId)),
        )
      ).value;
    const directory = overriding<DirectoryStore>(inner.directory, {
      findRepo: async (owner, name) =>
        (
          await this.repos.get(
            `${owner}/${name}`.toLowerCase(),
            box(() => inner.directory.findRepo(owner, name)),
            boxedFound,
          )
        ).value,
      findRepoById: async (id) =>
        (
          await this.reposById.get(
            String(id),
            box(() => inner.directory.findRepoById(id)),
            boxedFound,
          )
        ).value,
      canRead: async (userId, repoId) =>
        (
          await this.readers.get(
            `${userId}:${repoId}`,
            box(() => inner.directory.canRead(userId, repoId)),
          )
        ).value,
      isMember: async (orgId, userId) =>
        (
          await this.members.get(
            `${orgId}:${userId}`,
            box(() => inner.directory.isMember(orgId, userId)),
          )
        ).value,
      orgRole: async (orgId, userId) =>
        (
          await this.orgRoles.get(
            `${orgId}:${userId}`,
            box(() => inner.directory.orgRole(orgId, userId)),
          )
        ).value,
      repoAccess,
      repoRole: async (userId, repoId) => (await repoAccess(userId, repoId))?.role ?? null,
      loginByWireId: async (wireId) =>
        (
          await this.loginsByWireId.get(
            String(wireId),
            box(() => inner.directory.loginByWireId(wireId)),
            boxedFound,
          )
        ).value,
      repoNameByWireId: async (wireId) =>
        (
          await this.repoNamesByWireId.get(
            String(wireId),
            box(() => inner.directory.repoNameByWireId(wireId)),
            boxedFound,
          )
        ).value,
    });
    const events = overriding<EventStore>(inner.events, {
      receivedVersion: async (userId) =>
        (
          await this.receivedNumbers.get(
            String(userId),
            box(() => inner.events.receivedVersion(userId)),
          )
        ).value,
    });
    const hooks = overriding<HookStore>(inner.hooks, {
      hasActiveHook: async (repoId) =>
        (
          await this.hooked.get(
            String(repoId),
            box(() => inner.hooks.hasActiveHook(repoId)),
          )
        ).value,
    });
    this.store = overriding<Store>(inner, { users, authorizations, directory, events, hooks });
  }

  /** The version read by the latest refresh: what every answer given since is at least as new as. */
  get version(): StoreVersion {
    return this.current;
  }

  /**
   * Reads the store's version and forgets whatever it has outdated: the first thing every request does. Answers
   * directly when the driver does (SQLite), so a request waits for no promise. `forRequest`: EventStore.version's
   * shareTurn, for a request being handled.
   */
  refresh(forRequest = false): StoreVersion | Promise<StoreVersion> {
    const read = this.inner.events.version(forRequest);
    return read instanceof Promise ? read.then((version) => this.observe(version)) : this.observe(read);
  }

  private observe(read: StoreVersion): StoreVersion {
    // SQLite hands back the very object it read last while nothing has been written: nothing to compare or forget.
    if (read === this.lastRead) return this.current;
    this.lastRead = read;
    // Numbers only grow: with PostgreSQL a request's reading can arrive after a later request's.
    const version: StoreVersion = { ...read };
    for (const name of Object.keys(read) as (keyof StoreVersion)[])
      version[name] = Math.max(read[name], this.current[name]);
    this.current = version;
    for (const remembered of [this.tokens, this.accountsById, this.accountsByLogin, this.loginsByWireId]) {
      remembered.observe(version.credentials);
    }
    for (const remembered of [this.repos, this.reposById, this.repoNamesByWireId]) remembered.observe(version.repos);
    for (const remembered of [this.readers, this.members, this.orgRoles]) remembered.observe(version.access);
    this.repoAccesses.observe(`${version.access}:${version.repos}`);
    this.hooked.observe(`${version.hooks}:${version.repos}`);
    this.receivedNumbers.observe(version.received);
    return version;
  }
}
