/** The OpenAPI description of a release asset's web download path (./releases.ts registers it). */
import type { RouteDoc } from "../openapi/route-doc.js";

export const DOWNLOAD_ASSET: RouteDoc = {
  operationId: "releases.download-asset-by-name",
  tag: "releases",
  summary: "Download a release asset by its tag and name",
  security: "optional",
  description:
    "An asset's `browser_download_url`: GitHub's web path `/{user}/{repo}/releases/download/{tag}/{name}`, served at " +
    "the root only (not under /api/v3), answering the file's bytes and counting the download. A draft's assets only " +
    "to those who push to the repository.",
  success: {
    200: {
      description: "The asset's bytes",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    },
  },
};
