/** The sign-in pages: username and password, then, for two-factor accounts, the authentication code. */
import { html } from "./html.js";
import { csrfField, page, type PageContext } from "./layout.js";

/** The page to go back to once signed in, when it is not the console's front page. */
const returnField = (returnTo: string) =>
  returnTo === "/console/" ? "" : html`<input type="hidden" name="return_to" value="${returnTo}">`;

export function signInPage(context: PageContext, problem: string | null, login = "", returnTo = "/console/"): string {
  return page(
    context,
    "Sign in",
    html`<h1>Sign in to feedgate</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="/console/sign-in">${csrfField(context)}${returnField(returnTo)}
  <label for="login">Username</label>
  <input id="login" name="login" type="text" autocomplete="username" autocapitalize="none" required value="${login}" autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <p><button class="primary" type="submit">Sign in</button></p>
</form>`,
  );
}

export function twoFactorPage(context: PageContext, problem: string | null, returnTo = "/console/"): string {
  return page(
    context,
    "Two-factor authentication",
    html`<h1>Two-factor authentication</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
<form method="post" action="/console/two-factor">${csrfField(context)}${returnField(returnTo)}
  <label for="otp">Authentication code</label>
  <input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required autofocus>
  <p><button class="primary" type="submit">Verify</button></p>
</form>`,
  );
}

export function errorPage(context: PageContext, status: number, message: string): string {
  return page(
    context,
    message,
    html`<h1>${message}</h1><p>Error ${status}. <a href="/console/">Back to the console</a></p>`,
  );
}
