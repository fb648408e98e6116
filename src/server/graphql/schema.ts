/**
 * The part of GitHub's GraphQL schema feedgate serves (https://docs.github.com/graphql/reference): the viewer, users,
 * organizations and repositories, with the types, names and nullability of GitHub's own schema, so that a query a
 * client writes for GitHub is valid here exactly when every field it asks for is in this part. Connections are
 * served with their `totalCount` only. What clients send first (`gh auth login`: `query UserCurrent{viewer{login}}`)
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
