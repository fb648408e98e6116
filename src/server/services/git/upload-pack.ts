/**
 * `git clone` and `git fetch` over smart HTTP, served from the objects in the store as git's upload-pack serves them
 * from a repository: the refs (HEAD the default branch), negotiation by the client's `have`s, and a pack of whole
 * objects (./pack-objects.ts chooses them, ../../git/packfile.ts writes them) on side-band channel 1. Protocol v2
 * (`ls-refs`, `fetch`), git's default over HTTP since 2.26, and v0 for older clients. Reading needs what reading the
 * repository's contents needs (RepositoryCode.readable). Nothing here writes: `git push` is not served.
 */
import { ApiError } from "../../errors.js";
import type { RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { GitObjectError } from "../../git/objects.js";
import { writePack } from "../../git/packfile.js";
import { BAND, FLUSH, PktLineError, pktLine, readPackets, sideBand } from "../../git/pkt-line.js";
import {
  type AdvertisedRef,
  type FetchRequest,
  lsRefs,
  readV0Fetch,
  readV2Command,
  readV2Fetch,
  type RefView,
  v0Advertisement,
  v2Advertisement,
} from "../../git/upload-pack-protocol.js";
import type { NetworkObjects } from "./network-objects.js";
import { objectsToSend, type PlannedObject, UnknownWant } from "./pack-objects.js";
import { defaultBranchOf } from "./pushes.js";
import type { RepositoryCode } from "./repository-code.js";

/** A request git would not send: 400, with what was wrong (git shows a text body as `remote:` lines). */
const badRequest = (error: PktLineError) => new ApiError(400, error.message);

export class UploadPackService {
  constructor(private readonly code: RepositoryCode) {}

  /** The repository, if the caller may read its code (404 otherwise, 403 for a token without Contents). */
  readable(params: FeedParams, principal: Principal | null): Promise<RepoRow> {
    return this.code.readable(params, principal);
  }

  /** `GET info/refs?service=git-upload-pack`: v2's capabilities, or v0's refs. */
  async advertisement(repo: RepoRow, version2: boolean): Promise<Buffer> {
    return version2 ? v2Advertisement() : v0Advertisement(await this.refView(repo));
  }

  /** `POST git-upload-pack`: the answer to one request, in pieces as they are made. */
  async answer(repo: RepoRow, body: Buffer, version2: boolean): Promise<AsyncIterable<Buffer>> {
    try {
      const packets = readPackets(body);
      if (!version2) return await this.fetch(repo, readV0Fetch(packets), 0);
      const { command, args } = readV2Command(packets);
      if (command === "ls-refs") return once(lsRefs(await this.refView(repo), args));
      if (command === "fetch") return await this.fetch(repo, readV2Fetch(args), 2);
      return once(pktLine(`ERR unknown command ${command}\n`));
    } catch (error) {
      throw error instanceof PktLineError ? badRequest(error) : error;
    }
  }

  /** The refs as upload-pack lists them: HEAD at the default branch, each ref, annotated tags peeled. */
  private async refView(repo: RepoRow): Promise<RefView> {
    const objects = this.code.objects(repo);
    const headTarget = `refs/heads/${defaultBranchOf(repo)}`;
    const refs: AdvertisedRef[] = [];
    for (const ref of await this.code.storeRefs(repo, "refs/")) {
      const peeled = await peel(objects, ref.sha);
      refs.push(peeled === ref.sha ? ref : { ...ref, peeled });
    }
    return { headTarget, head: refs.find((ref) => ref.name === headTarget)?.sha ?? null, refs };
  }

  /**
   * A fetch: acknowledgments while the client negotiates (every `have` the network holds is common), the pack once it
   * is `done`. v0 acknowledges as multi_ack_detailed or the original protocol; v2 in its `acknowledgments` section.
   */
  private async fetch(repo: RepoRow, request: FetchRequest, version: 0 | 2): Promise<AsyncIterable<Buffer>> {
    const objects = this.code.objects(repo);
    const common: string[] = [];
    for (const have of request.haves) if (await objects.ofType(have)) common.push(have);
    const acks = acknowledgments(request, common, version);
    if (!request.done) return once(acks);
    let planned: PlannedObject[];
    try {
      planned = await objectsToSend(objects, request.wants, common);
    } catch (error) {
      if (!(error instanceof UnknownWant)) throw error;
      return once(pktLine(`ERR upload-pack: ${error.message}\n`));
    }
    if (request.includeTag) await this.addTags(repo, objects, planned);
    return packResponse(objects, planned, acks, request.sideBand);
  }

  /** include-tag: the annotated tags of the repository that tag something the pack holds. */
  private async addTags(repo: RepoRow, objects: NetworkObjects, planned: PlannedObject[]): Promise<void> {
    const sent = new Set(planned.map((object) => object.sha));
    for (const ref of await this.code.storeRefs(repo, "refs/tags/")) {
      const tag = sent.has(ref.sha) ? null : await objects.ofType(ref.sha, "tag");
      if (!tag || !sent.has(await peel(objects, ref.sha))) continue;
      planned.push({ sha: tag.sha, type: "tag", body: tag.body });
      sent.add(tag.sha);
    }
  }
}

/** What an annotated tag (or a chain of them) finally tags; any other object is itself. */
async function peel(objects: NetworkObjects, sha: string): Promise<string> {
  let at = sha;
  for (let tag = await objects.tag(at); tag; tag = await objects.tag(at)) at = tag.object;
  return at;
}

/**
 * The acknowledgments before the pack (or ending a round of negotiation). v2: a section of `ACK`s (or `NAK`), ended
 * by a flush while negotiating, absent once `done`. v0 multi_ack_detailed: `ACK x common` for each, then `NAK` for a
 * round, or the last common `ACK x` before the pack; v0's original protocol: `ACK x` for the first common only, and
 * `NAK` where none is.
 */
function acknowledgments(request: FetchRequest, common: readonly string[], version: 0 | 2): Buffer {
  const line = (text: string) => pktLine(`${text}\n`);
  if (version === 2) {
    if (request.done) return Buffer.alloc(0);
    const acks = common.length === 0 ? [line("NAK")] : common.map((sha) => line(`ACK ${sha}`));
    return Buffer.concat([line("acknowledgments"), ...acks, FLUSH]);
  }
  const last = common[common.length - 1];
  if (!request.multiAckDetailed)
    return Buffer.concat([...(last ? [line(`ACK ${common[0]}`)] : []), ...(request.done && last ? [] : [line("NAK")])]);
  const each = common.map((sha) => line(`ACK ${sha} common`));
  return Buffer.concat([...each, request.done && last ? line(`ACK ${last}`) : line("NAK")]);
}

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

/**
 * The pack after its acknowledgments: v2's `packfile` section and v0 with side-band-64k put it on channel 1 and end
 * with a flush (an error while writing goes to channel 3, which git shows and fails on); v0 without side-band sends
 * its bytes as they are.
 */
async function* packResponse(
  objects: NetworkObjects,
  planned: readonly PlannedObject[],
  acks: Buffer,
  sideBandOn: boolean,
): AsyncGenerator<Buffer> {
  const pack = writePack(planned.length, bodies(objects, planned));
  if (!sideBandOn) {
    yield acks;
    yield* pack;
    return;
  }
  yield acks.length === 0 ? pktLine("packfile\n") : acks;
  try {
    for await (const bytes of pack) yield* sideBand(BAND.data, bytes);
  } catch (error) {
    // The status went out with the first bytes: channel 3 is how git hears of a failure now, and it stops there.
    yield* sideBand(BAND.error, Buffer.from(`feedgate could not write the pack: ${(error as Error).message}\n`));
    return;
  }
  yield FLUSH;
}

/** Each planned object with its body, a blob's read from the store as the pack reaches it. */
async function* bodies(objects: NetworkObjects, planned: readonly PlannedObject[]) {
  for (const object of planned) {
    const body = object.body ?? (await objects.ofType(object.sha, object.type))?.body;
    if (!body) throw new GitObjectError(`a tree names ${object.type} ${object.sha}, which the store does not hold`);
    yield { type: object.type, body };
  }
}
