/**
 * The world the client and client-CLI tests read through HTTP: users (one with two-factor auth, one with a
 * non-ASCII password), an organization, public and private repositories, a fork, tokens, 46 events on one
 * repository (enough for five pages of ten) and a few elsewhere, and repository issue events.
 */
import { event, issueEvent, minutesAfter } from "./events.js";

export const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";
export const ALICE = { login: "alice", password: "alice-password" };
/** Two-factor user. */
export const OLGA = { login: "olga", password: "olga-password" };
/** Passwords are UTF-8 on the wire (RFC 7617): this one proves the client encodes them so. */
export const UNICODE = { login: "zoe", password: "pässwörd-✓" };
/** alice's token with `repo` and `user`: she sees her private events with it. */
export const ALICE_TOKEN = "a11ce00000000000000000000000000000000001";
/** alice's token with no scopes: public events only. */
export const ALICE_PUBLIC_TOKEN = "a11ce00000000000000000000000000000000002";
export const BOB_TOKEN = "b0b0000000000000000000000000000000000001";

/** This world's time `n` minutes into it, in GitHub's format. */
export const minute = (n: number) => minutesAfter("2026-01-14T00:00:00Z", n);

/** The push events on alice/hello: ids 1001..1045, one a minute, 1045 newest. */
export const HELLO_PUSHES = Array.from({ length: 45 }, (_, i) =>
  event(1001 + i, "PushEvent", "alice", "alice/hello", { created_at: minute(i) }),
);
export const FORK = event("2001", "ForkEvent", "bob", "alice/hello", {
  created_at: minute(50),
  payload: { forkee: { full_name: "bob/hello" } },
});
export const PRIVATE = event("3001", "PushEvent", "alice", "alice/secret", { created_at: minute(51), public: false });
export const ORG_EVENT = event("4001", "PushEvent", "olga", "acme/site", {
  created_at: minute(52),
  org: { login: "acme" },
});
export const BOB_EVENT = event("5001", "CreateEvent", "bob", "bob/tools", { created_at: minute(53) });

/** Every id of alice/hello's feed, newest first: the fork, then the pushes. */
export const HELLO_IDS = ["2001", ...HELLO_PUSHES.map((e) => e.id).reverse()];

const referenced = (id: string, number: number, at: number) =>
  issueEvent("alice/hello", id, "referenced", "alice", {
    created_at: minute(at),
    issue: { title: `Issue ${number}`, number, state: "closed" },
  });

export const WORLD = {
  users: [
    { ...ALICE, following: ["bob"], watching: ["bob/tools"] },
    { login: "bob", password: "bob-password" },
    { ...OLGA, otp_secret: OTP_SECRET },
    UNICODE,
  ],
  // alice owns acme (GitHub's admin role: she manages its hooks); olga is a plain member.
  orgs: [{ login: "acme", members: ["olga"], owners: ["alice"] }],
  repos: [
    { full_name: "alice/hello" },
    { full_name: "alice/secret", private: true },
    { full_name: "bob/tools" },
    { full_name: "acme/site" },
  ],
  tokens: [
    { user: "alice", token: ALICE_TOKEN, scopes: ["repo", "user"], note: "alice full" },
    { user: "alice", token: ALICE_PUBLIC_TOKEN, scopes: [], note: "alice public" },
    { user: "bob", token: BOB_TOKEN, scopes: ["repo"], note: "bob" },
  ],
  events: [...HELLO_PUSHES, FORK, PRIVATE, ORG_EVENT, BOB_EVENT],
  issue_events: [referenced("11", 1, 10), referenced("12", 2, 20), referenced("13", 3, 30)],
};
