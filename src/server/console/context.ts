/** What console routes share: their services, the session of the request, and the page context built from it. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authenticator } from "../services/authenticator.js";
import type { AuthorizationService } from "../services/authorizations.js";
import type { FeedService } from "../services/feeds.js";
import type { FineGrainedTokenService } from "../services/fine-grained-tokens.js";
import type { HookService } from "../services/hooks.js";
import type { IssueService } from "../services/actions/issues.js";
import type { SessionService, SignedIn } from "../services/sessions.js";
import type { AppInstaller } from "../services/apps/app-installer.js";
import type { ManifestFlow } from "../services/apps/manifest-flow.js";
import type { DeveloperSettings } from "../services/apps/developer-settings.js";
import type { OAuthServices } from "../services/oauth/oauth.js";
import type { StreamHub } from "../streams/hub.js";
import type { AuthorizationStore, UserStore } from "../store/store.js";
import type { ConsoleAssets } from "./assets.js";
import type { PageContext } from "./layout.js";

export interface ConsoleServices {
  sessions: SessionService;
  authenticator: Authenticator;
  authorizations: AuthorizationService;
  /** The fine-grained tokens' pages go through the API's service, as the classic ones do. */
  fineGrainedTokens: FineGrainedTokenService;
  assets: ConsoleAssets;
  users: UserStore;
  feeds: FeedService;
  streams: StreamHub;
  /** The app's clock: "3 minutes ago" is measured by the clock events are stored by. */
  now: () => Date;
  /** The API's own hook rules: the Webhooks page manages exactly what the hooks API would let the user manage. */
  hooks: HookService;
  /** The API's issue rules: the Issues page lists what `GET /repos/:o/:r/issues` would. */
  issues: IssueService;
  /** Token counts for the Users page. */
  tokenCounts: Pick<AuthorizationStore, "countByUser">;
  /** The OAuth apps' consent and device pages go through the flows' own rules. */
  oauth: OAuthServices;
  /** GitHub Apps' install page. */
  appInstaller: AppInstaller;
  /** The manifest flow's confirmation page. */
  manifests: ManifestFlow;
  /** Developer settings: the person's apps, and registering new ones. */
  developerSettings: DeveloperSettings;
}

/** Who may use a console route: anyone, a two-factor account between its steps, or a signed-in user. */
export type ConsoleAccess = "anyone" | "pending" | "signed-in";

export interface ConsoleSession extends SignedIn {
  /** The cookie's value: never logged, never stored. */
  id: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    consoleAccess?: ConsoleAccess;
    /** A signed-out visitor is sent to the sign-in with the page's URL, and back to it once signed in. */
    returnAfterSignIn?: boolean;
  }
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
  }
}

/** The sign-in's field (and query) naming the console page to go back to. */
export const RETURN_TO = "return_to";

/** A page to go back to after the sign-in: a console path only, never another site (`//evil` or `/\\evil`). */
export const returnPath = (value: string | null | undefined) =>
  value && /^\/console\/[^/\\]/.test(value) ? value : "/console/";

/** Console forms arrive as application/x-www-form-urlencoded. */
export type FormRequest = FastifyRequest<{ Body: URLSearchParams }>;

export function pageContext(request: FastifyRequest, assets: ConsoleAssets, services: ConsoleServices): PageContext {
  const session = request.consoleSession;
  return {
    assets,
    user: session?.session.verified ? session.user : null,
    csrf: session ? services.sessions.csrfToken(session.id) : "",
  };
}

/** The signed-in session of a route that requires one (the guard has checked it). */
export function signedIn(request: FastifyRequest): ConsoleSession {
  const session = request.consoleSession;
  if (!session) throw new Error("console route without its session guard");
  return session;
}

export const sendPage = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type("text/html; charset=utf-8").send(body);

/** `?page=N` of a console list: a positive number, else the first page. */
export const pageOf = (query: { page?: string }) =>
  query.page && /^[1-9][0-9]{0,5}$/.test(query.page) ? Number(query.page) : 1;
