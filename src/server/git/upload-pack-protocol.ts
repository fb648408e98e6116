/**
 * What git's `upload-pack` service says over smart HTTP (gitprotocol-http(5), gitprotocol-v2(5), gitprotocol-pack(5)):
 * the ref advertisement of `GET info/refs?service=git-upload-pack` in protocol v0 and the capability advertisement of
 * v2 (git 2.26 and later ask for it with `Git-Protocol: version=2`), and the requests of `POST git-upload-pack` read
 * into what they ask. Pure: the refs and objects come from the caller.
 */
import { FLUSH, type Packet, PktLineError, packetText, pktLine } from "./pkt-line.js";
import { isSha } from "./objects.js";

export const AGENT = "agent=feedgate";

/** A ref as advertised: its name, what it points at, and for an annotated tag what the tag (chain) finally tags. */
export interface AdvertisedRef {
  name: string;
  sha: string;
  peeled?: string;
}

/** The repository's refs as a client sees them: HEAD (the default branch's ref) and every ref in byte order. */
export interface RefView {
  /** The ref HEAD names (`refs/heads/main`), whether or not it exists yet. */
  headTarget: string;
  /** HEAD's commit; null while the default branch does not exist (an empty repository: HEAD is unborn). */
  head: string | null;
  refs: readonly AdvertisedRef[];
}

/** Whether the request asked for protocol v2 (`Git-Protocol: version=2`, possibly among other `:`-joined keys). */
export const wantsVersion2 = (gitProtocol: string | undefined): boolean =>
  (gitProtocol ?? "").split(":").some((entry) => entry.trim() === "version=2");

/** v0's capabilities: the pack on side-band-64k, git's multi_ack_detailed negotiation, tags on request. */
function v0Capabilities(view: RefView): string {
  return [
    "multi_ack_detailed",
    "side-band-64k",
    "no-progress",
    "include-tag",
    `symref=HEAD:${view.headTarget}`,
    "object-format=sha1",
    AGENT,
  ].join(" ");
}

/**
 * v0's advertisement as git-http-backend sends it: the `# service=` line and a flush, then each ref (HEAD first, an
 * annotated tag followed by its `^{}` line), the capabilities after a NUL on the first; an empty repository sends
 * git's `capabilities^{}` line of zeros in their place.
 */
export function v0Advertisement(view: RefView): Buffer {
  const lines: string[] = [];
  if (view.head) lines.push(`${view.head} HEAD`);
  for (const ref of view.refs) {
    lines.push(`${ref.sha} ${ref.name}`);
    if (ref.peeled) lines.push(`${ref.peeled} ${ref.name}^{}`);
  }
  if (lines.length === 0) lines.push(`${"0".repeat(40)} capabilities^{}`);
  lines[0] = `${lines[0]}\0${v0Capabilities(view)}`;
  return Buffer.concat([
    pktLine("# service=git-upload-pack\n"),
    FLUSH,
    ...lines.map((line) => pktLine(`${line}\n`)),
    FLUSH,
  ]);
}

/**
 * v2's capability advertisement, as upload-pack sends it (no `# service=` line in v2: git-http-backend leaves it out):
 * `ls-refs` with `unborn` (an empty repository's HEAD and the branch it will be), `fetch` without shallow clones,
 * filters or other extras, and SHA-1 objects.
 */
export function v2Advertisement(): Buffer {
  const lines = ["version 2", AGENT, "ls-refs=unborn", "fetch", "object-format=sha1"];
  return Buffer.concat([...lines.map((line) => pktLine(`${line}\n`)), FLUSH]);
}

/** A v2 request: `command=X`, its capability lines, a delim, its arguments, a flush. */
export interface V2Command {
  command: string;
  args: string[];
}

export function readV2Command(packets: readonly Packet[]): V2Command {
  const texts = packets.map((packet) => (packet.kind === "data" ? packetText(packet) : packet.kind));
  const first = texts[0] ?? "";
  if (!first.startsWith("command=")) throw new PktLineError("a protocol v2 request begins with command=");
  const delim = texts.indexOf("delim");
  const flush = texts.indexOf("flush");
  if (flush === -1) throw new PktLineError("a protocol v2 request ends with a flush");
  const start = delim === -1 || delim > flush ? flush : delim + 1;
  return { command: first.slice("command=".length), args: texts.slice(start, flush) as string[] };
}

/** `ls-refs`'s answer: HEAD and the refs its `ref-prefix`es name (all without any), with targets and peeled tags. */
export function lsRefs(view: RefView, args: readonly string[]): Buffer {
  const prefixes = args.filter((arg) => arg.startsWith("ref-prefix ")).map((arg) => arg.slice("ref-prefix ".length));
  const symrefs = args.includes("symrefs");
  const peel = args.includes("peel");
  const named = (name: string) => prefixes.length === 0 || prefixes.some((prefix) => name.startsWith(prefix));
  const lines: string[] = [];
  const target = symrefs ? ` symref-target:${view.headTarget}` : "";
  if (named("HEAD") && view.head) lines.push(`${view.head} HEAD${target}`);
  else if (named("HEAD") && args.includes("unborn")) lines.push(`unborn HEAD${target}`);
  for (const ref of view.refs) {
    if (named(ref.name)) lines.push(`${ref.sha} ${ref.name}${peel && ref.peeled ? ` peeled:${ref.peeled}` : ""}`);
  }
  return Buffer.concat([...lines.map((line) => pktLine(`${line}\n`)), FLUSH]);
}

/** What a fetch asks, in either version. */
export interface FetchRequest {
  wants: string[];
  haves: string[];
  /** The client has nothing more to negotiate: the pack comes now. */
  done: boolean;
  /** Tags pointing at what is sent are sent too. */
  includeTag: boolean;
  /** v0: the pack on side-band-64k (v2 always uses it). */
  sideBand: boolean;
  /** v0: git's multi_ack_detailed acknowledgments (else the original, which acknowledges the first common have). */
  multiAckDetailed: boolean;
}

function objectId(line: string, keyword: string): string {
  const sha = line.slice(keyword.length + 1, keyword.length + 41);
  if (!isSha(sha)) throw new PktLineError(`${keyword} needs an object id, got ${JSON.stringify(line)}`);
  return sha;
}

/** A v2 `fetch` command's arguments. */
export function readV2Fetch(args: readonly string[]): FetchRequest {
  const request: FetchRequest = {
    wants: [],
    haves: [],
    done: false,
    includeTag: false,
    sideBand: true,
    multiAckDetailed: false,
  };
  for (const arg of args) {
    if (arg.startsWith("want ")) request.wants.push(objectId(arg, "want"));
    else if (arg.startsWith("have ")) request.haves.push(objectId(arg, "have"));
    else if (arg === "done") request.done = true;
    else if (arg === "include-tag") request.includeTag = true;
    // thin-pack, ofs-delta and no-progress allow what a pack of whole objects never needs.
  }
  return request;
}

/**
 * A v0 request of the stateless HTTP form: the wants (the first with the client's capabilities), a flush, then the
 * haves and `done`, or a flush when the client negotiates further.
 */
export function readV0Fetch(packets: readonly Packet[]): FetchRequest {
  const request: FetchRequest = {
    wants: [],
    haves: [],
    done: false,
    includeTag: false,
    sideBand: false,
    multiAckDetailed: false,
  };
  for (const packet of packets) {
    const line = packetText(packet);
    if (line === null) continue;
    if (line.startsWith("want ")) {
      request.wants.push(objectId(line, "want"));
      const capabilities = line.slice(46).split(" ");
      if (request.wants.length === 1) {
        request.sideBand = capabilities.includes("side-band-64k");
        request.multiAckDetailed = capabilities.includes("multi_ack_detailed");
        request.includeTag = capabilities.includes("include-tag");
      }
    } else if (line.startsWith("have ")) request.haves.push(objectId(line, "have"));
    else if (line === "done") request.done = true;
    else if (/^(shallow|deepen|filter)/.test(line))
      throw new PktLineError("feedgate serves no shallow or partial clones");
  }
  return request;
}
