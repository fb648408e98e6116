/**
 * GitHub's releases API (https://docs.github.com/rest/releases/releases): a release of a tag, made, read, listed,
 * edited and deleted, each write one action of the log with its ReleaseEvent and `release` webhooks
 * (./release-made.ts). A published release whose tag does not exist makes it at `target_commitish` (the default
 * branch unless given) as a push, so the tag's CreateEvent and `create` webhook come in the same transaction; a draft
 * makes no tag until it is published, as on GitHub. Deleting a release leaves its tag. Drafts are seen only by those
 * who push to the repository; to anyone else a draft is not there (404).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { ReleaseFacts } from "../../convert/release.js";
import { notFound, validationFailed } from "../../errors.js";
import {
  MAKE_LATEST,
  type MakeLatest,
  type PageRequest,
  type ReleaseChanges,
  type ReleaseRow,
  type RepoRow,
  type Store,
} from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { Acting, numberOf, type ActionParts, type Making } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import { isRefName } from "../git/git-refs.js";
import { defaultBranchOf, push } from "../git/pushes.js";
import type { RepositoryCode } from "../git/repository-code.js";
import { releaseFacts, seesDrafts } from "./release-facts.js";
import { releaseAbout, releasePublished, releaseWebhook } from "./release-made.js";

type Rows = Endpoints["releases"];
type CreateInput = RequestOf<Rows["create"], "body">;
type UpdateInput = RequestOf<Rows["update"], "body">;

export type ReleasePath = FeedParams & { release_id: string };

export interface ReleaseView {
  repo: RepoRow;
  facts: ReleaseFacts;
}

const DOCS = "https://docs.github.com/rest/releases/releases#create-a-release";

/** GitHub's 422 entry about a release. */
const refused = (field: string, code: string) => validationFailed([{ resource: "Release", code, field }], DOCS);

function makeLatestOf(value: string | undefined): MakeLatest | undefined {
  if (value === undefined) return undefined;
  if (!(MAKE_LATEST as readonly string[]).includes(value)) throw refused("make_latest", "invalid");
  return value as MakeLatest;
}

/** When a release published now is the latest: a full release left to be made latest (`make_latest: true`). */
const latestAt = (r: Pick<ReleaseRow, "draft" | "prerelease" | "makeLatest">, at: Date): Date | null =>
  !r.draft && !r.prerelease && r.makeLatest === "true" ? at : null;

export class ReleaseService {
  private readonly store: Store;
  readonly acting: Acting;

  constructor(
    parts: ActionParts,
    readonly code: RepositoryCode,
  ) {
    this.store = parts.store;
    this.acting = new Acting(parts);
  }

  /** The release the path names, when the caller may see it (a draft only with push access); 404 otherwise. */
  async find(repo: RepoRow, id: string, principal: Principal | null): Promise<ReleaseRow> {
    const number = numberOf(id);
    const release = number === null ? null : await this.store.releases.find(repo.id, number);
    if (!release || (release.draft && !(await seesDrafts(this.store, repo, principal)))) throw notFound();
    return release;
  }

  async view(repo: RepoRow, release: ReleaseRow): Promise<ReleaseView> {
    const [facts] = await releaseFacts(this.store, [release]);
    return { repo, facts: facts! };
  }

  async list(params: FeedParams, principal: Principal | null, window: PageRequest) {
    const repo = await this.code.readable(params, principal);
    const page = await this.store.releases.page(repo.id, await seesDrafts(this.store, repo, principal), window);
    return { repo, rows: await releaseFacts(this.store, page.rows), total: page.total };
  }

  async get(path: ReleasePath, principal: Principal | null): Promise<ReleaseView> {
    const repo = await this.code.readable(path, principal);
    return this.view(repo, await this.find(repo, path.release_id, principal));
  }

  async latest(params: FeedParams, principal: Principal | null): Promise<ReleaseView> {
    const repo = await this.code.readable(params, principal);
    const release = await this.store.releases.latest(repo.id);
    if (!release) throw notFound();
    return this.view(repo, release);
  }

  /** A published release by its tag ("Get a published release with the specified tag"): a draft is not found. */
  async byTag(path: FeedParams & { tag: string }, principal: Principal | null): Promise<ReleaseView> {
    const repo = await this.code.readable(path, principal);
    const release = await this.store.releases.byTag(repo.id, path.tag);
    if (!release || release.draft) throw notFound();
    return this.view(repo, release);
  }

  /** The commit a missing tag would be made at; 422 when the target names none (or the repository is empty). */
  private async tagTarget(repo: RepoRow, tagName: string, target: string): Promise<string | null> {
    if (await this.code.storeRef(repo, `refs/tags/${tagName}`)) return null;
    const commit = await this.code.commitOf(repo, this.code.objects(repo), target);
    if (!commit) throw refused("target_commitish", "invalid");
    return commit.sha;
  }

  /** Makes the release's tag at `sha` in the action, as a push: CreateEvent and the `create` and `push` webhooks. */
  private async makeTag(making: Making, repo: RepoRow, tagName: string, sha: string) {
    await push(making, this.code.objectsIn(making.tx, repo), {
      name: `refs/tags/${tagName}`,
      before: null,
      after: sha,
      forced: false,
    });
  }

  private async checkedTag(repo: RepoRow, tagName: string, except?: number): Promise<string> {
    const name = tagName.trim();
    if (name === "") throw refused("tag_name", "missing_field");
    if (!isRefName(`refs/tags/${name}`)) throw refused("tag_name", "invalid");
    const held = await this.store.releases.byTag(repo.id, name);
    if (held && held.id !== except) throw refused("tag_name", "already_exists");
    return name;
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess): Promise<ReleaseView> {
    const { repo, user } = await this.code.pushable(params, access);
    const tagName = await this.checkedTag(repo, input.tag_name);
    const makeLatest = makeLatestOf(input.make_latest) ?? "true";
    const targetCommitish = input.target_commitish || defaultBranchOf(repo);
    const tagAt = await this.tagTarget(repo, tagName, targetCommitish);
    const draft = input.draft ?? false;
    const prerelease = input.prerelease ?? false;
    const scene = await this.acting.scene(repo, user);
    const release = await this.acting.perform(scene, async (making) => {
      if (await making.tx.releases.byTag(repo.id, tagName)) throw refused("tag_name", "already_exists");
      if (!draft && tagAt) await this.makeTag(making, repo, tagName, tagAt);
      const made = await making.tx.releases.insert(
        {
          repoId: repo.id,
          tagName,
          targetCommitish,
          name: input.name ?? null,
          body: input.body ?? null,
          draft,
          prerelease,
          makeLatest,
          latestAt: latestAt({ draft, prerelease, makeLatest }, scene.at),
          authorId: user.id,
          publishedAt: draft ? null : scene.at,
        },
        scene.at,
      );
      const wire = await releaseAbout(making, made);
      releaseWebhook(making, "created", wire);
      if (!draft) await releasePublished(making, made, wire);
      return made;
    });
    return this.view(repo, release);
  }

  async update(path: ReleasePath, input: UpdateInput, access: ActionAccess): Promise<ReleaseView> {
    const { repo, user } = await this.code.pushable(path, access);
    const before = await this.find(repo, path.release_id, access.principal);
    const tagName =
      input.tag_name === undefined ? before.tagName : await this.checkedTag(repo, input.tag_name, before.id);
    const makeLatest = makeLatestOf(input.make_latest);
    const after = {
      tagName,
      targetCommitish: input.target_commitish || before.targetCommitish,
      name: input.name === undefined ? before.name : input.name,
      body: input.body === undefined ? before.body : input.body,
      draft: input.draft ?? before.draft,
      prerelease: input.prerelease ?? before.prerelease,
      makeLatest: makeLatest ?? before.makeLatest,
    };
    const publishing = before.draft && !after.draft;
    const tagAt = after.draft ? null : await this.tagTarget(repo, after.tagName, after.targetCommitish);
    const scene = await this.acting.scene(repo, user);
    const release = await this.acting.perform(scene, async (making) => {
      const current = (await making.tx.releases.find(repo.id, before.id)) ?? before;
      const changes: ReleaseChanges = {};
      const edited: Record<string, unknown> = {};
      for (const key of ["tagName", "targetCommitish", "name", "body", "draft", "prerelease", "makeLatest"] as const)
        if (after[key] !== current[key]) Object.assign(changes, { [key]: after[key] });
      if (changes.tagName !== undefined) edited.tag_name = { from: current.tagName };
      if (changes.name !== undefined) edited.name = { from: current.name ?? "" };
      if (changes.body !== undefined) edited.body = { from: current.body ?? "" };
      if (makeLatest !== undefined) edited.make_latest = { to: makeLatest === "true" };
      if (Object.keys(changes).length === 0 && makeLatest === undefined) return current;
      if (publishing) changes.publishedAt = scene.at;
      if (after.draft && !current.draft) changes.publishedAt = null;
      // Made the latest when published now, or when asked to be again; kept from it when no longer eligible.
      const eligible = latestAt(after, scene.at);
      if (!eligible) changes.latestAt = null;
      else if (publishing || makeLatest === "true" || (current.prerelease && !after.prerelease))
        changes.latestAt = eligible;
      changes.updatedAt = scene.at;
      if (tagAt) await this.makeTag(making, repo, after.tagName, tagAt);
      const updated = await making.tx.releases.update(current.id, changes);
      const wire = await releaseAbout(making, updated);
      if (Object.keys(edited).length) releaseWebhook(making, "edited", wire, { changes: edited });
      if (publishing) await releasePublished(making, updated, wire);
      else if (after.draft && !current.draft) releaseWebhook(making, "unpublished", wire);
      else if (!after.draft && current.prerelease && !after.prerelease) releaseWebhook(making, "released", wire);
      return updated;
    });
    return this.view(repo, release);
  }

  async delete(path: ReleasePath, access: ActionAccess): Promise<void> {
    const { repo, user } = await this.code.pushable(path, access);
    const release = await this.find(repo, path.release_id, access.principal);
    const scene = await this.acting.scene(repo, user);
    await this.acting.perform(scene, async (making) => {
      const wire = await releaseAbout(making, release);
      await making.tx.releases.delete(release.id);
      releaseWebhook(making, "deleted", wire);
    });
  }
}
