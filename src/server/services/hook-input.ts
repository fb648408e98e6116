/**
 * What a hook's create and update bodies may hold, checked after the route's schema has checked the types: event
 * names GitHub knows, a deliverable URL, `json` or `form`, `insecure_ssl` 0 or 1. Refusals are GitHub's 422 entries
 * (resource "Hook", from the endpoint row), raised before anything is stored.
 */
import type { RequestOf } from "../../api/schemas.js";
import type { endpoints } from "../../api/endpoints.js";
import { InvalidInputError } from "../failures.js";
import type { ContentType, HookConfig } from "../store/hook-store.js";

/** A hook's config as the create and update bodies give it (the route's schema checked the types). */
export type ConfigInput = NonNullable<RequestOf<typeof endpoints.hooks.create, "body">["config"]>;

/**
 * The events a repository or organization hook may subscribe to: GitHub's webhook event names as @octokit/webhooks
 * 14.2 lists them (`emitterEventNames` without actions), less those only GitHub Apps receive (installation_*,
 * github_app_authorization, marketplace_purchase, personal_access_token_request, security_advisory) and `ping`,
 * which every hook gets unasked. `*` subscribes to all.
 */
export const WEBHOOK_EVENTS: ReadonlySet<string> = new Set([
  "*",
  "branch_protection_configuration",
  "branch_protection_rule",
  "check_run",
  "check_suite",
  "code_scanning_alert",
  "commit_comment",
  "create",
  "custom_property",
  "custom_property_values",
  "delete",
  "dependabot_alert",
  "deploy_key",
  "deployment",
  "deployment_protection_rule",
  "deployment_review",
  "deployment_status",
  "discussion",
  "discussion_comment",
  "fork",
  "gollum",
  "issue_comment",
  "issue_dependencies",
  "issues",
  "label",
  "member",
  "membership",
  "merge_group",
  "meta",
  "milestone",
  "org_block",
  "organization",
  "package",
  "page_build",
  "project",
  "project_card",
  "project_column",
  "projects_v2",
  "projects_v2_item",
  "projects_v2_status_update",
  "public",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_thread",
  "push",
  "registry_package",
  "release",
  "repository",
  "repository_advisory",
  "repository_dispatch",
  "repository_import",
  "repository_ruleset",
  "repository_vulnerability_alert",
  "secret_scanning_alert",
  "secret_scanning_alert_location",
  "secret_scanning_scan",
  "security_and_analysis",
  "sponsorship",
  "star",
  "status",
  "sub_issues",
  "team",
  "team_add",
  "watch",
  "workflow_dispatch",
  "workflow_job",
  "workflow_run",
]);

/** GitHub's default: a hook created without `events` hears pushes. */
export const DEFAULT_EVENTS = ["push"];

/** GitHub's 422 for a hook without a URL (its `custom` code, no field: feedgate names `config`). */
const MISSING_URL = "Config must contain URL for webhooks";
/** GitHub Enterprise's 422 for a URL it cannot deliver to (recorded in tektoncd/experimental#414). */
const BAD_URL = "The URL you've entered is not valid. Please make sure that you encode all special characters first";

/** The names given, without repeats, each one GitHub knows; the first unknown one is refused. */
export function validEvents(events: readonly string[], field = "events"): string[] {
  const unknown = events.find((name) => !WEBHOOK_EVENTS.has(name));
  if (unknown !== undefined) {
    throw new InvalidInputError(`${JSON.stringify(unknown)} is not a valid event name`, { field, code: "custom" });
  }
  return [...new Set(events)];
}

/** An absolute http(s) URL with a host, as a delivery needs; nothing else is stored. */
function validUrl(url: string | undefined): string {
  if (url === undefined || url === "") throw new InvalidInputError(MISSING_URL, { field: "config", code: "custom" });
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  // WHATWG URL parsing forgives spaces and control characters by dropping or encoding them: refuse them instead, so
  // that the URL shown is the URL given.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!parsed || !/^https?:$/.test(parsed.protocol) || !parsed.hostname || /[\s\x00-\x1f\x7f]/.test(url)) {
    throw new InvalidInputError(BAD_URL, { field: "config", code: "custom" });
  }
  return url;
}

function validContentType(value: string): ContentType {
  if (value === "json" || value === "form") return value;
  throw new InvalidInputError(`content_type must be "json" or "form", got ${JSON.stringify(value)}`, {
    field: "config",
  });
}

/** GitHub takes `"0"`/`"1"` or the numbers 0/1. */
function validInsecureSsl(value: string | number): "0" | "1" {
  const text = String(value);
  if (text === "0" || text === "1") return text;
  throw new InvalidInputError(`insecure_ssl must be "0" or "1", got ${JSON.stringify(value)}`, { field: "config" });
}

/**
 * A whole config, as create and a hook's update give it (an update replaces the config: GitHub drops the secret
 * unless it is given again). An empty secret means none. `seal` turns a secret into what is stored.
 */
export function validConfig(input: ConfigInput | undefined, seal: (secret: string) => string): HookConfig {
  // GitHub's defaults: form-encoded, certificates verified.
  return changedConfig({ url: "", contentType: "form", insecureSsl: "0", sealedSecret: null }, input ?? {}, seal);
}

/** The stored config with the keys given changed (`PATCH .../config`), checked as a whole one is. */
export function changedConfig(current: HookConfig, input: ConfigInput, seal: (secret: string) => string): HookConfig {
  return {
    url: validUrl(input.url ?? current.url),
    contentType: input.content_type === undefined ? current.contentType : validContentType(input.content_type),
    insecureSsl: input.insecure_ssl === undefined ? current.insecureSsl : validInsecureSsl(input.insecure_ssl),
    sealedSecret: input.secret === undefined ? current.sealedSecret : input.secret === "" ? null : seal(input.secret),
  };
}
