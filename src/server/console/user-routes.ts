/**
 * The Users page's route: site administrators only. Anyone else gets the console's not-found page, as the API
 * answers 404 for what a caller may not see; the navigation links it for administrators only (layout.ts).
 */
import type { FastifyInstance } from "fastify";
import { notFound } from "../errors.js";
import { pageContext, sendPage, signedIn, type ConsoleServices } from "./context.js";
import { usersPage } from "./users-page.js";

export function userRoutes(app: FastifyInstance, services: ConsoleServices) {
  app.get("/users", { config: { consoleAccess: "signed-in" } }, async (request, reply) => {
    if (!signedIn(request).user.siteAdmin) throw notFound();
    const [users, counts] = await Promise.all([services.users.list(), services.tokenCounts.countByUser()]);
    return sendPage(reply, 200, usersPage(pageContext(request, services.assets, services), users, counts));
  });
}
