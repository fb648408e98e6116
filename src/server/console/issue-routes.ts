/**
 * The Issues page of a repository (`/console/repos/:owner/:repo/issues`): its open issues through the API's own
 * service, with the signed-in user as principal, so the page shows exactly what `GET /repos/:o/:r/issues` would
 * (a repository the user cannot see is the console's 404).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sessionPrincipal } from "./activity-feed.js";
import { pageContext, sendPage, signedIn, type ConsoleServices } from "./context.js";
import { issuesPage } from "./issues-page.js";

/** As many as the API's longest page. */
const SHOWN = 100;

type Request = FastifyRequest<{ Params: { owner: string; repo: string } }>;

export const issuesPath = (owner: string, repo: string) =>
  `/console/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`;

export function issueRoutes(app: FastifyInstance, services: ConsoleServices) {
  app.get(
    "/repos/:owner/:repo/issues",
    { config: { consoleAccess: "signed-in" as const } },
    async (request: Request, reply: FastifyReply) => {
      const { owner, repo } = request.params;
      const principal = sessionPrincipal(signedIn(request).user);
      const page = await services.issues.list({ user: owner, repo }, {}, principal, { limit: SHOWN, offset: 0 });
      const repoPath = `/console/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
      return sendPage(
        reply,
        200,
        issuesPage(pageContext(request, services.assets, services), {
          fullName: `${owner}/${repo}`,
          repoPath,
          issues: page.rows,
          total: page.total,
        }),
      );
    },
  );
}
