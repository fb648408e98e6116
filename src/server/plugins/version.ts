/**
 * Interface version selection (spec section 9). feedgate speaks 3.0.0, which GitHub clients select with
 * `Accept: application/vnd.github.v3+json` (or send `application/json`, `*\/*`, or nothing). A request that
 * names another version gets a 4xx naming the one supported, rather than a silently different answer.
 *
 * Within v3, GitHub's calendar versions (`X-GitHub-Api-Version: 2022-11-28` or `2026-03-10`) choose between the
 * shapes of the few answers 2026-03-10 changed (api/versions.ts); every answer says which it served in
 * `X-GitHub-Api-Version-Selected`, as GitHub's do.
 */
import fp from "fastify-plugin";
import {
  API_VERSIONS,
  type ApiVersion,
  DEFAULT_API_VERSION,
  SUPPORTED_MEDIA_TYPE,
  SUPPORTED_VERSION,
  servedVersion,
} from "../../api/versions.js";
import { ApiError } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The calendar version the answer takes its shape from. */
    apiVersion: ApiVersion;
  }
}

/** "A" / "A and B" / "A, B, and C", as GitHub's Rails lists its versions. */
function sentence(items: string[]): string {
  if (items.length < 3) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1)}`;
}

/** GitHub's answer to a version it does not serve: 400, naming the versions it does, newest first. */
function unsupportedApiVersion(asked: string): ApiError {
  const supported = API_VERSIONS.map((version, index) => `"${version}"${index === 0 ? " (most recent)" : ""}`);
  return new ApiError(400, "Bad Request", {
    code: "FEEDGATE_UNSUPPORTED_API_VERSION",
    errors:
      `The version you specified in the "X-GitHub-API-Version" request header, ${JSON.stringify(asked.slice(0, 100))}, is not a ` +
      `supported version. The following versions are currently supported: ${sentence(supported)}.`,
    documentationUrl: "https://docs.github.com/rest",
    statusInBody: true,
  });
}

/** The version a media range names (`application/vnd.github.v4+json` -> "v4"), or null when it names none. */
function namedVersion(mediaRange: string): string | null {
  const type = mediaRange.split(";")[0]!.trim().toLowerCase();
  const match = /^application\/vnd\.github\.(v\d+)(?:\.[a-z-]+)?(?:\+json)?$/.exec(type);
  return match ? match[1]! : null;
}

/** The calendar version to serve; throws GitHub's 400 or 415 for a version or media type feedgate does not serve. */
export function checkVersion(accept: string | undefined, versionHeader: string | undefined): ApiVersion {
  const served = servedVersion(versionHeader);
  if (served === null) throw unsupportedApiVersion(versionHeader!);
  if (!accept) return served;
  const versions = accept
    .split(",")
    .map(namedVersion)
    .filter((v): v is string => v !== null);
  // A list that also accepts v3 (or no specific version) can be served.
  if (versions.length > 0 && !versions.includes("v3") && versions.length === accept.split(",").length) {
    throw new ApiError(
      415,
      `Unsupported 'Accept' header: ${JSON.stringify(accept)}. This server supports version ` +
        `${SUPPORTED_VERSION}; send Accept: ${SUPPORTED_MEDIA_TYPE}.`,
    );
  }
  return served;
}

export default fp(
  async (app) => {
    app.decorateRequest("apiVersion", DEFAULT_API_VERSION);
    app.addHook("onRequest", (request, reply, done) => {
      const versionHeader = request.headers["x-github-api-version"] ?? request.headers["x-service-api-version"];
      request.apiVersion = checkVersion(
        request.headers.accept,
        Array.isArray(versionHeader) ? versionHeader.join(",") : versionHeader,
      );
      reply.header("X-GitHub-Api-Version-Selected", request.apiVersion);
      done();
    });
  },
  { name: "version" },
);
