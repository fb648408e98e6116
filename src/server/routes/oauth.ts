/**
 * The OAuth apps' endpoints on the host root (`HOST/login/...`, as GitHub Enterprise serves them, never under
 * `/api/v3`): the authorize and device pages, which the console serves (it has the sign-in and the sessions), and the
 * endpoints clients post to. Those take a form or a JSON body (gh sends a form, Octokit JSON), read the query too, and
 * answer by `Accept` (../convert/oauth-answer.ts), their refusals with HTTP 200 as GitHub's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { oauthAnswer, type OAuthFields } from "../convert/oauth-answer.js";
import { parseJsonBody, decodeBody } from "../plugins/body-parser.js";
import { DEVICE_GRANT_TYPE } from "../services/oauth/device-flow.js";
import { OAuthError } from "../services/oauth/oauth-error.js";
import type { OAuthServices } from "../services/oauth/oauth.js";
import { HOST_ROOT_BODY_LIMIT, hostRootRoutes } from "./host-root.js";

/** Mounted here, root only (app.ts keeps it out of the `/api/v3` layout). */
export const OAUTH_PREFIX = "/login";
/** Where the console serves the pages a person sees. */
export const CONSOLE_AUTHORIZE = "/console/login/oauth/authorize";
export const CONSOLE_DEVICE = "/console/login/device";

type Fields = Record<string, string>;

/** Only string fields count: `{"code": ["x"]}` is no code. */
const stringFields = (value: unknown): Fields =>
  Object.fromEntries(
    Object.entries((value ?? {}) as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );

/** The query's fields, then the body's over them. */
const fieldsOf = (request: FastifyRequest): Fields => ({
  ...stringFields(request.query),
  ...stringFields(request.body),
});

function send(request: FastifyRequest, reply: FastifyReply, fields: OAuthFields, status = 200) {
  const { type, body } = oauthAnswer(request.headers.accept, fields);
  return reply.code(status).type(type).send(body);
}

/**
 * Runs `work` and answers its fields, or its OAuthError's with `refusedStatus`: 200 on the token endpoint (Octokit
 * and gh read `error` from a 200), 400 on the device-code one, which gh reads as "no device flow here".
 */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<OAuthFields>,
  refusedStatus = 200,
) {
  try {
    return send(request, reply, await work());
  } catch (error) {
    if (error instanceof OAuthError) return send(request, reply, error.fields(), refusedStatus);
    throw error;
  }
}

const queryOf = (url: string) => url.slice(url.indexOf("?") + 1 || url.length);

export function oauthRoutes({ web, device, refresh }: OAuthServices) {
  return async (app: FastifyInstance) => {
    hostRootRoutes(app);
    // Octokit posts JSON.
    app.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: HOST_ROOT_BODY_LIMIT },
      async (_request: FastifyRequest, body: Buffer) => parseJsonBody(decodeBody(body)),
    );

    // The person's pages are the console's; the query goes along as it came.
    app.get("/oauth/authorize", async (request, reply) =>
      reply.redirect(`${CONSOLE_AUTHORIZE}?${queryOf(request.url)}`, 302),
    );
    app.get("/device", async (_request, reply) => reply.redirect(CONSOLE_DEVICE, 302));

    app.post("/device/code", async (request, reply) =>
      answer(
        request,
        reply,
        async () => {
          const fields = fieldsOf(request);
          return { ...(await device.start(fields.client_id, fields.scope, `${request.baseUrl}/login/device`)) };
        },
        400,
      ),
    );

    app.post("/oauth/access_token", async (request, reply) =>
      answer(request, reply, async () => {
        const fields = fieldsOf(request);
        if (fields.grant_type === DEVICE_GRANT_TYPE) return { ...(await device.poll(fields)) };
        if (fields.grant_type === "refresh_token") return { ...(await refresh.refresh(fields)) };
        if (fields.grant_type !== undefined && fields.grant_type !== "authorization_code")
          throw new OAuthError("unsupported_grant_type");
        return { ...(await web.exchange(fields)) };
      }),
    );
  };
}
