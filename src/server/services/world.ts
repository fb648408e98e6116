/**
 * The world file: a declarative description of users, organizations, repositories, tokens and events,
 * checked entry by entry (errors name the entry) and turned into one ingest batch.
 */
import { isAbsolute, resolve } from "node:path";
import type { IngestBatch, Store } from "../store/store.js";
import { hashPassword, hashToken, isTokenShaped, isValidOtpSecret, verifyPassword } from "./credentials.js";
import { addEvent, emptyBatch, parseEvent, parseIssueEvent } from "./event-envelope.js";
import { InvalidInputError } from "../failures.js";
import { fail, isObject, REPO_NAME, validScopes, type Json } from "./input-checks.js";
import { ndjsonFromFile } from "./ndjson.js";
import { parseLine } from "./event-import.js";
import { checkLogin } from "./users.js";
import { worldIssues, type WorldIssue } from "./world-issues.js";
import { worldOAuthApps } from "./world-oauth-apps.js";
import { worldFiles, type WorldFiles } from "./world-files.js";
import type { OAuthAppRegistration } from "./oauth/oauth-apps.js";

const WORLD_KEYS = [
  "users",
  "orgs",
  "repos",
  "tokens",
  "events",
  "events_files",
  "issue_events",
  "issues",
  "oauth_apps",
  "apps",
];
import { worldApps, type WorldApp } from "./world-apps.js";

function list(doc: Json, key: string): unknown[] {
  const value = doc[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(key, "must be an array");
  return value;
}

function entry(value: unknown, where: string, keys: string[]): Json {
  if (!isObject(value)) fail(where, "must be an object");
  const unknown = Object.keys(value).filter((k) => !keys.includes(k));
  if (unknown.length > 0) fail(where, `unknown key ${unknown.map((k) => `"${k}"`).join(", ")}`);
  return value;
}

function string(value: unknown, where: string, optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== "string" || value === "") fail(where, "must be a non-empty string");
  return value;
}

function strings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === ""))
    fail(where, "must be an array of strings");
  return value as string[];
}

function repoName(value: unknown, where: string): string {
  if (typeof value !== "string" || !REPO_NAME.test(value)) fail(where, 'must be "owner/name"');
  return value;
}

/** An e-mail address as GitHub's schema has it (`format: email`): one `@` with text either side, no spaces. */
function emailAddress(value: unknown, where: string): string | undefined {
  const text = string(value, where, true);
  if (text !== undefined && !/^[^\s@]+@[^\s@]+$/.test(text)) fail(where, "must be an e-mail address");
  return text;
}

/** A URL as GitHub's schema has it (`format: uri`): absolute, http or https. */
function webUrl(value: unknown, where: string): string | undefined {
  const text = string(value, where, true);
  if (text !== undefined && !(/^https?:\/\/\S+$/.test(text) && URL.canParse(text)))
    fail(where, 'must be an http or https URL ("https://example.com")');
  return text;
}

function boolean(value: unknown, where: string): boolean | undefined {
  if (value !== undefined && typeof value !== "boolean") fail(where, "must be true or false");
  return value as boolean | undefined;
}

export interface WorldOptions {
  /** Where `events_files` are resolved from (the world file's folder); undefined refuses them (HTTP ingest). */
  baseDir: string | undefined;
  /**
   * Seals an app's `webhook_secret` as the server that delivers its webhooks seals hooks' secrets (its SecretBox);
   * without it, a world naming one is refused rather than delivered unsigned.
   */
  sealSecret?: (secret: string) => string;
  /** Hashes a new password; credentials.ts's hashPassword unless given (the test double remembers its hashes). */
  hashPassword?: (password: string) => Promise<string>;
}

/** What a world document held, by kind (events: inline and from its events files): `seed` reports it. */
export interface WorldContents {
  users: number;
  organizations: number;
  repos: number;
  tokens: number;
  events: number;
  issueEvents: number;
  issues: number;
}

/** Checks a world document and builds its batch. A password is re-hashed only when it changed, so seeding is idempotent. */
export async function worldBatch(store: Store, doc: unknown, options: WorldOptions): Promise<IngestBatch> {
  // The time only dates the issues a world leaves undated, and the batch holds no issue.
  return (await loadWorld(store, doc, options, new Date(0))).batch;
}

/** worldBatch, its issues (those without a `created_at` made at `now`, the caller's clock), and what it held. */
export async function loadWorld(
  store: Store,
  doc: unknown,
  options: WorldOptions,
  now: Date,
): Promise<{
  batch: IngestBatch;
  issues: WorldIssue[];
  oauthApps: OAuthAppRegistration[];
  apps: WorldApp[];
  files: WorldFiles[];
  contents: WorldContents;
}> {
  if (!isObject(doc)) fail("world", "must be a JSON object");
  const unknownKeys = Object.keys(doc).filter((k) => !WORLD_KEYS.includes(k));
  if (unknownKeys.length > 0) fail("world", `unknown key ${unknownKeys.map((k) => `"${k}"`).join(", ")}`);
  const batch = emptyBatch();
  const files: WorldFiles[] = [];

  for (const [i, value] of list(doc, "users").entries()) {
    const where = `users[${i}]`;
    const u = entry(value, where, ["login", "password", "otp_secret", "site_admin", "following", "watching"]);
    const login = string(u.login, `${where}.login`)!;
    try {
      checkLogin(login);
    } catch (error) {
      fail(`${where}.login`, (error as Error).message);
    }
    const password = string(u.password, `${where}.password`, true);
    const otpSecret = string(u.otp_secret, `${where}.otp_secret`, true)?.replace(/\s+/g, "").toUpperCase();
    if (otpSecret !== undefined && !isValidOtpSecret(otpSecret))
      fail(`${where}.otp_secret`, "must be base32 of at least 10 bytes");
    const existing = password === undefined ? null : await store.users.findByLogin(login);
    const unchanged =
      password !== undefined && existing !== null && (await verifyPassword(password, existing.passwordHash));
    batch.accounts.push({
      source: where,
      login,
      type: "User",
      passwordHash:
        password === undefined || unchanged ? undefined : await (options.hashPassword ?? hashPassword)(password),
      otpSecret,
      siteAdmin: boolean(u.site_admin, `${where}.site_admin`),
    });
    for (const followee of strings(u.following, `${where}.following`))
      batch.follows.push({ source: where, follower: login, followee });
    for (const [j, repo] of strings(u.watching, `${where}.watching`).entries()) {
      batch.watches.push({ source: where, user: login, repo: repoName(repo, `${where}.watching[${j}]`) });
    }
  }

  for (const [i, value] of list(doc, "orgs").entries()) {
    const where = `orgs[${i}]`;
    const o = entry(value, where, ["login", "members", "owners", "email", "blog", "billing_email"]);
    const login = string(o.login, `${where}.login`)!;
    const profile = {
      email: emailAddress(o.email, `${where}.email`),
      blog: webUrl(o.blog, `${where}.blog`),
      billingEmail: emailAddress(o.billing_email, `${where}.billing_email`),
    };
    const profiled = Object.values(profile).some((field) => field !== undefined);
    batch.accounts.push({ source: where, login, type: "Organization", ...(profiled ? { profile } : {}) });
    // Owners are members with GitHub's admin role; a login in both lists is an owner.
    const owners = strings(o.owners, `${where}.owners`);
    const isOwner = new Set(owners.map((owner) => owner.toLowerCase()));
    for (const member of strings(o.members, `${where}.members`)) {
      if (!isOwner.has(member.toLowerCase()))
        batch.memberships.push({ source: where, org: login, member, role: "member" });
    }
    for (const owner of owners) batch.memberships.push({ source: where, org: login, member: owner, role: "admin" });
  }

  for (const [i, value] of list(doc, "repos").entries()) {
    const where = `repos[${i}]`;
    const r = entry(value, where, ["full_name", "private", "fork_of", "collaborators", "files"]);
    const fullName = repoName(r.full_name, `${where}.full_name`);
    const forkOf = r.fork_of === undefined ? undefined : repoName(r.fork_of, `${where}.fork_of`);
    batch.repos.push({ source: where, fullName, private: boolean(r.private, `${where}.private`), forkOf });
    for (const user of strings(r.collaborators, `${where}.collaborators`))
      batch.collaborators.push({ source: where, repo: fullName, user });
    const repoFiles = worldFiles(r.files, fullName, `${where}.files`);
    if (repoFiles) files.push(repoFiles);
  }

  for (const [i, value] of list(doc, "tokens").entries()) {
    const where = `tokens[${i}]`;
    const t = entry(value, where, ["user", "token", "scopes", "note"]);
    const token = string(t.token, `${where}.token`)!;
    if (!isTokenShaped(token))
      fail(`${where}.token`, "must be 40 lowercase hex characters or a feedgate token (fgp_...)");
    const scopes = strings(t.scopes, `${where}.scopes`);
    const validated = validScopes(scopes, `${where}.scopes`);
    batch.tokens.push({
      source: where,
      login: string(t.user, `${where}.user`)!,
      hashedToken: hashToken(token),
      tokenLastEight: token.slice(-8),
      scopes: validated,
      note: string(t.note, `${where}.note`, true) ?? null,
    });
  }

  for (const [i, value] of list(doc, "events").entries()) addEvent(batch, parseEvent(value, `events[${i}]`));

  for (const [i, value] of list(doc, "events_files").entries()) {
    const where = `events_files[${i}]`;
    const file = string(value, where)!;
    if (options.baseDir === undefined) fail(where, "events files can only be seeded from the command line");
    const path = isAbsolute(file) ? file : resolve(options.baseDir, file);
    try {
      for await (const line of ndjsonFromFile(path).lines) {
        if (line.text.trim() === "") continue;
        addEvent(batch, parseLine(file, line));
      }
    } catch (error) {
      if (error instanceof InvalidInputError) throw error;
      fail(where, `cannot read ${path}: ${(error as Error).message}`);
    }
  }

  for (const [i, value] of list(doc, "issue_events").entries())
    batch.issueEvents.push(parseIssueEvent(value, `issue_events[${i}]`));
  const issues = await worldIssues(store, list(doc, "issues"), batch, now);
  const apps = worldApps(list(doc, "apps"));
  return {
    batch,
    issues,
    oauthApps: worldOAuthApps(list(doc, "oauth_apps")),
    apps,
    files,
    contents: {
      users: list(doc, "users").length,
      organizations: list(doc, "orgs").length,
      repos: list(doc, "repos").length,
      tokens: batch.tokens.length,
      events: batch.events.length,
      issueEvents: batch.issueEvents.length,
      issues: issues.length,
    },
  };
}
