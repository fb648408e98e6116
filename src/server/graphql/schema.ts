/**
 * The part of GitHub's GraphQL schema feedgate serves (https://docs.github.com/graphql/reference): the viewer, users,
 * organizations, repositories, their refs and the git objects these point at, pull requests, and objects by global
 * id, with the types, names and nullability of GitHub's own schema, so that a query a client writes for GitHub is
 * valid here exactly when every field and argument it asks for is in this part. A repository's refs and a ref's pull
 * requests are connections with their pages (./connections.ts); followers, following and stargazers have their
 * `totalCount` only. What clients send first (`gh auth login`: `query UserCurrent{viewer{login}}`)
 * is in it; a field outside it is refused as GitHub refuses a field it does not know (./errors.ts).
 */
import { buildSchema } from "graphql";

export const SCHEMA_SDL = /* GraphQL */ `
  "An ISO-8601 encoded UTC date string."
  scalar DateTime
  "An RFC 3986, RFC 3987, and RFC 6570 (level 4) compliant URI string."
  scalar URI
  "Git SSH string"
  scalar GitSSHRemote
  "A Git object ID."
  scalar GitObjectID

  "An object with an ID."
  interface Node {
    id: ID!
  }

  "Represents an object which can take actions on GitHub. Typically a User or Bot."
  interface Actor {
    avatarUrl(size: Int): URI!
    login: String!
    resourcePath: URI!
    url: URI!
  }

  "Represents an owner of a Repository."
  interface RepositoryOwner {
    avatarUrl(size: Int): URI!
    id: ID!
    login: String!
    repository(name: String!, followRenames: Boolean = true): Repository
    resourcePath: URI!
    url: URI!
  }

  "The access level to a repository."
  enum RepositoryPermission {
    ADMIN
    MAINTAIN
    WRITE
    TRIAGE
    READ
  }

  "Possible directions in which to order a list of items when provided an \`orderBy\` argument."
  enum OrderDirection {
    ASC
    DESC
  }

  "Properties by which issue connections can be ordered."
  enum IssueOrderField {
    COMMENTS
    CREATED_AT
    UPDATED_AT
  }

  "Ways in which lists of issues can be ordered upon return."
  input IssueOrder {
    direction: OrderDirection!
    field: IssueOrderField!
  }

  "The possible states of a pull request."
  enum PullRequestState {
    CLOSED
    MERGED
    OPEN
  }

  "Information about pagination in a connection."
  type PageInfo {
    endCursor: String
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
  }

  "Represents a Git object."
  interface GitObject {
    abbreviatedOid: String!
    commitResourcePath: URI!
    commitUrl: URI!
    id: ID!
    oid: GitObjectID!
    repository: Repository!
  }

  "Represents a Git commit."
  type Commit implements Node & GitObject {
    abbreviatedOid: String!
    commitResourcePath: URI!
    commitUrl: URI!
    id: ID!
    message: String!
    messageHeadline: String!
    oid: GitObjectID!
    repository: Repository!
  }

  "Represents a Git tag."
  type Tag implements Node & GitObject {
    abbreviatedOid: String!
    commitResourcePath: URI!
    commitUrl: URI!
    id: ID!
    message: String
    name: String!
    oid: GitObjectID!
    repository: Repository!
    target: GitObject!
  }

  "Represents a Git tree."
  type Tree implements Node & GitObject {
    abbreviatedOid: String!
    commitResourcePath: URI!
    commitUrl: URI!
    id: ID!
    oid: GitObjectID!
    repository: Repository!
  }

  "Represents a Git blob."
  type Blob implements Node & GitObject {
    abbreviatedOid: String!
    commitResourcePath: URI!
    commitUrl: URI!
    id: ID!
    oid: GitObjectID!
    repository: Repository!
  }

  "Represents a Git reference."
  type Ref implements Node {
    associatedPullRequests(
      after: String
      baseRefName: String
      before: String
      first: Int
      headRefName: String
      labels: [String!]
      last: Int
      orderBy: IssueOrder
      states: [PullRequestState!]
    ): PullRequestConnection!
    id: ID!
    name: String!
    prefix: String!
    repository: Repository!
    target: GitObject
  }

  "The connection type for Ref."
  type RefConnection {
    edges: [RefEdge]
    nodes: [Ref]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  "An edge in a connection."
  type RefEdge {
    cursor: String!
    node: Ref
  }

  "A repository pull request."
  type PullRequest implements Node {
    author: Actor
    baseRef: Ref
    baseRefName: String!
    baseRefOid: GitObjectID!
    baseRepository: Repository
    body: String!
    closed: Boolean!
    closedAt: DateTime
    createdAt: DateTime!
    databaseId: Int
    headRef: Ref
    headRefName: String!
    headRefOid: GitObjectID!
    headRepository: Repository
    headRepositoryOwner: RepositoryOwner
    id: ID!
    isDraft: Boolean!
    merged: Boolean!
    mergedAt: DateTime
    number: Int!
    permalink: URI!
    repository: Repository!
    resourcePath: URI!
    state: PullRequestState!
    title: String!
    updatedAt: DateTime!
    url: URI!
  }

  "The connection type for PullRequest."
  type PullRequestConnection {
    edges: [PullRequestEdge]
    nodes: [PullRequest]
    pageInfo: PageInfo!
    totalCount: Int!
  }
  "An edge in a connection."
  type PullRequestEdge {
    cursor: String!
    node: PullRequest
  }

  "The repository's visibility level."
  enum RepositoryVisibility {
    PRIVATE
    PUBLIC
    INTERNAL
  }

  "A list of users following a user, or followed by one."
  type FollowerConnection {
    totalCount: Int!
  }
  type FollowingConnection {
    totalCount: Int!
  }
  "A list of users who have starred a repository."
  type StargazerConnection {
    totalCount: Int!
  }

  "A user is an individual's account on GitHub that owns repositories and can make new content."
  type User implements Node & Actor & RepositoryOwner {
    avatarUrl(size: Int): URI!
    bio: String
    company: String
    createdAt: DateTime!
    databaseId: Int
    email: String!
    followers: FollowerConnection!
    following: FollowingConnection!
    id: ID!
    isSiteAdmin: Boolean!
    isViewer: Boolean!
    location: String
    login: String!
    name: String
    repository(name: String!, followRenames: Boolean = true): Repository
    resourcePath: URI!
    twitterUsername: String
    updatedAt: DateTime!
    url: URI!
    websiteUrl: URI
  }

  "An account on GitHub, with one or more owners, that has repositories, members and teams."
  type Organization implements Node & Actor & RepositoryOwner {
    avatarUrl(size: Int): URI!
    createdAt: DateTime!
    databaseId: Int
    description: String
    email: String
    id: ID!
    login: String!
    name: String
    repository(name: String!, followRenames: Boolean = true): Repository
    resourcePath: URI!
    updatedAt: DateTime!
    url: URI!
    viewerIsAMember: Boolean!
    websiteUrl: URI
  }

  "A repository contains the content for a project."
  type Repository implements Node {
    createdAt: DateTime!
    databaseId: Int
    defaultBranchRef: Ref
    description: String
    forkCount: Int!
    hasIssuesEnabled: Boolean!
    hasWikiEnabled: Boolean!
    homepageUrl: URI
    id: ID!
    isArchived: Boolean!
    isDisabled: Boolean!
    isFork: Boolean!
    isPrivate: Boolean!
    isTemplate: Boolean!
    name: String!
    nameWithOwner: String!
    owner: RepositoryOwner!
    parent: Repository
    pushedAt: DateTime
    ref(qualifiedName: String!): Ref
    refs(after: String, before: String, first: Int, last: Int, refPrefix: String!): RefConnection
    resourcePath: URI!
    sshUrl: GitSSHRemote!
    stargazerCount: Int!
    stargazers: StargazerConnection!
    updatedAt: DateTime!
    url: URI!
    viewerPermission: RepositoryPermission
    visibility: RepositoryVisibility!
  }

  "The query root of GitHub's GraphQL interface."
  type Query {
    "Fetches an object given its ID."
    node(id: ID!): Node
    "Lookup nodes by a list of IDs."
    nodes(ids: [ID!]!): [Node]!
    "Lookup an organization by login."
    organization(login: String!): Organization
    "Lookup a given repository by the owner and repository name."
    repository(owner: String!, name: String!, followRenames: Boolean = true): Repository
    "Lookup a repository owner (ie. either a User or an Organization) by login."
    repositoryOwner(login: String!): RepositoryOwner
    "Lookup a user by login."
    user(login: String!): User
    "The currently authenticated user."
    viewer: User!
  }
`;

/** Built once per process: every app serves the same schema. */
export const SCHEMA = buildSchema(SCHEMA_SDL);
