/**
 * A repository's contents (`/repos/:user/:repo/contents/...`, `/readme`): parse -> service -> convert -> reply.
 * GitHub's media types choose the form of a read (`application/vnd.github.raw`: a file's bytes; `.html`: the file
 * rendered; `.object`: a directory as an object with its `entries`; `.v3.` and `+json` spellings too); writes are
 * commits pushed through the action log (services/git/contents.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireContents, toWireFileCommit } from "../convert/git.js";
import type { CodeServices } from "../services/git/code-services.js";
import type { ContentView, FileCommitView } from "../services/git/contents.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";
import { ApiError, notFound } from "../errors.js";
import { renderedFile } from "../convert/rendered-file.js";
import { negotiate, notAcceptable, sendAs } from "./media-negotiation.js";
import { API_PREFIX } from "../plugins/api-prefix.js";

const { contents } = endpoints;

/** The media type parameters the contents routes serve (GitHub's contents documentation). */
const CONTENT_FORMS = ["raw", "html", "object"] as const;

/**
 * A view as the request asks: a file's bytes for the raw media type (not the route's JSON, so sent as a Buffer, which
 * Fastify sends unserialized), a file rendered for the HTML one (406 for a binary file, which has no HTML form), a
 * directory as an object for the object one; else the JSON answer. A directory or a submodule has no raw or HTML
 * form: GitHub answers them as JSON whatever the parameter.
 */
function answer(request: FastifyRequest, reply: FastifyReply, view: ContentView, shell: "file" | "readme" = "file") {
  const { content } = view;
  const form = negotiate(request, CONTENT_FORMS);
  if ((content.kind === "file" || content.kind === "symlink") && form === "raw")
    return sendAs(reply, "raw", content.body);
  if ((content.kind === "file" || content.kind === "symlink") && form === "html") {
    const html = renderedFile(content.path, content.body, shell);
    if (html === null) throw notAcceptable("html");
    return sendAs(reply, "html", html);
  }
  const body = toWireContents(
    content,
    view.ref.name,
    view.repo.fullName,
    request.baseUrl,
    form === "object" ? "object" : "json",
  );
  return reply.send(body);
}

const fileCommit = (view: FileCommitView, baseUrl: string) =>
  toWireFileCommit(view.file, view.branch, view.commit, view.repo.fullName, baseUrl);

/** 201 for a file a write made, 200 for one it replaced, as GitHub answers. */
const written = (reply: FastifyReply, view: FileCommitView, baseUrl: string) =>
  reply.code(view.created ? 201 : 200).send(fileCommit(view, baseUrl));

/**
 * A ref and a path from what follows `/raw/` in a download URL (`main/docs/a.md`, `feature/x/docs/a.md`): a ref's
 * name may hold slashes, so each split is tried, the longest ref first, as GitHub resolves them.
 */
function rawSplits(rest: string): { ref: string; path: string }[] {
  const segments = rest.split("/");
  return segments.slice(1).map((_, i) => ({
    ref: segments.slice(0, segments.length - 1 - i).join("/"),
    path: segments.slice(segments.length - 1 - i).join("/"),
  }));
}

export function contentRoutes(untyped: FastifyInstance, services: CodeServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.contents;

  // A file's `download_url`: GitHub Enterprise's raw path on the web origin, `/{owner}/{repo}/raw/{ref}/{path}`,
  // answering the bytes as text/plain (raw.githubusercontent.com's type), with the caller's credentials. Not API.
  untyped.get<{ Params: { user: string; repo: string; "*": string } }>(
    "/:user/:repo/raw/*",
    { config: { rootOnly: true }, schema: { hide: true } },
    async (request, reply) => {
      if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
      const { user, repo } = request.params;
      for (const { ref, path } of rawSplits(request.params["*"])) {
        const view = await service
          .get({ user, repo, "*": path }, ref, request.principal)
          .catch((error: unknown) =>
            error instanceof ApiError && error.code === "FEEDGATE_NOT_FOUND" ? null : Promise.reject(error),
          );
        if (view && (view.content.kind === "file" || view.content.kind === "symlink"))
          return reply.type("text/plain; charset=utf-8").send(view.content.body);
      }
      throw notFound();
    },
  );

  app.route({
    ...tableRoute(contents.get),
    handler: async (request, reply) =>
      answer(request, reply, await service.get(request.params, request.query.ref, request.principal)),
  });

  app.route({
    ...tableRoute(contents.getRoot),
    handler: async (request, reply) =>
      answer(request, reply, await service.get({ ...request.params, "*": "" }, request.query.ref, request.principal)),
  });

  app.route({
    ...tableRoute(contents.getReadme),
    handler: async (request, reply) =>
      answer(request, reply, await service.readme(request.params, request.query.ref, request.principal), "readme"),
  });

  app.route({
    ...tableRoute(contents.getReadmeInDirectory),
    handler: async (request, reply) => {
      const { "*": dir, ...params } = request.params;
      const view = await service.readme(params, request.query.ref, request.principal, dir);
      return answer(request, reply, view, "readme");
    },
  });

  app.route({
    ...tableRoute(contents.createOrUpdateFile),
    handler: async (request, reply) => {
      return written(reply, await service.put(request.params, request.body, access(request)), request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(contents.deleteFile),
    handler: async (request) =>
      fileCommit(await service.delete(request.params, request.body, access(request)), request.baseUrl),
  });
}
