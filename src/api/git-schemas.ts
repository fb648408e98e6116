/**
 * Git data's wire shapes (https://docs.github.com/rest/git): blobs, trees, commits, refs and annotated tags, and the
 * contents API's file, directory entry and file commit (https://docs.github.com/rest/repos/contents), keys in the
 * order GitHub sends them (`../shared/data/openapi/blob.schema.json`, `git-tree`, `git-commit`, `git-ref`, `git-tag`,
 * `content-file`, `file-commit` and the examples of `git.paths.json` and `contents.paths.json`). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { SimpleUser } from "./schemas.js";

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const GitBlob = Type.Object({
  content: Type.String(),
  encoding: Type.String(),
  url: Type.String(),
  sha: Type.String(),
  size: Type.Integer(),
  node_id: Type.String(),
});

/** What `POST git/blobs` answers: where the blob is. */
export const ShortBlob = Type.Object({ url: Type.String(), sha: Type.String() });

const GitTreeItem = Type.Object({
  path: Type.String(),
  mode: Type.String(),
  type: Type.String(),
  size: Type.Optional(Type.Integer()),
  sha: Type.String(),
  url: Type.Optional(Type.String()),
});

export const GitTree = Type.Object({
  sha: Type.String(),
  url: Type.String(),
  tree: Type.Array(GitTreeItem),
  truncated: Type.Boolean(),
});

/** A commit's author or committer as git keeps them; `date` in UTC, as GitHub answers. */
export const GitActor = Type.Object({ name: Type.String(), email: Type.String(), date: Type.String() });

/** GitHub's verification of a signature: feedgate's commits are unsigned, as GitHub says of those. */
export const Verification = Type.Object({
  verified: Type.Boolean(),
  reason: Type.String(),
  signature: Nullable(Type.String()),
  payload: Nullable(Type.String()),
  verified_at: Nullable(Type.String()),
});

export const GitCommit = Type.Object({
  sha: Type.String(),
  node_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  author: GitActor,
  committer: GitActor,
  message: Type.String(),
  tree: Type.Object({ sha: Type.String(), url: Type.String() }),
  parents: Type.Array(Type.Object({ sha: Type.String(), url: Type.String(), html_url: Type.String() })),
  verification: Verification,
});

export const GitRef = Type.Object({
  ref: Type.String(),
  node_id: Type.String(),
  url: Type.String(),
  object: Type.Object({ type: Type.String(), sha: Type.String(), url: Type.String() }),
});

export const GitTag = Type.Object({
  node_id: Type.String(),
  tag: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  message: Type.String(),
  tagger: GitActor,
  object: Type.Object({ type: Type.String(), sha: Type.String(), url: Type.String() }),
  verification: Verification,
});

const ContentLinks = Type.Object({
  self: Type.String(),
  git: Nullable(Type.String()),
  html: Nullable(Type.String()),
});

/** A directory's entry as `GET .../contents/{dir}` lists it: a file, directory, symlink or submodule without its body. */
export const DirectoryEntry = Type.Object({
  type: Type.String(),
  size: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: ContentLinks,
});

/** The file a contents write wrote, as its answer's `content` has it (another key order than a directory's entry). */
export const ContentEntry = Type.Object({
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  size: Type.Integer(),
  url: Type.String(),
  html_url: Nullable(Type.String()),
  git_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  type: Type.String(),
  _links: ContentLinks,
});

/** A file as `GET .../contents/{path}` answers it: its body in base64, wrapped at 60 columns as GitHub does. */
export const ContentFile = Type.Object({
  type: Type.String(),
  encoding: Type.String(),
  size: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  content: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: ContentLinks,
});

/** A symbolic link whose target is no file of the repository: the link itself, with where it points. */
export const ContentSymlink = Type.Object({
  type: Type.String(),
  target: Type.String(),
  size: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: ContentLinks,
});

/**
 * A submodule (a gitlink, mode 160000): the commit of another repository, cloned from `submodule_git_url` (the
 * `.gitmodules` of the same tree); its git and web URLs are that repository's, null when it is not on this server.
 */
export const ContentSubmodule = Type.Object({
  type: Type.String(),
  submodule_git_url: Type.String(),
  size: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: ContentLinks,
});

/** A directory as `application/vnd.github.object` answers it: an object of its own, its listing in `entries`. */
export const ContentDirectory = Type.Object({
  type: Type.String(),
  size: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  url: Type.String(),
  git_url: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  download_url: Nullable(Type.String()),
  _links: ContentLinks,
  entries: Type.Array(DirectoryEntry),
});

/**
 * What the contents API answers for a path: a file, a symbolic link, a submodule, or a directory's entries (an array,
 * or with the object media type an object holding them).
 */
export const Contents = Type.Union([
  ContentFile,
  ContentSymlink,
  ContentSubmodule,
  ContentDirectory,
  Type.Array(DirectoryEntry),
]);

/** What a contents write answers: the file written (null after a delete) and the commit that wrote it. */
export const FileCommit = Type.Object({
  content: Type.Union([ContentEntry, Type.Null()]),
  commit: Type.Object({
    sha: Type.String(),
    node_id: Type.String(),
    url: Type.String(),
    html_url: Type.String(),
    author: GitActor,
    committer: GitActor,
    message: Type.String(),
    tree: Type.Object({ sha: Type.String(), url: Type.String() }),
    parents: Type.Array(Type.Object({ url: Type.String(), html_url: Type.String(), sha: Type.String() })),
    verification: Verification,
  }),
});

export type GitBlob = Static<typeof GitBlob>;
export type ShortBlob = Static<typeof ShortBlob>;
export type GitTree = Static<typeof GitTree>;
export type GitActor = Static<typeof GitActor>;
export type GitCommit = Static<typeof GitCommit>;
export type GitRef = Static<typeof GitRef>;
export type GitTag = Static<typeof GitTag>;
export type ContentEntry = Static<typeof ContentEntry>;
export type DirectoryEntry = Static<typeof DirectoryEntry>;
export type ContentFile = Static<typeof ContentFile>;
export type ContentSymlink = Static<typeof ContentSymlink>;
export type ContentSubmodule = Static<typeof ContentSubmodule>;
export type ContentDirectory = Static<typeof ContentDirectory>;
export type FileCommit = Static<typeof FileCommit>;

/**
 * What a branch's answers say of its protection (`branch-with-protection.schema.json`'s `protection`): whether it is
 * on, and its required checks with who they apply to (`enforcement_level`: `off`, `non_admins` or `everyone`).
 */
export const BranchProtectionSummary = Type.Object({
  enabled: Type.Boolean(),
  required_status_checks: Type.Object({
    enforcement_level: Type.String(),
    contexts: Type.Array(Type.String()),
    checks: Type.Array(Type.Object({ context: Type.String(), app_id: Type.Union([Type.Integer(), Type.Null()]) })),
  }),
});

/** A branch as `GET .../branches` lists it; a protected one with its protection, as GitHub's example lists one. */
export const BranchShort = Type.Object({
  name: Type.String(),
  commit: Type.Object({ sha: Type.String(), url: Type.String() }),
  protected: Type.Boolean(),
  protection: Type.Optional(BranchProtectionSummary),
  protection_url: Type.Optional(Type.String()),
});

/** GitHub's account of a commit's author or committer: the account its e-mail is, null when none is known. */
const CommitAccount = Type.Union([SimpleUser, Type.Null()]);

/** A commit's changed file, as `GET .../commits/{ref}` lists them. */
export const CommitFile = Type.Object({
  sha: Type.Union([Type.String(), Type.Null()]),
  filename: Type.String(),
  status: Type.String(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  changes: Type.Integer(),
  blob_url: Type.String(),
  raw_url: Type.String(),
  contents_url: Type.String(),
  patch: Type.Optional(Type.String()),
});

/** A commit as the repository's commits API shows it (`commit.schema.json`): git's commit inside GitHub's wrapper. */
export const RepositoryCommit = Type.Object({
  url: Type.String(),
  sha: Type.String(),
  node_id: Type.String(),
  html_url: Type.String(),
  comments_url: Type.String(),
  commit: Type.Object({
    url: Type.String(),
    author: GitActor,
    committer: GitActor,
    message: Type.String(),
    tree: Type.Object({ sha: Type.String(), url: Type.String() }),
    comment_count: Type.Integer(),
    verification: Verification,
  }),
  author: CommitAccount,
  committer: CommitAccount,
  parents: Type.Array(Type.Object({ sha: Type.String(), url: Type.String(), html_url: Type.String() })),
  stats: Type.Optional(Type.Object({ total: Type.Integer(), additions: Type.Integer(), deletions: Type.Integer() })),
  files: Type.Optional(Type.Array(CommitFile)),
});

/** A branch with its head commit and its protection (`branch-with-protection.schema.json`). */
export const BranchWithProtection = Type.Object({
  name: Type.String(),
  commit: RepositoryCommit,
  _links: Type.Object({ self: Type.String(), html: Type.String() }),
  protected: Type.Boolean(),
  protection: BranchProtectionSummary,
  protection_url: Type.String(),
});

export type BranchShort = Static<typeof BranchShort>;
export type CommitFile = Static<typeof CommitFile>;
export type RepositoryCommit = Static<typeof RepositoryCommit>;
export type BranchWithProtection = Static<typeof BranchWithProtection>;

/**
 * Two commits compared (`commit-comparison.schema.json`): where the head stands against the base, the commits it has
 * that the base lacks (oldest first) and the files that changed from their merge base to the head.
 */
export const CommitComparison = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  permalink_url: Type.String(),
  diff_url: Type.String(),
  patch_url: Type.String(),
  base_commit: RepositoryCommit,
  merge_base_commit: RepositoryCommit,
  status: Type.Union([
    Type.Literal("diverged"),
    Type.Literal("ahead"),
    Type.Literal("behind"),
    Type.Literal("identical"),
  ]),
  ahead_by: Type.Integer(),
  behind_by: Type.Integer(),
  total_commits: Type.Integer(),
  commits: Type.Array(RepositoryCommit),
  /** Only on a comparison's first page, as GitHub shows them. */
  files: Type.Optional(Type.Array(CommitFile)),
});

export type CommitComparison = Static<typeof CommitComparison>;
