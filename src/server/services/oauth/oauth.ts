/** The OAuth apps' services, made together: registration, the web flow and the device flow share the apps. */
import type { Store } from "../../store/store.js";
import { AppTokenService } from "./app-tokens.js";
import { DeviceFlow } from "./device-flow.js";
import { OAuthAppService } from "./oauth-apps.js";
import { TokenRefresh } from "./token-refresh.js";
import { WebFlow } from "./web-flow.js";

export interface OAuthServices {
  apps: OAuthAppService;
  web: WebFlow;
  device: DeviceFlow;
  tokens: AppTokenService;
  refresh: TokenRefresh;
}

export function oauthServices(store: Store, clock: () => Date): OAuthServices {
  const apps = new OAuthAppService(store, clock);
  return {
    apps,
    web: new WebFlow(store, apps, clock),
    device: new DeviceFlow(store, apps, clock),
    tokens: new AppTokenService(store, apps, clock),
    refresh: new TokenRefresh(store, apps, clock),
  };
}
