/**
 * GitHub's repositories as actions: creating one (`POST /user/repos`, `/orgs/{org}/repos`: CreateEvent with
 * `ref_type: "repository"`, `repository.created`, and GitHub's nine labels), editing one (`PATCH`: a rename keeps the
 * old name to redirect from and sends `repository.renamed`; made public, PublicEvent and the `public` and
 * `repository.publicized` webhooks; made private, `repository.privatized`; archived and unarchived; any other edit
 * `repository.edited` with its `changes`) and deleting one (`repository.deleted`, to its organization's hooks only:
 * its own go with it). Only its administrators (the `admin` role) edit or delete it (GitHub's 403 for anyone else who
 * sees it).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { satisfies } from "../../../api/scopes.js";
import { ApiError, notFound } from "../../errors.js";
import type { ActionTransaction, RepoChanges, RepoRow, RepoSettings, UserRow } from "../../store/store.js";
import { checkOrganization, grantOf } from "../fine-grained-access.js";
import type { FeedParams } from "../feeds.js";
import { accountCaller } from "./account-access.js";
import { Making, type ActionParts } from "./acting.js";
import { madeWebhook } from "./made.js";
import { archivedReadOnly, writableRepository, type ActionAccess } from "./repository-access.js";
import {
  CREATION_FAILED,
  DEFAULT_LABELS,
  nameTaken,
  NEW_DEFAULT_BRANCH,
  privacyOf,
  refused,
  repositoryName,
} from "./repository-input.js";
import { NEW_REPO_STATS, placeOf, repositoryScene, type RepositoryPlace } from "./repository-scene.js";
import { writeInitialCommit } from "../git/initial-commit.js";

type CreateInput = RequestOf<Endpoints["repos"]["createForAuthenticatedUser"], "body">;
type UpdateInput = RequestOf<Endpoints["repos"]["update"], "body">;

const VALIDATION_FAILED = "Validation Failed";

/** GitHub's 403 for an edit or deletion by someone who sees the repository but does not administer it. */
export const mustBeAdmin = () => new ApiError(403, "Must have admin rights to Repository.");

/** GitHub's 403 for a repository in an organization the caller is no member of. */
const notOrgMember = () =>
  new ApiError(403, "You need admin access to the organization before adding a repository to it.");

/** A classic token makes private repositories with `repo` only; `public_repo` makes public ones. */
function mayMakePrivate(access: ActionAccess): void {
  const { principal } = access;
  if (principal?.kind === "token" && !grantOf(principal) && !satisfies(principal.authorization.scopes, ["repo"]))
    throw notFound();
}

/** What the edit changes, against what the repository has: only what differs. */
function settingChanges(repo: RepoRow, input: UpdateInput): RepoChanges {
  if (input.default_branch !== undefined && input.default_branch.trim() === "")
    throw refused(VALIDATION_FAILED, { code: "invalid", field: "default_branch" });
  const asked: RepoChanges = {
    private: privacyOf(input, VALIDATION_FAILED),
    description: input.description,
    homepage: input.homepage,
    hasIssues: input.has_issues,
    hasProjects: input.has_projects,
    hasWiki: input.has_wiki,
    defaultBranch: input.default_branch,
    archived: input.archived,
  };
  const current: Omit<RepoSettings, "createdAt"> & { private: boolean } = { ...repo.settings, private: repo.private };
  return Object.fromEntries(
    Object.entries(asked).filter(([key, value]) => value !== undefined && value !== current[key as keyof RepoChanges]),
  );
}

/** `repository.edited`'s `changes`: the keys GitHub's payload has, with what they were. */
function editedChanges(before: RepoRow, changes: RepoChanges) {
  const from: Record<string, { from: string | null }> = {};
  if (changes.description !== undefined) from.description = { from: before.settings.description };
  if (changes.homepage !== undefined) from.homepage = { from: before.settings.homepage };
  if (changes.defaultBranch !== undefined) from.default_branch = { from: before.settings.defaultBranch ?? "" };
  return from;
}

export class RepositoryService {
  constructor(private readonly parts: ActionParts) {}

  private async place(owner: UserRow, actor: UserRow, repo: RepoRow | null): Promise<RepositoryPlace> {
    const { store, clock, baseUrl, payloads } = this.parts;
    const stats = repo ? await store.directory.repoStats(repo.id) : NEW_REPO_STATS;
    return placeOf({ owner, actor, stats, at: clock(), baseUrl: baseUrl() }, payloads);
  }

  /** Runs repository work in the log; what it makes, it makes through the Making of the repository it is given. */
  async act<T>(
    place: RepositoryPlace,
    work: (tx: ActionTransaction, making: (repo: RepoRow) => Making) => Promise<{ value: T; made?: Making }>,
  ): Promise<T> {
    const { store, options, queued } = this.parts;
    const performed = await store.actions.perform(
      async (tx) => {
        const { value, made } = await work(tx, (repo) => new Making(tx, repositoryScene(repo, place)));
        return made ? made.done(value) : { value };
      },
      place.at,
      options,
    );
    if (performed.deliveriesQueued) queued();
    return performed.value;
  }

  /** A new repository of the caller's, or of an organization the caller belongs to (GitHub lets members create). */
  async create(org: string | null, input: CreateInput, access: ActionAccess): Promise<RepoRow> {
    const principal = accountCaller(access);
    const owner = org === null ? principal.user : await this.parts.feeds.organization(org);
    if (
      org !== null &&
      !principal.user.siteAdmin &&
      !(await this.parts.store.directory.isMember(owner.id, principal.user.id))
    )
      throw notOrgMember();
    const grant = grantOf(principal);
    if (grant) checkOrganization(grant, owner.id, access.permissions);
    const name = repositoryName(input.name, CREATION_FAILED);
    const isPrivate = privacyOf(input, CREATION_FAILED) ?? false;
    if (isPrivate) mayMakePrivate(access);
    const place = await this.place(owner, principal.user, null);
    const description = input.description ?? null;
    return this.act(place, async (tx, making) => {
      if (await tx.directory.findRepo(owner.login, name)) throw nameTaken(CREATION_FAILED);
      const repo = await tx.repositories.insert({
        ownerId: owner.id,
        name,
        private: isPrivate,
        fork: null,
        settings: {
          description,
          homepage: input.homepage ?? null,
          hasIssues: input.has_issues ?? true,
          hasProjects: input.has_projects ?? true,
          hasWiki: input.has_wiki ?? true,
          defaultBranch: NEW_DEFAULT_BRANCH,
          archived: false,
          createdAt: place.at,
          updatedAt: place.at,
        },
      });
      for (const [label, color, about] of DEFAULT_LABELS)
        await tx.labels.insert({ repoId: repo.id, name: label, color, description: about, isDefault: true });
      const made = making(repo);
      await made.event("CreateEvent", {
        ref: null,
        ref_type: "repository",
        master_branch: NEW_DEFAULT_BRANCH,
        description,
        pusher_type: "user",
      });
      made.webhook("repository", "created", {});
      if (input.auto_init) await writeInitialCommit(tx, repo, principal.user, place.at);
      return { value: repo, made };
    });
  }

  /** A repository its administrator may change: 404 when not seen, 403 for anyone else. */
  private async administered(params: FeedParams, access: ActionAccess) {
    const w = await writableRepository(this.parts.store, this.parts.feeds, params, access, "allowed");
    if (!w.administers) throw mustBeAdmin();
    const owner = (await this.parts.store.users.findById(w.repo.ownerId))!;
    return { ...w, owner };
  }

  async update(params: FeedParams, input: UpdateInput, access: ActionAccess): Promise<RepoRow> {
    const { repo: before, principal, owner } = await this.administered(params, access);
    if (before.settings.archived && input.archived !== false) throw archivedReadOnly();
    const currentName = before.fullName.slice(before.fullName.indexOf("/") + 1);
    const name = input.name === undefined ? undefined : repositoryName(input.name, VALIDATION_FAILED);
    const renamed = name !== undefined && name !== currentName;
    const changes = settingChanges(before, input);
    if (changes.private) mayMakePrivate(access);
    if (!renamed && !Object.keys(changes).length) return before; // GitHub answers the repository and sends nothing
    const place = await this.place(owner, principal.user, before);
    return this.act(place, async (tx, making) => {
      let repo = before;
      if (renamed) {
        const taken = await tx.directory.findRepo(owner.login, name);
        if (taken && taken.id !== repo.id) throw nameTaken(VALIDATION_FAILED);
        repo = await tx.repositories.rename(repo, name, place.at);
      }
      if (Object.keys(changes).length) repo = await tx.repositories.update(repo.id, changes, place.at);
      const made = making(repo);
      if (renamed) made.webhook("repository", "renamed", { changes: { repository: { name: { from: currentName } } } });
      if (changes.private === false) {
        await made.event("PublicEvent", {});
        made.webhook("public", null, {});
        made.webhook("repository", "publicized", {});
      } else if (changes.private === true) made.webhook("repository", "privatized", {});
      if (changes.archived !== undefined) made.webhook("repository", changes.archived ? "archived" : "unarchived", {});
      const { private: _, archived: __, ...edits } = changes;
      if (Object.keys(edits).length) made.webhook("repository", "edited", { changes: editedChanges(before, changes) });
      return { value: repo, made };
    });
  }

  /** Deletes it (classic tokens need `delete_repo`); its organization's hooks hear of it. */
  async delete(params: FeedParams, access: ActionAccess): Promise<void> {
    const { principal } = access;
    if (principal?.kind === "token" && !grantOf(principal)) {
      await writableRepository(
        this.parts.store,
        this.parts.feeds,
        params,
        { ...access, acceptedScopes: [] },
        "allowed",
      );
      if (!satisfies(principal.authorization.scopes, access.acceptedScopes)) throw mustBeAdmin();
    }
    const { repo, owner } = await this.administered(params, { ...access, acceptedScopes: [] });
    const place = await this.place(owner, principal!.user, repo);
    await this.act(place, async (tx, making) => {
      const made = making(repo);
      if (made.scene.org)
        made.webhooks.push({
          ...madeWebhook(made.scene, "repository", "deleted", {}),
          toOrganization: made.scene.org.id,
        });
      await tx.repositories.delete(repo);
      return { value: undefined, made };
    });
  }
}
