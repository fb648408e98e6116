/**
 * GitHub's `mentioned` and `subscribed` issue events (https://docs.github.com/rest/using-the-rest-api/issue-event-types):
 * each `@login` of a user in an issue's body as it is opened, or in a comment as it is made, subscribes that user to
 * the issue, and the issue's events list and timeline show it as a pair at the same second, `mentioned` then
 * `subscribed`, both with the mentioned user as the `actor` (as the issue events octokit.rb and PyGithub recorded
 * from api.github.com have them). Nobody is told of their own mention, and a private repository's issue mentions only
 * those who may read it. GitHub sends no webhook and no Events API event for them.
 */
import type { Making, IssueAbout } from "./acting.js";

/**
 * `@login` as GitHub links it: a login (letters, digits, single inner hyphens, at most 39) not inside a word, an
 * e-mail address or a path.
 */
const MENTION = /(?<![A-Za-z0-9_`./@-])@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})(?![A-Za-z0-9_/-])/g;

/** The logins a text mentions, each once (logins compare case-insensitively), in the order they first appear. */
export function mentionedLogins(text: string | null): string[] {
  const logins = new Map<string, string>();
  for (const [, login] of (text ?? "").matchAll(MENTION))
    if (!logins.has(login!.toLowerCase())) logins.set(login!.toLowerCase(), login!);
  return [...logins.values()];
}

/** The `mentioned` and `subscribed` issue events of what `text` mentions, made in the action's transaction. */
export async function mentionsMade(making: Making, issue: IssueAbout, text: string | null): Promise<void> {
  const { tx, scene } = making;
  for (const login of mentionedLogins(text)) {
    const user = await tx.users.findByLogin(login);
    if (user?.type !== "User" || user.id === scene.actor.id) continue;
    if (scene.repo.private && !(await tx.directory.canRead(user.id, scene.repo.id))) continue;
    await making.issueEvent(issue, "mentioned", {}, user);
    await making.issueEvent(issue, "subscribed", {}, user);
  }
}
