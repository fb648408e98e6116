/**
 * THE response kinds: what each operation of the endpoint table answers with, and that answer's TypeBox schema. One
 * map feeds the server's serializers (a route's response schema), the OpenAPI document (its response bodies) and the
 * SDK's result types (`Static` of the schema); the table names a kind, `ResponseKind` is this map's keys.
 * No Node-only imports: the SDK runs in browsers too.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  Accepted,
  ApiOverview,
  Authorization,
  Event,
  FineGrainedToken,
  Hook,
  HookDelivery,
  HookDeliveryItem,
  HookRedeliveries,
  IssueEvent,
  IssueEventOfIssue,
  Organization,
  OrgHook,
  ParentRepository,
  PrivateUser,
  PublicUser,
  RateLimit,
  Repository,
  Root,
  servedSchemas,
  SimpleUser,
  WebhookConfig,
  wireIdSchema,
} from "./schemas.js";
import { Issue, IssueSearchResult, IssueWithRepository, Label, Milestone } from "./issue-schemas.js";
import { IssueComment, Reaction } from "./comment-schemas.js";
import { RepositorySubscription, Stargazer, StarredRepository } from "./activity-schemas.js";
import { TimelineItem, timelineItemSchema } from "./timeline-schemas.js";
import {
  BranchShort,
  BranchWithProtection,
  RepositoryCommit,
  CommitComparison,
  CommitFile,
  ContentFile,
  Contents,
  FileCommit,
  GitBlob,
  GitCommit,
  GitRef,
  GitTag,
  GitTree,
  ShortBlob,
} from "./git-schemas.js";
import {
  PullRequest,
  PullRequestBranchUpdate,
  PullRequestMergeResult,
  PullRequestReview,
  PullRequestReviewComment,
  PullRequestReviewRequest,
  PullRequestSimple,
} from "./pull-schemas.js";
import { Collaborator, RepositoryCollaboratorPermission, RepositoryInvitation } from "./collaborator-schemas.js";
import {
  AppManifestConversion,
  Installation,
  InstallationRepositories,
  InstallationToken,
  Integration,
  UserInstallations,
} from "./app-schemas.js";
import { CombinedCommitStatus, CommitStatus } from "./status-schemas.js";
import {
  CheckAnnotation,
  CheckRun,
  CheckRunList,
  CheckSuite,
  CheckSuiteList,
  CheckSuitePreference,
  EmptyObject,
} from "./check-schemas.js";
import { Release, ReleaseAsset } from "./release-schemas.js";
import { CommitComment } from "./commit-comment-schemas.js";
import { BranchProtection, ProtectedBranchPullRequestReview, StatusCheckPolicy } from "./protection-schemas.js";

/** The named response shapes as the spec has them (string ids), under the names the OpenAPI document gives them. */
const SPEC_SHAPES = {
  Authorization,
  IssueEvent,
  Event,
  PrivateUser,
  PublicUser,
  Organization,
  Repository,
  RateLimit,
  Root,
  ApiOverview,
  Hook,
  OrgHook,
  WebhookConfig,
  HookDelivery,
  HookDeliveryItem,
  Accepted,
  FineGrainedToken,
  HookRedeliveries,
  Issue,
  IssueWithRepository,
  IssueEventOfIssue,
  TimelineItem,
  IssueSearchResult,
  IssueComment,
  Reaction,
  Stargazer,
  StarredRepository,
  RepositorySubscription,
  SimpleUser,
  /** GitHub's minimal-repository, of which feedgate's repository object (a fork's `parent`) is a superset. */
  MinimalRepository: ParentRepository,
  /** Stargazers: simple users, or with `application/vnd.github.star+json` each with when it starred. */
  Stargazers: Type.Union([Type.Array(SimpleUser), Type.Array(Stargazer)]),
  /** Starred repositories: repositories, or with `application/vnd.github.star+json` each with when it was starred. */
  StarredRepositories: Type.Union([Type.Array(ParentRepository), Type.Array(StarredRepository)]),
  Label,
  Milestone,
  Collaborator,
  RepositoryInvitation,
  RepositoryCollaboratorPermission,
  Integration,
  Installation,
  InstallationToken,
  InstallationRepositories,
  UserInstallations,
  AppManifestConversion,
  ShortBlob,
  GitBlob,
  GitTree,
  GitCommit,
  GitRef,
  GitTag,
  Contents,
  ContentFile,
  FileCommit,
  BranchShort,
  BranchWithProtection,
  RepositoryCommit,
  CommitFile,
  CommitComparison,
  PullRequest,
  PullRequestSimple,
  PullRequestMergeResult,
  PullRequestBranchUpdate,
  PullRequestReview,
  PullRequestReviewRequest,
  PullRequestReviewComment,
  CommitStatus,
  CombinedCommitStatus,
  CheckRun,
  CheckAnnotation,
  CheckSuite,
  CheckRunList,
  CheckSuiteList,
  CheckSuitePreference,
  EmptyObject,
  Release,
  ReleaseAsset,
  CommitComment,
  BranchProtection,
  StatusCheckPolicy,
  ProtectedBranchPullRequestReview,
};
type Shapes = { readonly [K in keyof typeof SPEC_SHAPES]: TSchema };

/**
 * The named response shapes with the ids a server in one mode sends: `--numeric-ids` integers, otherwise strings.
 * The OpenAPI document's components, which response kinds refer to by these names.
 */
export function namedResponseSchemas(numericIds: boolean) {
  return { ...SPEC_SHAPES, ...servedSchemas(numericIds), TimelineItem: timelineItemSchema(wireIdSchema(numericIds)) };
}

/** No body: a 204. Never serialized nor sent; its static type is the SDK's `data` for such operations. */
const Empty = Type.Undefined();

/** Every response kind and its schema, made of one set of named shapes (the document refers to them by name). */
export function responseKinds<S extends Shapes>(named: S) {
  // Read through a typed accessor: a plain `named.Hook` would be typed as the constraint's TSchema, not S's own.
  const shape = <K extends keyof Shapes>(name: K): S[K] => named[name];
  return {
    Authorization: shape("Authorization"),
    "Authorization[]": Type.Array(shape("Authorization")),
    "Event[]": Type.Array(shape("Event")),
    "IssueEvent[]": Type.Array(shape("IssueEvent")),
    "IssueEventOfIssue[]": Type.Array(shape("IssueEventOfIssue")),
    "TimelineItem[]": Type.Array(shape("TimelineItem")),
    /** 204 No Content. */
    empty: Empty,
    /**
     * 302 Found, no body: where the answer is, in `Location` (GitHub's archives, served by codeload). The SDK does not
     * follow it: its `data` is that URL, as PyGithub's `get_archive_link` answers it.
     */
    redirect: Type.String({ format: "uri" }),
    /** 202 with an empty object: GitHub's answer to a redelivery. */
    accepted: shape("Accepted"),
    PrivateUser: shape("PrivateUser"),
    PublicUser: shape("PublicUser"),
    Organization: shape("Organization"),
    Repository: shape("Repository"),
    /** 202: the fork, made at once (GitHub makes it asynchronously and answers it as it will be). */
    Fork: shape("Repository"),
    RateLimit: shape("RateLimit"),
    Root: shape("Root"),
    ApiOverview: shape("ApiOverview"),
    Hook: shape("Hook"),
    "Hook[]": Type.Array(shape("Hook")),
    OrgHook: shape("OrgHook"),
    "OrgHook[]": Type.Array(shape("OrgHook")),
    WebhookConfig: shape("WebhookConfig"),
    HookDelivery: shape("HookDelivery"),
    "HookDeliveryItem[]": Type.Array(shape("HookDeliveryItem")),
    /** 202: what a bulk redelivery queued. */
    HookRedeliveries: shape("HookRedeliveries"),
    FineGrainedToken: shape("FineGrainedToken"),
    "FineGrainedToken[]": Type.Array(shape("FineGrainedToken")),
    Issue: shape("Issue"),
    "Issue[]": Type.Array(shape("Issue")),
    "IssueWithRepository[]": Type.Array(shape("IssueWithRepository")),
    IssueSearchResult: shape("IssueSearchResult"),
    IssueComment: shape("IssueComment"),
    "IssueComment[]": Type.Array(shape("IssueComment")),
    Reaction: shape("Reaction"),
    "Reaction[]": Type.Array(shape("Reaction")),
    /** Accounts as simple users: stargazers, subscribers, followers, the followed. */
    "SimpleUser[]": Type.Array(shape("SimpleUser")),
    Stargazers: shape("Stargazers"),
    StarredRepositories: shape("StarredRepositories"),
    /** The repositories watched. */
    "MinimalRepository[]": Type.Array(shape("MinimalRepository")),
    RepositorySubscription: shape("RepositorySubscription"),
    Label: shape("Label"),
    "Label[]": Type.Array(shape("Label")),
    Milestone: shape("Milestone"),
    "Milestone[]": Type.Array(shape("Milestone")),
    "Collaborator[]": Type.Array(shape("Collaborator")),
    RepositoryInvitation: shape("RepositoryInvitation"),
    "RepositoryInvitation[]": Type.Array(shape("RepositoryInvitation")),
    RepositoryCollaboratorPermission: shape("RepositoryCollaboratorPermission"),
    Integration: shape("Integration"),
    Installation: shape("Installation"),
    "Installation[]": Type.Array(shape("Installation")),
    InstallationToken: shape("InstallationToken"),
    InstallationRepositories: shape("InstallationRepositories"),
    UserInstallations: shape("UserInstallations"),
    AppManifestConversion: shape("AppManifestConversion"),
    ShortBlob: shape("ShortBlob"),
    GitBlob: shape("GitBlob"),
    GitTree: shape("GitTree"),
    GitCommit: shape("GitCommit"),
    GitRef: shape("GitRef"),
    "GitRef[]": Type.Array(shape("GitRef")),
    GitTag: shape("GitTag"),
    Contents: shape("Contents"),
    ContentFile: shape("ContentFile"),
    FileCommit: shape("FileCommit"),
    "BranchShort[]": Type.Array(shape("BranchShort")),
    BranchWithProtection: shape("BranchWithProtection"),
    RepositoryCommit: shape("RepositoryCommit"),
    "RepositoryCommit[]": Type.Array(shape("RepositoryCommit")),
    "CommitFile[]": Type.Array(shape("CommitFile")),
    CommitComparison: shape("CommitComparison"),
    PullRequest: shape("PullRequest"),
    PullRequestSimple: shape("PullRequestSimple"),
    "PullRequestSimple[]": Type.Array(shape("PullRequestSimple")),
    PullRequestMergeResult: shape("PullRequestMergeResult"),
    PullRequestBranchUpdate: shape("PullRequestBranchUpdate"),
    PullRequestReview: shape("PullRequestReview"),
    "PullRequestReview[]": Type.Array(shape("PullRequestReview")),
    PullRequestReviewRequest: shape("PullRequestReviewRequest"),
    PullRequestReviewComment: shape("PullRequestReviewComment"),
    "PullRequestReviewComment[]": Type.Array(shape("PullRequestReviewComment")),
    CommitStatus: shape("CommitStatus"),
    "CommitStatus[]": Type.Array(shape("CommitStatus")),
    CombinedCommitStatus: shape("CombinedCommitStatus"),
    CheckRun: shape("CheckRun"),
    "CheckAnnotation[]": Type.Array(shape("CheckAnnotation")),
    CheckSuite: shape("CheckSuite"),
    CheckRunList: shape("CheckRunList"),
    CheckSuiteList: shape("CheckSuiteList"),
    CheckSuitePreference: shape("CheckSuitePreference"),
    /** 201 with `{}`: a rerequest, which GitHub answers so. */
    EmptyObject: shape("EmptyObject"),
    Release: shape("Release"),
    "Release[]": Type.Array(shape("Release")),
    ReleaseAsset: shape("ReleaseAsset"),
    "ReleaseAsset[]": Type.Array(shape("ReleaseAsset")),
    CommitComment: shape("CommitComment"),
    "CommitComment[]": Type.Array(shape("CommitComment")),
    BranchProtection: shape("BranchProtection"),
    StatusCheckPolicy: shape("StatusCheckPolicy"),
    ProtectedBranchPullRequestReview: shape("ProtectedBranchPullRequestReview"),
  };
}

const BY_MODE = {
  strings: responseKinds(namedResponseSchemas(false)),
  numbers: responseKinds(namedResponseSchemas(true)),
};

/**
 * Every response kind and its schema as a server in one id mode sends it: its serializers and its document. Made once
 * per mode, so that every route and every app of the process holds the same schema objects, which the compilers
 * remember by identity (server/compiled-schemas.ts).
 */
export const responseSchemas = (numericIds: boolean) => (numericIds ? BY_MODE.numbers : BY_MODE.strings);

/** The kinds as the spec has them (string ids), which is also what feedgate/client hands its callers. */
export const RESPONSES = responseKinds(SPEC_SHAPES);
export type Responses = typeof RESPONSES;

export type ResponseKind = keyof Responses;

/** What an answer of a kind holds once parsed (`undefined` for `empty`). */
export type ResponseData<K extends ResponseKind> = Static<Responses[K]>;

/** Whether a kind's answer has a body. */
export const hasBody = (kind: ResponseKind): boolean => kind !== "empty" && kind !== "redirect";

/** A table row as far as its success status goes. */
interface Answering {
  readonly method: string;
  readonly response: ResponseKind;
  /** A row that creates without a POST (`PUT .../collaborators/{u}` making an invitation): 201. */
  readonly creates?: true;
  readonly answers200?: true;
}

/**
 * The status of a successful answer: 302 for a redirect, 204 without a body, 202 for what is queued (`accepted`, `HookRedeliveries`, `Fork`,
 * `PullRequestBranchUpdate`), 201 when
 * a POST row creates, 200 else. A POST answering a list made no one resource (adding labels answers the issue's
 * labels): GitHub answers it 200.
 * A route serving a PATCH row under POST too (GitHub's alias) answers as the PATCH does: the row decides, not the route.
 */
export function successStatus(row: Answering): 200 | 201 | 202 | 204 | 302 {
  if (row.response === "redirect") return 302;
  if (!hasBody(row.response)) return 204;
  const queued = ["accepted", "HookRedeliveries", "Fork", "PullRequestBranchUpdate"];
  if (queued.includes(row.response)) return 202;
  if (row.creates) return 201;
  if (row.answers200) return 200;
  return row.method === "POST" && !row.response.endsWith("[]") ? 201 : 200;
}
