/**
 * The integration under test: a small bot that watches a repository. It polls the repository's events with
 * Octokit as GitHub asks pollers to (ETag, so an unchanged feed costs nothing), and it answers webhooks: every
 * delivery's signature is checked with @octokit/webhooks, and a star is thanked by an issue comment-like note.
 * Nothing in it knows about feedgate: tests hand it an Octokit whose base URL (or fetch) points at the double.
 */
import { Webhooks } from "@octokit/webhooks";

export class RepoBot {
  #octokit;
  #webhooks;
  #etag = undefined;
  #seen = new Set();
  /** What the bot has noticed, newest last: "push by octocat", "starred by hubot", ... */
  notes = [];

  /** @param {{ octokit: import("octokit-rest-latest").Octokit, owner: string, repo: string, secret: string }} options */
  constructor({ octokit, owner, repo, secret }) {
    this.#octokit = octokit;
    this.owner = owner;
    this.repo = repo;
    this.#webhooks = new Webhooks({ secret });
    this.#webhooks.on("watch.started", ({ payload }) => this.notes.push(`starred by ${payload.sender.login}`));
    this.#webhooks.on("ping", () => this.notes.push("pinged"));
  }

  /** One poll: the events not seen before, oldest first; none (and no rate limit spent) when the feed has not changed. */
  async poll() {
    try {
      const response = await this.#octokit.rest.activity.listRepoEvents({
        owner: this.owner,
        repo: this.repo,
        headers: this.#etag ? { "if-none-match": this.#etag } : {},
      });
      this.#etag = response.headers.etag;
      const fresh = response.data.filter((event) => !this.#seen.has(event.id)).reverse();
      for (const event of fresh) {
        this.#seen.add(event.id);
        this.notes.push(`${event.type.replace(/Event$/, "").toLowerCase()} by ${event.actor.login}`);
      }
      return fresh;
    } catch (error) {
      if (error.status === 304) return [];
      // GitHub unavailable, or a secondary rate limit: say so, and let the next poll try again.
      if (error.status >= 500 || (error.status === 403 && error.response?.headers["retry-after"])) {
        this.notes.push(`GitHub said ${error.status}; retrying later`);
        return [];
      }
      throw error;
    }
  }

  /** A webhook delivery as an HTTP server receives it: false (and nothing done) when its signature is wrong. */
  async receive({ headers, body }) {
    try {
      await this.#webhooks.verifyAndReceive({
        id: headers["x-github-delivery"],
        name: headers["x-github-event"],
        payload: body,
        signature: headers["x-hub-signature-256"],
      });
      return true;
    } catch {
      return false;
    }
  }
}
