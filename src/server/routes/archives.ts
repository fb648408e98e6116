/**
 * A repository's tarball and zipball. The API routes answer GitHub's 302; its target is feedgate's own
 * `/_codeload/{owner}/{repo}/legacy.tar.gz/{ref}` (and `legacy.zip`), the path GitHub Enterprise serves codeload at,
 * on the web origin, which streams the archive. A redirect, not the archive itself, because that is what every client
 * takes: PyGithub's `get_archive_link` reads the `Location` of the answer and follows nothing, while Octokit
 * (`downloadTarballArchive`), gh (`release download --archive`) and `curl -L` follow it. On the same origin they send
 * their credentials again (fetch and Go drop them only on another host), which is how the archive of a private
 * repository is read: GitHub puts a token valid five minutes in its link instead, which feedgate does not make.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { webOrigin } from "../convert/urls.js";
import { API_PREFIX } from "../plugins/api-prefix.js";
import { ARCHIVE_FORMATS, type ArchiveFormat } from "../services/git/archives.js";
import type { CodeServices } from "../services/git/code-services.js";
import type { FeedParams } from "../services/feeds.js";
import { tableRoute } from "./table-route.js";

const { archives } = endpoints;

/** The archive's path on the web origin: a ref's slashes stay slashes, everything else in it is escaped. */
export function codeloadUrl(baseUrl: string, fullName: string, format: ArchiveFormat, ref: string): string {
  const escaped = ref.split("/").map(encodeURIComponent).join("/");
  return `${webOrigin(baseUrl)}/_codeload/${fullName}/${ARCHIVE_FORMATS[format].path}/${escaped}`;
}

export function archiveRoutes(untyped: FastifyInstance, services: CodeServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.archives;

  const redirect = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: FeedParams,
    format: ArchiveFormat,
    ref: string | undefined,
  ) => {
    const link = await service.link(params, ref, request.principal);
    return reply
      .code(302)
      .header("Location", codeloadUrl(request.baseUrl, link.fullName, format, link.ref))
      .send();
  };

  app.route({
    ...tableRoute(archives.tarball),
    handler: (request, reply) => redirect(request, reply, request.params, "tarball", request.params["*"]),
  });
  app.route({
    ...tableRoute(archives.tarballOfDefaultBranch),
    handler: (request, reply) => redirect(request, reply, request.params, "tarball", undefined),
  });
  app.route({
    ...tableRoute(archives.zipball),
    handler: (request, reply) => redirect(request, reply, request.params, "zipball", request.params["*"]),
  });
  app.route({
    ...tableRoute(archives.zipballOfDefaultBranch),
    handler: (request, reply) => redirect(request, reply, request.params, "zipball", undefined),
  });

  // The archive itself, with the caller's credentials. Not API: served at the root only, as codeload is not.
  for (const format of ["tarball", "zipball"] as const) {
    untyped.get<{ Params: { user: string; repo: string; "*": string } }>(
      `/_codeload/:user/:repo/${ARCHIVE_FORMATS[format].path}/*`,
      { config: { rootOnly: true }, schema: { hide: true } },
      async (request, reply) => {
        if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
        const { user, repo } = request.params;
        const archive = await service.archive({ user, repo }, format, request.params["*"], request.principal);
        return reply
          .type(archive.contentType)
          .header("Content-Disposition", `attachment; filename=${archive.fileName}`)
          .send(archive.body);
      },
    );
  }
}
