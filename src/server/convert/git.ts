/**
 * Git objects, refs and contents as GitHub's API shows them: the only place that shapes them. URLs are the API's
 * (`{base}/repos/{owner}/{repo}/git/...`) and the web's (`{origin}/{owner}/{repo}/commit/{sha}`); a file's
 * `download_url` is GitHub Enterprise's raw path on the web origin (`/{owner}/{repo}/raw/{ref}/{path}`), which
 * feedgate serves.
 */
import type {
  BranchShort,
  BranchWithProtection,
  CommitFile,
  RepositoryCommit,
  ContentEntry,
  ContentDirectory,
  ContentFile,
  ContentSubmodule,
  ContentSymlink,
  DirectoryEntry,
  FileCommit,
  GitActor,
  GitBlob,
  GitCommit,
  GitRef,
  GitTag,
  GitTree,
} from "../../api/git-schemas.js";
import type { GitRef as StoredRef, ProtectionRules, UserRow } from "../store/store.js";
import type { FileDiff } from "../git/file-diff.js";
import { toWireSimpleUser } from "./user.js";
import type { CommitFields, GitPerson, TagFields, TreeEntry } from "../git/objects.js";
import { formatApiDate } from "../git/objects.js";
import type { FlatEntry } from "../git/tree-edit.js";
import { webOrigin } from "./urls.js";
import { legacyNodeId } from "./node-ids.js";
import { protectionUrl, toWireProtectionSummary } from "./protection.js";
import { repositoryOnHost, resolveSubmoduleUrl } from "../git/gitmodules.js";

/** A tree as the API lists it: each entry with its blob's size. */
export interface TreeListing {
  entries: (FlatEntry & { size?: number })[];
  truncated: boolean;
}

/**
 * A directory's entry with its blob's size; a gitlink's with the URL its submodule is cloned from, as the
 * `.gitmodules` of its tree says (null: none describes it).
 */
export interface ListedEntry {
  path: string;
  entry: TreeEntry;
  size: number;
  submoduleUrl?: string | null;
}

/** A path's content: a file (or a link) with its body, a submodule with its URL, or a directory (tree and entries). */
export type PathContent =
  | { kind: "file" | "symlink"; path: string; entry: TreeEntry; body: Buffer }
  | { kind: "submodule"; path: string; entry: TreeEntry; submoduleUrl: string }
  | { kind: "dir"; path: string; sha: string; entries: ListedEntry[] };

/**
 * GitHub's node ids in the form its documented examples have (`06:Commit` + SHA-1, base64): git objects', and
 * those of what is reported of them (`06:Status1`, `08:CheckRun4`, `010:CheckSuite5`).
 */
export const nodeId = legacyNodeId;

const api = (fullName: string, baseUrl: string) => `${baseUrl}/repos/${fullName}`;
const web = (fullName: string, baseUrl: string) => `${webOrigin(baseUrl)}/${fullName}`;

/** A path's names escaped for a URL, its slashes kept. */
const urlPath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** GitHub's base64 of a file: wrapped at 60 characters, each line ended by a newline (as Ruby's Base64.encode64). */
export function wrappedBase64(body: Buffer): string {
  const text = body.toString("base64");
  let wrapped = "";
  for (let start = 0; start < text.length; start += 60) wrapped += `${text.slice(start, start + 60)}\n`;
  return wrapped;
}

export const toWireActor = (person: GitPerson): GitActor => ({
  name: person.name,
  email: person.email,
  date: formatApiDate(person),
});

const UNSIGNED = { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };

export function toWireBlob(sha: string, body: Buffer, fullName: string, baseUrl: string): GitBlob {
  return {
    content: wrappedBase64(body),
    encoding: "base64",
    url: `${api(fullName, baseUrl)}/git/blobs/${sha}`,
    sha,
    size: body.length,
    node_id: nodeId("Blob", sha),
  };
}

export function toWireTree(sha: string, listing: TreeListing, fullName: string, baseUrl: string): GitTree {
  const base = api(fullName, baseUrl);
  return {
    sha,
    url: `${base}/git/trees/${sha}`,
    tree: listing.entries.map((entry) => ({
      path: entry.path,
      mode: entry.mode,
      type: entry.type,
      ...(entry.size === undefined ? {} : { size: entry.size }),
      sha: entry.sha,
      // A submodule's commit is another repository's: GitHub gives it no URL.
      ...(entry.type === "commit"
        ? {}
        : { url: `${base}/git/${entry.type === "tree" ? "trees" : "blobs"}/${entry.sha}` }),
    })),
    truncated: listing.truncated,
  };
}

export function toWireGitCommit(sha: string, commit: CommitFields, fullName: string, baseUrl: string): GitCommit {
  const base = api(fullName, baseUrl);
  const html = web(fullName, baseUrl);
  return {
    sha,
    node_id: nodeId("Commit", sha),
    url: `${base}/git/commits/${sha}`,
    html_url: `${html}/commit/${sha}`,
    author: toWireActor(commit.author),
    committer: toWireActor(commit.committer),
    message: commit.message,
    tree: { sha: commit.tree, url: `${base}/git/trees/${commit.tree}` },
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${base}/git/commits/${parent}`,
      html_url: `${html}/commit/${parent}`,
    })),
    verification: UNSIGNED,
  };
}

const objectUrl = (base: string, type: string, sha: string) =>
  `${base}/git/${type === "commit" ? "commits" : type === "tag" ? "tags" : type === "tree" ? "trees" : "blobs"}/${sha}`;

export function toWireRef(ref: StoredRef, type: string, fullName: string, baseUrl: string): GitRef {
  const base = api(fullName, baseUrl);
  return {
    ref: ref.name,
    node_id: nodeId("Ref", ref.name),
    url: `${base}/git/${urlPath(ref.name)}`,
    object: { type, sha: ref.sha, url: objectUrl(base, type, ref.sha) },
  };
}

export function toWireTag(sha: string, tag: TagFields, fullName: string, baseUrl: string): GitTag {
  const base = api(fullName, baseUrl);
  return {
    node_id: nodeId("Tag", sha),
    tag: tag.tag,
    sha,
    url: `${base}/git/tags/${sha}`,
    message: tag.message,
    // A tag without a tagger (git allows one) shows an empty person, as GitHub's API has nothing else to say.
    tagger: tag.tagger ? toWireActor(tag.tagger) : { name: "", email: "", date: "" },
    object: { type: tag.type, sha: tag.object, url: objectUrl(base, tag.type, tag.object) },
    verification: UNSIGNED,
  };
}

/** The URLs of a path's content at a ref, as every contents answer has them. */
function contentUrls(path: string, entry: TreeEntry, ref: string, fullName: string, baseUrl: string) {
  const base = api(fullName, baseUrl);
  const directory = entry.mode === "040000";
  const self = `${base}/contents/${urlPath(path)}?ref=${encodeURIComponent(ref)}`;
  const git = `${base}/git/${directory ? "trees" : "blobs"}/${entry.sha}`;
  const html = `${web(fullName, baseUrl)}/${directory ? "tree" : "blob"}/${urlPath(ref)}/${urlPath(path)}`;
  return {
    url: self,
    git_url: git,
    html_url: html,
    download_url: directory ? null : `${web(fullName, baseUrl)}/raw/${urlPath(ref)}/${urlPath(path)}`,
    _links: { self, git, html },
  };
}

/**
 * A submodule's URLs: its own at the ref for `url`, and for git and the web the tree of its commit in the repository
 * its URL names, as GitHub gives them for a repository it hosts (here: one on this server's web host, in any of git's
 * URL forms, or relative to the repository holding it); null for another host, and never a download.
 */
function submoduleUrls(
  path: string,
  entry: TreeEntry,
  submoduleUrl: string | null,
  ref: string,
  fullName: string,
  baseUrl: string,
) {
  const self = `${api(fullName, baseUrl)}/contents/${urlPath(path)}?ref=${encodeURIComponent(ref)}`;
  const host = new URL(webOrigin(baseUrl)).hostname;
  const repository = submoduleUrl === null ? null : repositoryOnHost(cloneUrl(submoduleUrl, fullName, baseUrl), host);
  const git = repository ? `${api(repository, baseUrl)}/git/trees/${entry.sha}` : null;
  const html = repository ? `${web(repository, baseUrl)}/tree/${entry.sha}` : null;
  return { url: self, git_url: git, html_url: html, download_url: null, _links: { self, git, html } };
}

/** Where a submodule is cloned from: a URL relative to the repository's own (`../lib.git`) resolved from its clone URL. */
const cloneUrl = (submoduleUrl: string, fullName: string, baseUrl: string) =>
  resolveSubmoduleUrl(submoduleUrl, `${web(fullName, baseUrl)}.git`);

/** The type a directory lists an entry as: submodules as `file`, as GitHub's API keeps for compatibility. */
const listedType = (entry: TreeEntry) =>
  entry.mode === "040000" ? "dir" : entry.mode === "120000" ? "symlink" : "file";

function toWireListed(
  { path, entry, size, submoduleUrl }: ListedEntry,
  ref: string,
  fullName: string,
  baseUrl: string,
) {
  const urls =
    entry.mode === "160000"
      ? submoduleUrls(path, entry, submoduleUrl ?? null, ref, fullName, baseUrl)
      : contentUrls(path, entry, ref, fullName, baseUrl);
  return {
    type: listedType(entry),
    size,
    name: entry.name,
    path,
    sha: entry.sha,
    url: urls.url,
    git_url: urls.git_url,
    html_url: urls.html_url,
    download_url: urls.download_url,
    _links: urls._links,
  };
}

/**
 * A path's content as the contents API answers it; `form` `object` (`application/vnd.github.object`) answers a
 * directory as an object of its own with its listing in `entries`, where the default form is the listing itself.
 */
export function toWireContents(
  content: PathContent,
  ref: string,
  fullName: string,
  baseUrl: string,
  form: "json" | "object" = "json",
): ContentFile | ContentSymlink | ContentSubmodule | ContentDirectory | DirectoryEntry[] {
  if (content.kind === "dir") {
    const entries = content.entries.map((listed) => toWireListed(listed, ref, fullName, baseUrl));
    if (form === "json") return entries;
    const entry: TreeEntry = {
      mode: "040000",
      name: content.path.slice(content.path.lastIndexOf("/") + 1),
      sha: content.sha,
    };
    const { url, git_url, html_url, download_url, _links } = contentUrls(content.path, entry, ref, fullName, baseUrl);
    return {
      type: "dir",
      size: 0,
      name: entry.name,
      path: content.path,
      sha: content.sha,
      url,
      git_url,
      html_url,
      download_url,
      _links,
      entries,
    };
  }
  const name = content.entry.name;
  if (content.kind === "submodule") {
    const { url, git_url, html_url, download_url, _links } = submoduleUrls(
      content.path,
      content.entry,
      content.submoduleUrl,
      ref,
      fullName,
      baseUrl,
    );
    return {
      type: "submodule",
      submodule_git_url: cloneUrl(content.submoduleUrl, fullName, baseUrl),
      size: 0,
      name,
      path: content.path,
      sha: content.entry.sha,
      url,
      git_url,
      html_url,
      download_url,
      _links,
    };
  }
  const { url, git_url, html_url, download_url, _links } = contentUrls(
    content.path,
    content.entry,
    ref,
    fullName,
    baseUrl,
  );
  const common = { size: content.body.length, name, path: content.path, sha: content.entry.sha };
  if (content.kind === "symlink")
    return {
      type: "symlink",
      target: content.body.toString("utf8"),
      ...common,
      url,
      git_url,
      html_url,
      download_url,
      _links,
    };
  return {
    type: "file",
    encoding: "base64",
    ...common,
    content: wrappedBase64(content.body),
    url,
    git_url,
    html_url,
    download_url,
    _links,
  };
}

export function toWireFileCommit(
  file: { path: string; sha: string; size: number } | null,
  branch: string,
  commit: { sha: string; fields: CommitFields },
  fullName: string,
  baseUrl: string,
): FileCommit {
  const wireCommit = toWireGitCommit(commit.sha, commit.fields, fullName, baseUrl);
  let content: ContentEntry | null = null;
  if (file) {
    const entry: TreeEntry = { mode: "100644", name: file.path, sha: file.sha };
    const { url, html_url, git_url, download_url, _links } = contentUrls(file.path, entry, branch, fullName, baseUrl);
    const name = file.path.slice(file.path.lastIndexOf("/") + 1);
    content = {
      name,
      path: file.path,
      sha: file.sha,
      size: file.size,
      url,
      html_url,
      git_url,
      download_url,
      type: "file",
      _links,
    };
  }
  return {
    content,
    commit: { ...wireCommit, parents: wireCommit.parents.map(({ url, html_url, sha }) => ({ url, html_url, sha })) },
  };
}

/** A file a commit changed, with its diff. */
export type ChangedFileFacts = FileDiff & { path: string; status: string; sha: string | null };

/** What a commit's wrapper needs beyond git's commit: the accounts of its e-mails, and its files when listed. */
export interface CommitFacts {
  sha: string;
  fields: CommitFields;
  author: UserRow | null;
  committer: UserRow | null;
  files?: ChangedFileFacts[];
  /** Its commit comments (`commit.comment_count`), where the answer counts them; 0 where it does not. */
  commentCount?: number;
}

/** A changed file as a commit's `files` and a pull request's `/files` list it; its URLs name commit `sha`. */
export function toWireCommitFile(file: ChangedFileFacts, sha: string, fullName: string, baseUrl: string): CommitFile {
  const html = web(fullName, baseUrl);
  return {
    sha: file.sha,
    filename: file.path,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${html}/blob/${sha}/${urlPath(file.path)}`,
    raw_url: `${html}/raw/${sha}/${urlPath(file.path)}`,
    contents_url: `${api(fullName, baseUrl)}/contents/${urlPath(file.path)}?ref=${sha}`,
    ...(file.patch === undefined ? {} : { patch: file.patch }),
  };
}

export function toWireRepositoryCommit(facts: CommitFacts, fullName: string, baseUrl: string): RepositoryCommit {
  const { sha, fields } = facts;
  const base = api(fullName, baseUrl);
  const html = web(fullName, baseUrl);
  const files = facts.files?.map((file) => toWireCommitFile(file, sha, fullName, baseUrl));
  const sum = (key: "additions" | "deletions") => (facts.files ?? []).reduce((n, file) => n + file[key], 0);
  return {
    url: `${base}/commits/${sha}`,
    sha,
    node_id: nodeId("Commit", sha),
    html_url: `${html}/commit/${sha}`,
    comments_url: `${base}/commits/${sha}/comments`,
    commit: {
      url: `${base}/git/commits/${sha}`,
      author: toWireActor(fields.author),
      committer: toWireActor(fields.committer),
      message: fields.message,
      tree: { sha: fields.tree, url: `${base}/git/trees/${fields.tree}` },
      comment_count: facts.commentCount ?? 0,
      verification: UNSIGNED,
    },
    author: facts.author && toWireSimpleUser(facts.author, baseUrl),
    committer: facts.committer && toWireSimpleUser(facts.committer, baseUrl),
    parents: fields.parents.map((parent) => ({
      sha: parent,
      url: `${base}/commits/${parent}`,
      html_url: `${html}/commit/${parent}`,
    })),
    ...(files
      ? {
          stats: {
            total: sum("additions") + sum("deletions"),
            additions: sum("additions"),
            deletions: sum("deletions"),
          },
          files,
        }
      : {}),
  };
}

/** A branch as the lists name it, with its protection's rules (null: not protected). */
export interface BranchFacts {
  name: string;
  sha: string;
  rules: ProtectionRules | null;
}

/**
 * A branch as the lists show it; `withProtection`: a protected one with its `protection` and `protection_url`, as
 * GitHub's list of a repository's branches shows them (its other lists, of a commit's branches, only `protected`).
 */
export function toWireBranchShort(
  branch: BranchFacts,
  fullName: string,
  baseUrl: string,
  withProtection = false,
): BranchShort {
  return {
    name: branch.name,
    commit: { sha: branch.sha, url: `${api(fullName, baseUrl)}/commits/${branch.sha}` },
    protected: branch.rules !== null,
    ...(withProtection && branch.rules
      ? {
          protection: toWireProtectionSummary(branch.rules),
          protection_url: protectionUrl(fullName, branch.name, baseUrl),
        }
      : {}),
  };
}

export function toWireBranch(
  name: string,
  commit: CommitFacts,
  rules: ProtectionRules | null,
  fullName: string,
  baseUrl: string,
): BranchWithProtection {
  const self = `${api(fullName, baseUrl)}/branches/${encodeURIComponent(name)}`;
  return {
    name,
    commit: toWireRepositoryCommit(commit, fullName, baseUrl),
    _links: { self, html: `${web(fullName, baseUrl)}/tree/${urlPath(name)}` },
    protected: rules !== null,
    protection: toWireProtectionSummary(rules),
    protection_url: `${self}/protection`,
  };
}
