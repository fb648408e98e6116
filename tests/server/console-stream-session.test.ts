/**
 * A console stream lives by its session: signing out (through any instance: the deleted session raises the
 * credentials number every hub watches) ends the open stream within a second.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";
import { csrfOf, form, FORM, sessionOf } from "../helpers/console-forms.js";
import { sleep } from "../helpers/wait.js";

describe("console streams and their session", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("signing out ends the session's open stream within a second", async () => {
    const signIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: FORM,
      payload: form({ login: ALICE.login, password: ALICE.password }),
    });
    const session = sessionOf(signIn)!;
    const cookie = `feedgate_session=${session}`;
    const page = await t.app.inject({ method: "GET", url: "/console/activity", headers: { cookie } });
    const ended = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${t.url}/console/activity/stream`,
        { headers: { cookie, accept: "text/event-stream" } },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.resume();
          res.on("close", () => resolve(performance.now()));
        },
      );
      req.on("error", reject);
      req.end();
    });
    await sleep(300); // the stream is open
    const signedOut = performance.now();
    const out = await t.app.inject({
      method: "POST",
      url: "/console/sign-out",
      headers: { ...FORM, cookie },
      payload: form({ csrf: csrfOf(page.body) }),
    });
    assert.equal(out.statusCode, 303);
    const closedAt = await Promise.race([
      ended,
      new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 3000)),
    ]);
    assert.ok(closedAt - signedOut < 1500, "the stream was still open after sign-out");
  });
});
