/**
 * GitHub's releases and release assets (`/repos/:user/:repo/releases...`): parse -> service -> convert -> reply.
 * An upload's body is the file itself, whatever its Content-Type, so its route alone reads bodies as bytes (up to
 * ASSET_SIZE_LIMIT, refused with GitHub's 422 from its Content-Length before a byte is read); a read of an asset
 * with `Accept: application/octet-stream` answers the file (GitHub answers it or a redirect; clients take both).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireAsset, toWireRelease } from "../convert/release.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import { API_PREFIX } from "../plugins/api-prefix.js";
import { ASSET_SIZE_LIMIT, assetTooLarge, type AssetView } from "../services/releases/release-assets.js";
import type { ReleaseServices } from "../services/releases/release-services.js";
import type { ReleaseView } from "../services/releases/releases.js";
import { actionAccess } from "./issues.js";
import { tableRoute } from "./table-route.js";
import { documented } from "../openapi/route-doc.js";
import { DOWNLOAD_ASSET } from "./release-download-openapi.js";

const { releases } = endpoints;

const wire = (view: ReleaseView, baseUrl: string) => toWireRelease(view.facts, view.repo.fullName, baseUrl);
const asset = (view: AssetView, baseUrl: string) =>
  toWireAsset(view.facts, view.release.tagName, view.repo.fullName, baseUrl);

/** GitHub's media type for an asset's bytes. */
const wantsBytes = (request: FastifyRequest) => (request.headers.accept ?? "").includes("application/octet-stream");

/** A file as a download answers it: its bytes, as a type no browser renders, whatever its own type. */
const file = (reply: FastifyReply, body: Buffer) => reply.type("application/octet-stream").send(body);

/** An upload's bytes (none is an empty file: the body parser's default for a body-less write is `{}`). */
const uploaded = (request: FastifyRequest): Buffer => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));

export function releaseRoutes(untyped: FastifyInstance, services: ReleaseServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.releases;
  const assets = services.assets;

  app.route({
    ...tableRoute(releases.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireRelease(facts, page.repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(releases.create),
    handler: async (request, reply) => {
      const body = wire(await service.create(request.params, request.body, actionAccess(request)), request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(releases.getLatest),
    handler: async (request) => wire(await service.latest(request.params, request.principal), request.baseUrl),
  });

  app.route({
    ...tableRoute(releases.getByTag),
    handler: async (request) => wire(await service.byTag(request.params, request.principal), request.baseUrl),
  });

  app.route({
    ...tableRoute(releases.get),
    handler: async (request) => wire(await service.get(request.params, request.principal), request.baseUrl),
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(releases.update, { method }),
      handler: async (request) =>
        wire(await service.update(request.params, request.body ?? {}, actionAccess(request)), request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(releases.delete),
    handler: async (request, reply) => {
      await service.delete(request.params, actionAccess(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(releases.listAssets),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await assets.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireAsset(facts, page.release.tagName, page.repo.fullName, request.baseUrl));
    },
  });

  untyped.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: ASSET_SIZE_LIMIT },
      async (_request: unknown, body: Buffer) => body,
    );
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...tableRoute(releases.uploadAsset),
      // Before the body is read: a file over the limit is refused as GitHub refuses one, not received first.
      onRequest: async (request) => {
        if (Number(request.headers["content-length"] ?? 0) > ASSET_SIZE_LIMIT) throw assetTooLarge();
      },
      handler: async (request, reply) => {
        const upload = { body: uploaded(request), contentType: request.headers["content-type"] };
        const view = await assets.upload(request.params, request.query, upload, actionAccess(request));
        return reply.code(201).send(asset(view, request.baseUrl));
      },
    });
    done();
  });

  app.route({
    ...tableRoute(releases.getAsset),
    handler: async (request, reply) => {
      if (!wantsBytes(request)) return asset(await assets.get(request.params, request.principal), request.baseUrl);
      const { body } = await assets.download(request.params, request.principal);
      return file(reply, body);
    },
  });

  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(releases.updateAsset, { method }),
      handler: async (request) =>
        asset(await assets.update(request.params, request.body ?? {}, actionAccess(request)), request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(releases.deleteAsset),
    handler: async (request, reply) => {
      await assets.delete(request.params, actionAccess(request));
      return reply.code(204).send();
    },
  });

  // An asset's `browser_download_url`: GitHub's web path, `/{owner}/{repo}/releases/download/{tag}/{name}`, with
  // the caller's credentials. Not API: served at the root only, as the web origin's pages are.
  untyped.get<{ Params: { user: string; repo: string; tag: string; name: string } }>(
    "/:user/:repo/releases/download/:tag/:name",
    { config: { rootOnly: true }, schema: documented(DOWNLOAD_ASSET) },
    async (request, reply) => {
      if (request.originalUrl.startsWith(API_PREFIX)) return reply.callNotFound();
      const { body } = await assets.downloadByName(request.params, request.principal);
      return file(reply, body);
    },
  );
}
