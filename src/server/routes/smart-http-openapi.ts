/** The OpenAPI description of git's smart HTTP routes (./smart-http.ts registers them). */
import type { RouteDoc } from "../openapi/route-doc.js";

const binary = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: "string" as const, format: "binary" } } },
});

const WHO =
  "With the caller's credentials as git sends them (Basic, a token as the password): a private repository without " +
  'them is 401 with `WWW-Authenticate: Basic realm="GitHub"`, as is one that does not exist. Served at the root only ' +
  "(not under /api/v3), `{repo}` with or without `.git`.";

export const INFO_REFS: RouteDoc = {
  operationId: "git.upload-pack-advertisement",
  tag: "git",
  summary: "Advertise a repository's refs to git clone and fetch",
  security: "optional",
  description:
    "Git's smart HTTP discovery: `?service=git-upload-pack` answers protocol v2's capabilities when the request " +
    "says `Git-Protocol: version=2`, else protocol v0's refs. `?service=git-receive-pack` (git push) is 403: " +
    `feedgate takes writes through its API. ${WHO}`,
  success: { 200: binary("application/x-git-upload-pack-advertisement", "pkt-lines, as git reads them") },
};

export const UPLOAD_PACK: RouteDoc = {
  operationId: "git.upload-pack",
  tag: "git",
  summary: "Answer git clone and fetch",
  security: "optional",
  description:
    "Git's `upload-pack` over HTTP: protocol v2's `ls-refs` and `fetch`, or a v0 negotiation, answered with " +
    `acknowledgments and a pack of whole objects on side-band channel 1. A gzipped body is taken. ${WHO}`,
  body: binary("application/x-git-upload-pack-request", "pkt-lines, as git sends them"),
  success: { 200: binary("application/x-git-upload-pack-result", "pkt-lines, and the pack") },
};

export const RECEIVE_PACK: RouteDoc = {
  operationId: "git.receive-pack",
  tag: "git",
  summary: "Refuse git push",
  security: "optional",
  description: "Always 403, with a message git shows: feedgate takes writes through its API, each a push.",
  success: {},
};
