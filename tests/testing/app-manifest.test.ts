/**
 * GitHub's manifest flow against the double over real sockets, as a browser and an app's server take it: the
 * developer's form posts a manifest to `HOST/settings/apps/new`, the signed-in person confirms it on the console, the
 * browser lands on the manifest's `redirect_url` with a code and the state, and the app's server converts the code
 * with Octokit (`POST /app-manifests/{code}/conversions`) into the app: its id, secrets and private key, which
 * `@octokit/app` then signs with, and whose webhook secret signs the app's deliveries.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { Webhooks } from "@octokit/webhooks";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { csrfOf, form, FORM } from "../helpers/console-forms.js";
import { until } from "../helpers/wait.js";

const WORLD = {
  users: [
    { login: "alice", password: "alice-password" },
    { login: "bob", password: "bob-password" },
  ],
  orgs: [{ login: "acme", owners: ["alice"], members: ["bob"] }],
  repos: [{ full_name: "alice/hello" }],
};

describe("the manifest flow", () => {
  let fg: Feedgate;
  let server: Server;
  let hookUrl: string;
  const arrived: { headers: IncomingHttpHeaders; body: string }[] = [];
  const cookies: Record<string, string> = {};

  const manifest = (name: string, extra: object = {}) =>
    JSON.stringify({
      name,
      url: "https://bot.example",
      hook_attributes: { url: hookUrl },
      redirect_url: "https://bot.example/redirect",
      callback_urls: ["https://bot.example/callback"],
      default_events: ["issues"],
      default_permissions: { issues: "write", metadata: "read" },
      ...extra,
    });
  /** A request as the person's browser sends it (no redirect followed), signed in as `login` when given. */
  const browser = (path: string, init: { method?: string; body?: string; login?: string } = {}) =>
    fetch(`${fg.url}${path}`, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        ...(init.body === undefined ? {} : FORM),
        ...(init.login ? { cookie: `feedgate_session=${cookies[init.login]}` } : {}),
      },
      body: init.body,
    });
  /** The developer's form, then the person's confirmation: the URL the browser is sent back to. */
  async function confirm(entry: string, fields: Record<string, string>, login = "alice") {
    const posted = await browser(entry, { method: "POST", body: form(fields) });
    assert.equal(posted.status, 303);
    const page = await browser(posted.headers.get("location")!, { login });
    const text = await page.text();
    assert.equal(page.status, 200, text);
    const confirmed = await browser("/console/settings/apps/new", {
      method: "POST",
      login,
      body: form({ ...hiddenFields(text), csrf: csrfOf(text) }),
    });
    return { page: text, confirmed };
  }
  const hiddenFields = (text: string) =>
    Object.fromEntries(
      [...text.matchAll(/<input type="hidden" name="(manifest|state|org)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!
          .replaceAll("&quot;", '"')
          .replaceAll("&amp;", "&")
          .replaceAll("&#39;", "'")
          .replaceAll("&lt;", "<")
          .replaceAll("&gt;", ">"),
      ]),
    );

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        arrived.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        response.end("ok");
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    fg = await startFeedgate({ world: WORLD });
    for (const login of ["alice", "bob"]) {
      const signedIn = await browser("/console/sign-in", {
        method: "POST",
        body: form({ login, password: `${login}-password` }),
      });
      cookies[login] = /feedgate_session=([^;]+)/.exec(String(signedIn.headers.get("set-cookie")))![1]!;
    }
  });
  after(async () => {
    await fg.close();
    server.close();
  });

  test("confirm, convert with Octokit, then act as the app and verify its webhook's signature", async () => {
    const { page, confirmed } = await confirm("/settings/apps/new?state=opaque-state", {
      manifest: manifest("Manifest Bot"),
    });
    assert.match(page, /<h1>Create GitHub App for alice<\/h1>/);
    assert.equal(confirmed.status, 303);
    const back = new URL(confirmed.headers.get("location")!);
    assert.equal(`${back.origin}${back.pathname}`, "https://bot.example/redirect");
    assert.equal(back.searchParams.get("state"), "opaque-state");
    const code = back.searchParams.get("code")!;

    const octokit = new Octokit({ baseUrl: fg.url });
    const { status, data } = await octokit.request("POST /app-manifests/{code}/conversions", { code });
    assert.equal(status, 201);
    const ownerOf = (made: { owner: unknown }) => (made.owner as { login: string }).login;
    assert.deepEqual([data.slug, data.name, ownerOf(data)], ["manifest-bot", "Manifest Bot", "alice"]);
    assert.match(data.pem, /^-----BEGIN RSA PRIVATE KEY-----/);
    assert.match(data.client_id, /^Iv23li/);
    assert.ok(data.client_secret && data.webhook_secret);
    assert.deepEqual(data.permissions, { issues: "write", metadata: "read" });
    await assert.rejects(octokit.request("POST /app-manifests/{code}/conversions", { code }), { status: 404 });

    const app = new App({ appId: data.id, privateKey: data.pem, Octokit: Octokit.defaults({ baseUrl: fg.url }) });
    assert.equal((await app.octokit.request("GET /app")).data?.name, "Manifest Bot");
    // Installed from the console's install page: GitHub's installation.created, signed with the webhook secret.
    const install = await browser(`/console/apps/${data.slug}/installations/new`, { login: "alice" });
    const installed = await browser(`/console/apps/${data.slug}/installations/new`, {
      method: "POST",
      login: "alice",
      body: form({ csrf: csrfOf(await install.text()), account: "alice", selection: "all" }),
    });
    assert.equal(installed.status, 201);
    await until(() => arrived.length >= 1, "installation.created");
    const [delivery] = arrived;
    assert.equal(delivery!.headers["x-github-event"], "installation");
    const webhooks = new Webhooks({ secret: data.webhook_secret! });
    assert.ok(await webhooks.verify(delivery!.body, String(delivery!.headers["x-hub-signature-256"])));
  });

  test("for an organization the person owns; not for one they only belong to", async () => {
    const { page, confirmed } = await confirm("/organizations/acme/settings/apps/new", {
      manifest: manifest("Acme Bot"),
    });
    assert.match(page, /Create GitHub App for acme/);
    const code = new URL(confirmed.headers.get("location")!).searchParams.get("code")!;
    const { data } = await new Octokit({ baseUrl: fg.url }).request("POST /app-manifests/{code}/conversions", { code });
    assert.equal((data.owner as { login: string }).login, "acme");
    const posted = await browser("/organizations/acme/settings/apps/new", {
      method: "POST",
      body: form({ manifest: manifest("Bob Bot") }),
    });
    const refused = await browser(posted.headers.get("location")!, { login: "bob" });
    assert.equal(refused.status, 422);
    assert.match(await refused.text(), /You do not own an organization named acme/);
  });

  test("a manifest GitHub's form refuses is the page again with why, and makes no code", async () => {
    for (const [bad, why] of [
      ["{not json", /not valid JSON/],
      [manifest(""), /name must be 1 to 34 characters/],
      [manifest("Manifest Bot"), /Name Manifest Bot is already in use/],
      [manifest("Relative", { url: "/relative" }), /url must be an absolute URL/],
      [manifest("Perms", { default_permissions: { issues: "admin" } }), /default_permissions\.issues must be/],
    ] as const) {
      const posted = await browser("/settings/apps/new", { method: "POST", body: form({ manifest: bad }) });
      const shown = await browser(posted.headers.get("location")!, { login: "alice" });
      const text = await shown.text();
      if (shown.status === 200) {
        // Refused at the confirmation (the name taken is known only then).
        const confirmed = await browser("/console/settings/apps/new", {
          method: "POST",
          login: "alice",
          body: form({ ...hiddenFields(text), csrf: csrfOf(text) }),
        });
        assert.equal(confirmed.status, 422, bad);
        assert.match(await confirmed.text(), why);
      } else {
        assert.equal(shown.status, 422, bad);
        assert.match(text, why);
      }
    }
    const unknown = await fetch(`${fg.url}/app-manifests/${"0".repeat(40)}/conversions`, { method: "POST" });
    assert.equal(unknown.status, 404);
  });
});
