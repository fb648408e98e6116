/**
 * What a release's actions make, from the release as the action's transaction left it: the ReleaseEvent of the
 * Events API, which GitHub makes only when a release is published (`{action: "published", release}`, as GH Archive
 * records it), and the `release` webhooks, which GitHub sends as the docs list them: `created` for a release saved
 * (a draft or not), `published` when it is published, then `released` for a full release or `prereleased` for a
 * pre-release; `released` again when a published pre-release becomes a full one; `unpublished` when it goes back to
 * draft; `edited` with `changes`; `deleted`.
 */
import { toWireRelease } from "../../convert/release.js";
import type { ReleaseRow } from "../../store/store.js";
import type { Making } from "../actions/acting.js";
import { releaseFacts } from "./release-facts.js";

/** The release as the action's webhooks and event carry it, read in its transaction. */
export async function releaseAbout(making: Making, release: ReleaseRow): Promise<Record<string, unknown>> {
  const [facts] = await releaseFacts(making.tx, [release]);
  return toWireRelease(facts!, making.scene.repo.fullName, making.scene.baseUrl) as unknown as Record<string, unknown>;
}

/** A `release` webhook: `{action, release, ...extra}`. */
export function releaseWebhook(
  making: Making,
  action: string,
  release: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  making.webhook("release", action, { ...extra, release });
}

/** What publishing a release makes: the ReleaseEvent, `published`, and `released` or `prereleased`. */
export async function releasePublished(making: Making, release: ReleaseRow, wire: Record<string, unknown>) {
  await making.event("ReleaseEvent", { action: "published", release: wire });
  releaseWebhook(making, "published", wire);
  releaseWebhook(making, release.prerelease ? "prereleased" : "released", wire);
}
