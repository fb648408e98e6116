/**
 * Interface version selection (spec section 9). feedgate speaks 3.0.0, which GitHub clients select with
 * `Accept: application/vnd.github.v3+json` (or send `application/json`, `*\/*`, or nothing). A request that
 * names another version gets a 4xx naming the one supported, rather than a silently different answer.
 */
import fp from "fastify-plugin";
import { ACCEPTED_VERSION_HEADERS, SUPPORTED_MEDIA_TYPE, SUPPORTED_VERSION } from "../../api/versions.js";
import { ApiError } from "../errors.js";


/** The version a media range names (`application/vnd.github.v4+json` -> "v4"), or null when it names none. */
function namedVersion(mediaRange: string): string | null {
  const type = mediaRange.split(";")[0]!.trim().toLowerCase();
  const match = /^application\/vnd\.github\.(v\d+)(?:\.[a-z-]+)?(?:\+json)?$/.exec(type);
  return match ? match[1]! : null;
}

export function checkVersion(accept: string | undefined, versionHeader: string | undefined): void {
  if (versionHeader !== undefined && !ACCEPTED_VERSION_HEADERS.has(versionHeader.trim())) {
    throw new ApiError(400, `API version ${versionHeader} is not supported. This server supports version ${SUPPORTED_VERSION} ` +
      `(Accept: ${SUPPORTED_MEDIA_TYPE}).`);
  }
  if (!accept) return;
  const versions = accept.split(",").map(namedVersion).filter((v): v is string => v !== null);
  // A list that also accepts v3 (or no specific version) can be served.
  if (versions.length > 0 && !versions.includes("v3") && versions.length === accept.split(",").length) {
    throw new ApiError(415, `Unsupported 'Accept' header: ${JSON.stringify(accept)}. This server supports version ` +
      `${SUPPORTED_VERSION}; send Accept: ${SUPPORTED_MEDIA_TYPE}.`);
  }
}

export default fp(async (app) => {
  app.addHook("onRequest", async (request) => {
    const versionHeader = request.headers["x-github-api-version"] ?? request.headers["x-service-api-version"];
    checkVersion(request.headers.accept, Array.isArray(versionHeader) ? versionHeader.join(",") : versionHeader);
  });
}, { name: "version" });
