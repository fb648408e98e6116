/**
 * The test double's OAuth apps: register one, and give the consent a browser would (the web flow's "Authorize" and
 * the device page's), through the same rules as the console's pages, without a browser.
 */
import { oauthServices } from "../server/services/oauth/oauth.js";
import type { AuthorizeQuery } from "../server/services/oauth/web-flow.js";
import type { Store } from "../server/store/store.js";

export interface OAuthAppOptions {
  callbackUrl: string;
  /** On for `approveDevice()` and `@octokit/auth-oauth-device`; off by default, as on GitHub. */
  deviceFlow?: boolean;
  name?: string;
  /** The owner's login (an existing account). */
  owner?: string;
}

export interface TestOAuthApp {
  clientId: string;
  clientSecret: string;
  name: string;
  callbackUrl: string;
}

export interface OAuthHelpers {
  /** Registers an OAuth app; its client secret is shown this once. */
  oauthApp(options: OAuthAppOptions): Promise<TestOAuthApp>;
  /**
   * `login` answers "Authorize" to the authorize URL an app made (`https://HOST/login/oauth/authorize?...`): the URL it
   * redirects to, with `code` and `state`, or with GitHub's error when the request is refused.
   */
  authorize(url: string, login: string): Promise<string>;
  /** `login` enters the user code and authorizes the device, as on `/login/device`. */
  approveDevice(userCode: string, login: string): Promise<void>;
}

export function oauthHelpers(store: Store, now: () => Date): OAuthHelpers {
  const oauth = oauthServices(store, now);
  const userOf = async (login: string) => {
    const user = await store.users.findByLogin(login);
    if (!user) throw new RangeError(`no user "${login}": add it to the world, or call token() once`);
    return user;
  };
  return {
    async oauthApp({ callbackUrl, deviceFlow, name = "feedgate/testing OAuth app", owner }) {
      const { app, clientSecret } = await oauth.apps.register({ name, owner, callbackUrl, deviceFlow });
      return { clientId: app.clientId, clientSecret, name: app.name, callbackUrl: app.callbackUrl };
    },
    async authorize(url, login) {
      const user = await userOf(login);
      const query = Object.fromEntries(new URL(url).searchParams) as AuthorizeQuery;
      const outcome = await oauth.web.check(query);
      if ("notFound" in outcome) throw new RangeError(`authorize: no OAuth app "${query.client_id ?? ""}"`);
      if ("redirect" in outcome) return outcome.redirect;
      return oauth.web.decide(outcome.consent, user.id, true);
    },
    async approveDevice(userCode, login) {
      const user = await userOf(login);
      if (!(await oauth.device.decide(userCode, user.id, true)))
        throw new RangeError(`approveDevice: no pending device code "${userCode}"`);
    },
  };
}
