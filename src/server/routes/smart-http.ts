/**
 * Git's smart HTTP protocol on the web origin, where a repository's `clone_url` points (`{web}/{owner}/{repo}.git`,
 * `.git` optional as on GitHub): `GET info/refs?service=git-upload-pack` and `POST git-upload-pack` serve `git clone`
 * and `git fetch` (services/git/upload-pack.ts). Git shows a `text/plain` body of a refusal as `remote:` lines, so
 * refusals are text here, not the API's JSON. A private repository asked for without credentials is a 401 with
 * `WWW-Authenticate: Basic realm="GitHub"`, which makes git ask its credential helper (a token as the password, any
 * user name: `x-access-token` is the usual one), and so is one that does not exist, as GitHub answers, so that an
 * anonymous caller cannot tell them apart. `git push` is refused with 403: feedgate takes writes through its API.
 * Not counted against the API's rate limit, as GitHub does not count git's requests.
 */
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { API_PREFIX } from "../plugins/api-prefix.js";
import { decodeContentEncoding } from "../plugins/content-encoding.js";
import type { RepoRow } from "../store/store.js";
import type { CodeServices } from "../services/git/code-services.js";
import { wantsVersion2 } from "../git/upload-pack-protocol.js";
import { documented } from "../openapi/route-doc.js";
import { INFO_REFS, RECEIVE_PACK, UPLOAD_PACK } from "./smart-http-openapi.js";

/** The largest request body taken: wants and haves are 50 bytes a line, so this is a million of them. */
export const UPLOAD_PACK_BODY_LIMIT = 64 * 1024 * 1024;

type RepoParams = { Params: { user: string; repo: string } };

/** GitHub's answer to git's dumb HTTP protocol, which serves files of a repository on disk feedgate has none of. */
const DUMB_HTTP = "Please upgrade your git client. feedgate serves git's smart HTTP protocol only.\n";
const PUSH_REFUSED =
  "feedgate does not take git push: write through its API (contents, git data and refs), each write a push with " +
  "its events and webhooks.\n";

const text = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type("text/plain; charset=utf-8").send(body);

/** `alice/hello.git` and `alice/hello` are one repository. */
const repositoryParams = ({ user, repo }: { user: string; repo: string }) => ({
  user,
  repo: repo.endsWith(".git") ? repo.slice(0, -4) : repo,
});

const version2 = (request: FastifyRequest) => wantsVersion2(request.headers["git-protocol"] as string | undefined);

export function smartHttpRoutes(app: FastifyInstance, services: CodeServices): void {
  const service = services.uploadPack;
  const config = { rootOnly: true, rateLimit: false, uncached: true } as const;

  /** The repository the caller reads, or null once the refusal git understands is sent. */
  async function repository(request: FastifyRequest<RepoParams>, reply: FastifyReply): Promise<RepoRow | null> {
    try {
      return await service.readable(repositoryParams(request.params), request.principal);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
      if (error.statusCode === 404 && request.principal === null) {
        reply.header("WWW-Authenticate", 'Basic realm="GitHub"');
        await text(reply, 401, "Authentication required: send a token as the password.\n");
      } else
        await text(
          reply,
          error.statusCode,
          error.statusCode === 404 ? "Repository not found.\n" : `${error.message}\n`,
        );
      return null;
    }
  }

  app.get<RepoParams & { Querystring: { service?: string } }>(
    "/:user/:repo/info/refs",
    { config, schema: documented(INFO_REFS) },
    async (request, reply) => {
      if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
      const wanted = request.query.service;
      if (wanted === "git-receive-pack") return text(reply, 403, PUSH_REFUSED);
      if (wanted !== "git-upload-pack") return text(reply, 403, DUMB_HTTP);
      const repo = await repository(request, reply);
      if (!repo) return reply;
      const body = await service.advertisement(repo, version2(request));
      return reply.type("application/x-git-upload-pack-advertisement").send(body);
    },
  );

  app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: UPLOAD_PACK_BODY_LIMIT },
      async (_request: unknown, body: Buffer) => body,
    );
    // git gzips a request body of more than a kilobyte (remote-curl.c).
    scope.addHook("preParsing", decodeContentEncoding(UPLOAD_PACK_BODY_LIMIT));
    scope.post<RepoParams>(
      "/:user/:repo/git-upload-pack",
      { config, schema: documented(UPLOAD_PACK) },
      async (request, reply) => {
        if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
        const repo = await repository(request, reply);
        if (!repo) return reply;
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        try {
          const answer = await service.answer(repo, body, version2(request));
          return reply.type("application/x-git-upload-pack-result").send(Readable.from(answer));
        } catch (error) {
          if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
          return text(reply, error.statusCode, `${error.message}\n`);
        }
      },
    );
    scope.post<RepoParams>(
      "/:user/:repo/git-receive-pack",
      { config, schema: documented(RECEIVE_PACK) },
      async (request, reply) => {
        if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
        return text(reply, 403, PUSH_REFUSED);
      },
    );
    done();
  });
}
