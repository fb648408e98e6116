/**
 * GitHub's refs API (https://docs.github.com/rest/git/refs): reads of a repository's refs, and their writes as pushes
 * of the action log (./pushes.ts: the ref, its events and its webhooks in one transaction). Ref names follow git's
 * check-ref-format; an update that is not a fast-forward needs `force`, as GitHub's 422 says.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError, notFound } from "../../errors.js";
import type { GitRef, RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { Acting, type ActionParts } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import type { NetworkObjects } from "./network-objects.js";
import { push } from "./pushes.js";
import type { RepositoryCode } from "./repository-code.js";

type CreateInput = RequestOf<Endpoints["git"]["createRef"], "body">;
type UpdateInput = RequestOf<Endpoints["git"]["updateRef"], "body">;

/** A path ending in a ref's name after `git/ref/`, `git/refs/` or `git/matching-refs/` (Fastify's wildcard). */
export type RefPath = FeedParams & { "*": string };

/** A ref with the type of the object it points at (`commit`, or `tag` for an annotated tag's ref). */
export interface RefView {
  ref: GitRef;
  type: string;
}

/**
 * Whether git would take `name` as a ref (git's refs.c check_refname_format): no empty component or one starting with
 * ".", none ending in ".lock", no "..", "@{", control characters, space, `~^:?*[\`, and no trailing "." or "/".
 */
export function isRefName(name: string): boolean {
  if (name === "@" || name.includes("..") || name.includes("@{") || name.endsWith(".")) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in a ref's name.
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  return name.split("/").every((part) => part !== "" && !part.startsWith(".") && !part.endsWith(".lock"));
}

/** Whether `ancestor` is `descendant` or one of its ancestors: a fast-forward from it. */
async function reaches(objects: NetworkObjects, descendant: string, ancestor: string): Promise<boolean> {
  const seen = new Set<string>();
  const queue = [descendant];
  while (queue.length > 0) {
    const sha = queue.shift()!;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    queue.push(...((await objects.commit(sha))?.parents ?? []));
  }
  return false;
}

export class GitRefService {
  private readonly acting: Acting;

  constructor(
    parts: ActionParts,
    private readonly code: RepositoryCode,
  ) {
    this.acting = new Acting(parts);
  }

  private async view(objects: NetworkObjects, ref: GitRef): Promise<RefView> {
    return { ref, type: (await objects.ofType(ref.sha))?.type ?? "commit" };
  }

  async get(path: RefPath, principal: Principal | null): Promise<{ repo: RepoRow; ref: RefView }> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const ref = await this.code.storeRef(repo, `refs/${path["*"]}`);
    if (!ref) throw notFound();
    return { repo, ref: await this.view(this.code.objects(repo), ref) };
  }

  /** The refs whose names start with `refs/<path>` (all of them for an empty path), as GitHub matches them. */
  async matching(path: RefPath, principal: Principal | null): Promise<{ repo: RepoRow; refs: RefView[] }> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const objects = this.code.objects(repo);
    const refs = await this.code.storeRefs(repo, `refs/${path["*"]}`);
    return { repo, refs: await Promise.all(refs.map((ref) => this.view(objects, ref))) };
  }

  /**
   * A ref by GraphQL's `qualifiedName`: a full name (`refs/heads/main`) as it is, else a short one as a branch, then
   * as a tag (the order RepositoryCode.commitOf reads a ref in). Null when there is none, an empty repository's too.
   */
  async qualified(params: FeedParams, qualifiedName: string, principal: Principal | null): Promise<RefView | null> {
    const repo = await this.code.readable(params, principal);
    const names = qualifiedName.startsWith("refs/")
      ? [qualifiedName]
      : [`refs/heads/${qualifiedName}`, `refs/tags/${qualifiedName}`];
    for (const name of names) {
      const ref = await this.code.storeRef(repo, name);
      if (ref) return this.view(this.code.objects(repo), ref);
    }
    return null;
  }

  /** The refs whose names start with `prefix`, in the order of their names: none for an empty repository. */
  async prefixed(params: FeedParams, prefix: string, principal: Principal | null): Promise<RefView[]> {
    const repo = await this.code.readable(params, principal);
    const objects = this.code.objects(repo);
    const refs = await this.code.storeRefs(repo, prefix);
    return Promise.all(refs.map((ref) => this.view(objects, ref)));
  }

  async create(params: FeedParams, input: CreateInput, access: ActionAccess) {
    const { repo, user } = await this.code.pushable(params, access);
    await this.code.notEmpty(repo);
    const name = input.ref;
    if (!name.startsWith("refs/") || name.split("/").length < 3)
      throw new ApiError(422, "Reference name must contain at least three slash-separated components.");
    if (!isRefName(name)) throw new ApiError(422, `${name} is not a valid ref name.`);
    const objects = this.code.objects(repo);
    if (!(await objects.ofType(input.sha))) throw new ApiError(422, "Object does not exist");
    if (await this.code.storeRef(repo, name)) throw new ApiError(422, "Reference already exists");
    // Git keeps refs as files: `refs/heads/a` and `refs/heads/a/b` cannot both be (GitHub: "Reference update failed").
    const clash = (await this.code.storeRefs(repo, "refs/")).some(
      (ref) => ref.name.startsWith(`${name}/`) || name.startsWith(`${ref.name}/`),
    );
    if (clash) throw new ApiError(422, "Reference update failed");
    const scene = await this.acting.scene(repo, user);
    await this.acting.perform(scene, (making) =>
      push(making, this.code.objectsIn(making.tx, repo), { name, before: null, after: input.sha, forced: false }),
    );
    return { repo, ref: await this.view(objects, { name, sha: input.sha }) };
  }

  async update(path: RefPath, input: UpdateInput, access: ActionAccess) {
    const { repo, user } = await this.code.pushable(path, access);
    await this.code.notEmpty(repo);
    const name = `refs/${path["*"]}`;
    const current = await this.code.storeRef(repo, name);
    if (!current) throw new ApiError(422, "Reference does not exist");
    const objects = this.code.objects(repo);
    if (!(await objects.ofType(input.sha))) throw new ApiError(422, "Object does not exist");
    const fastForward = await reaches(objects, input.sha, current.sha);
    if (!fastForward && !input.force) throw new ApiError(422, "Update is not a fast forward");
    if (input.sha !== current.sha) {
      const scene = await this.acting.scene(repo, user);
      await this.acting.perform(scene, (making) =>
        push(making, this.code.objectsIn(making.tx, repo), {
          name,
          before: current.sha,
          after: input.sha,
          forced: !fastForward,
        }),
      );
    }
    return { repo, ref: await this.view(objects, { name, sha: input.sha }) };
  }

  async delete(path: RefPath, access: ActionAccess): Promise<void> {
    const { repo, user } = await this.code.pushable(path, access);
    await this.code.notEmpty(repo);
    const name = `refs/${path["*"]}`;
    const current = await this.code.storeRef(repo, name);
    if (!current) throw new ApiError(422, "Reference does not exist");
    const scene = await this.acting.scene(repo, user);
    await this.acting.perform(scene, (making) =>
      push(making, this.code.objectsIn(making.tx, repo), { name, before: current.sha, after: null, forced: false }),
    );
  }
}
