import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { Authenticator } from "../../src/server/services/authenticator.js";
import { currentOtp, mintToken, newOtpSecret, verifyOtp } from "../../src/server/services/credentials.js";
import { MemoryWindowCounters } from "../../src/server/counters/counters.js";
import type { Store } from "../../src/server/store/store.js";
import { sleep } from "../helpers/wait.js";

const BAD_CREDENTIALS = { message: "Bad credentials", documentation_url: "https://developer.github.com/v3" };
const OTP_REQUIRED = {
  message: "Must specify two-factor authentication OTP code.",
  documentation_url: "https://developer.github.com/v3/auth#working-with-two-factor-authentication",
};
const LOCKED = {
  message: "Maximum number of login attempts exceeded. Please try again later.",
  documentation_url: "https://developer.github.com/v3",
};
// Many requests here fail on purpose from one client address; the anonymous rate limit is not under test.
const CONFIG = { rateLimitAnonymous: 10_000 };

/** Every way a client may present a token (wire notes 3.1), as the request options that carry it. */
const TOKEN_FORMS: [string, (token: string) => InjectOptions][] = [
  ["Authorization: token", (token) => ({ headers: { authorization: `token ${token}` } })],
  ["Authorization: Bearer", (token) => ({ headers: { authorization: `Bearer ${token}` } })],
  ["a lower-case bearer scheme", (token) => ({ headers: { authorization: `bearer ${token}` } })],
  ["?access_token=", (token) => ({ query: { access_token: token } })],
  ["Basic with the token as password", (token) => ({ headers: { authorization: basic("x-access-token", token) } })],
];

const legacyToken = () => randomBytes(20).toString("hex");

/** A syntactically valid code that the secret does not accept now (nor one step either side). */
function wrongOtp(secret: string, now: Date): string {
  return ["000000", "111111", "222222", "333333"].find((code) => !verifyOtp(secret, code, now))!;
}

/**
 * Token forms are tried on an unknown route: a valid token gets 404 with its scopes in `X-OAuth-Scopes`, an
 * invalid one 401, and no credentials at all 404 without the header.
 */
function assertTokenAuthenticated(res: LightMyRequestResponse, scopes: string) {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(res.headers["x-oauth-scopes"], scopes);
}

function assertChallenged(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 401);
  assert.deepEqual(res.json(), OTP_REQUIRED);
  assert.equal(res.headers["x-github-otp"], "required; app");
  assert.equal(res.headers["x-service-otp"], "required; app");
}

describe("authentication forms", () => {
  let t: TestApp;
  const tokens = { feedgate: "", legacy: "", twoFactor: "" };
  let tessSecret = "";
  before(async () => {
    t = await startTestApp(CONFIG);
    const alice = await t.createUser("alice", "alice-password");
    tessSecret = newOtpSecret();
    const tess = await t.createUser("tess", "tess-password", { otpSecret: tessSecret });
    tokens.feedgate = (await t.createToken(alice, ["repo", "user"])).token;
    // Tokens imported from GitHub keep their 40-hex form (the CLI's `token add --token`).
    const service = new AuthorizationService(t.store, t.clock.now);
    tokens.legacy = (
      await service.issue(
        alice,
        { scopes: ["gist"], note: "imported", noteUrl: null, fingerprint: null },
        legacyToken(),
      )
    ).token;
    tokens.twoFactor = (await t.createToken(tess, ["read:org"])).token;
  });
  after(() => t.close());

  const call = (options: InjectOptions, url = "/nowhere") => t.app.inject({ method: "GET", url, ...options });
  const withPassword = (login: string, password: string, headers: Record<string, string> = {}) =>
    call({ headers: { authorization: basic(login, password), ...headers } }, "/authorizations");

  test("Basic login:password authenticates, and reports no token scopes", async () => {
    const res = await withPassword("alice", "alice-password");
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["x-oauth-scopes"], undefined);
  });

  test("Basic auth accepts the login in any letter case", async () => {
    assert.equal((await withPassword("ALICE", "alice-password")).statusCode, 200);
  });

  test("an unknown route without credentials is a plain 404 with no scopes", async () => {
    const res = await call({});
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers["x-oauth-scopes"], undefined);
  });

  const KINDS = [
    ["a feedgate token", "feedgate", "repo, user"],
    ["a legacy 40-hex token", "legacy", "gist"],
  ] as const;
  for (const [kind, key, scopes] of KINDS) {
    for (const [form, send] of TOKEN_FORMS) {
      test(`${form} with ${kind} authenticates`, async () => {
        assertTokenAuthenticated(await call(send(tokens[key])), scopes);
      });
    }
  }

  test("Basic with a token as password ignores the username, even a two-factor user's login", async () => {
    assertTokenAuthenticated(await call({ headers: { authorization: basic("tess", tokens.feedgate) } }), "repo, user");
  });

  const tamper = (token: string) => token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
  const REFUSED: [string, () => InjectOptions][] = [
    ["a wrong password", () => ({ headers: { authorization: basic("alice", "not-the-password") } })],
    ["an unknown login", () => ({ headers: { authorization: basic("nobody", "alice-password") } })],
    ["an unknown token", () => ({ headers: { authorization: `token ${mintToken()}` } })],
    ["an unknown legacy token", () => ({ headers: { authorization: `token ${legacyToken()}` } })],
    [
      "a real token with its last character changed",
      () => ({ headers: { authorization: `token ${tamper(tokens.feedgate)}` } }),
    ],
    ["an unknown Bearer token", () => ({ headers: { authorization: `Bearer ${mintToken()}` } })],
    ["an unknown ?access_token=", () => ({ query: { access_token: mintToken() } })],
    ["an empty ?access_token=", () => ({ query: { access_token: "" } })],
    [
      "?access_token= given twice",
      () => ({ url: `/nowhere?access_token=${tokens.feedgate}&access_token=${tokens.feedgate}` }),
    ],
    [
      "an unknown token as Basic password",
      () => ({ headers: { authorization: basic("x-access-token", mintToken()) } }),
    ],
    ["an unknown scheme", () => ({ headers: { authorization: `Digest ${tokens.feedgate}` } })],
    [
      "Basic without a colon",
      () => ({ headers: { authorization: `Basic ${Buffer.from("alice").toString("base64")}` } }),
    ],
    ["Basic with nothing after it", () => ({ headers: { authorization: "Basic" } })],
    ["a token scheme with no token", () => ({ headers: { authorization: "token" } })],
  ];
  for (const [credential, send] of REFUSED) {
    test(`${credential} is 401 Bad credentials, not anonymous access`, async () => {
      const res = await call(send());
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), BAD_CREDENTIALS);
    });
  }

  describe("two-factor users", () => {
    const tess = (headers: Record<string, string> = {}) => withPassword("tess", "tess-password", headers);

    test("the right password without a code is challenged for one", async () => {
      assertChallenged(await tess());
    });

    test("a wrong code gets the same challenge", async () => {
      assertChallenged(await tess({ "X-GitHub-OTP": wrongOtp(tessSecret, t.clock.now()) }));
      assertChallenged(await tess({ "X-Service-OTP": "abcdef" }));
    });

    for (const header of ["X-GitHub-OTP", "X-Service-OTP"]) {
      test(`the right code in ${header} authenticates`, async () => {
        assert.equal((await tess({ [header]: currentOtp(tessSecret, t.clock.now()) })).statusCode, 200);
      });
    }

    test("a code from the previous 30-second step is still accepted, for clock drift", async () => {
      const previous = currentOtp(tessSecret, new Date(t.clock.now().getTime() - 30_000));
      assert.equal((await tess({ "X-GitHub-OTP": previous })).statusCode, 200);
    });

    test("a wrong password is Bad credentials, not a challenge that would confirm it", async () => {
      const res = await withPassword("tess", "wrong", { "X-GitHub-OTP": currentOtp(tessSecret, t.clock.now()) });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), BAD_CREDENTIALS);
      assert.equal(res.headers["x-github-otp"], undefined);
    });

    test("their tokens need no code, in every form", async () => {
      for (const [form, send] of TOKEN_FORMS) {
        const res = await call(send(tokens.twoFactor));
        assert.equal(res.statusCode, 404, `${form}: ${res.body}`);
        assert.equal(res.headers["x-oauth-scopes"], "read:org", form);
      }
    });
  });
});

describe("failed-login lockout", () => {
  const WINDOW = 60;
  let t: TestApp;
  const secrets: Record<string, string> = {};
  before(async () => {
    t = await startTestApp({ ...CONFIG, loginMaxAttempts: 3, loginWindow: WINDOW });
    for (const login of ["lena", "leo", "lars", "luke", "rita", "sam"]) await t.createUser(login, "right-password");
    for (const login of ["otto", "olga"]) {
      secrets[login] = newOtpSecret();
      await t.createUser(login, "right-password", { otpSecret: secrets[login] });
    }
  });
  after(() => t.close());

  const login = (user: string, password = "right-password", otp?: string) =>
    t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic(user, password), ...(otp === undefined ? {} : { "X-GitHub-OTP": otp }) },
    });
  const failThrice = async (user: string) => {
    for (let i = 0; i < 3; i++) assert.deepEqual((await login(user, `wrong-${i}`)).json(), BAD_CREDENTIALS);
  };
  const assertLocked = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), LOCKED);
  };

  test("after three wrong passwords even the right one is refused with 403", async () => {
    await failThrice("lena");
    assertLocked(await login("lena"));
  });

  test("the lock lifts once the window has passed", async () => {
    await failThrice("leo");
    assertLocked(await login("leo"));
    t.clock.advance((WINDOW + 1) * 1000);
    assert.equal((await login("leo")).statusCode, 200);
  });

  test("the lock is per account: another user still logs in", async () => {
    await failThrice("lars");
    assertLocked(await login("lars"));
    assert.equal((await login("luke")).statusCode, 200);
  });

  test("failures count against the account whatever the letter case of the login", async () => {
    await failThrice("LUKE");
    assertLocked(await login("luke"));
  });

  test("fifty concurrent wrong passwords: only the limit's worth are checked, the rest are refused as locked", async () => {
    // Each check takes scrypt's time, so all fifty are in flight together: counting after the check let them all through.
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login("rita", `guess-${i}`)));
    const statuses = answers.map((res) => res.statusCode);
    assert.equal(statuses.filter((s) => s === 401).length, 3, statuses.join(" "));
    assert.equal(statuses.filter((s) => s === 403).length, 47);
    assertLocked(await login("rita"));
  });

  test("successful logins, even many at once, do not use up attempts", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => login("sam")));
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      Array(8).fill(200),
    );
    assert.equal((await login("sam")).statusCode, 200);
  });

  test("forty concurrent right passwords, one place among checks of 75 ms each: all logged in, none refused", async () => {
    // A check that takes the production cost's ~75 ms, as a timer rather than scrypt's CPU, so that the queue lasts
    // three seconds however loaded the machine is: the last of the forty waits that long for its place.
    const quinn = await t.createUser("quinn", "right-password");
    const slowLookups = {
      users: {
        findByLogin: async (login: string) => {
          await sleep(75);
          return t.store.users.findByLogin(login);
        },
      },
      authorizations: t.store.authorizations,
    } as unknown as Store;
    const authenticator = new Authenticator({
      store: slowLookups,
      counters: new MemoryWindowCounters(),
      lockout: { maxAttempts: 1, windowSeconds: WINDOW },
    });
    const principals = await Promise.all(
      Array.from({ length: 40 }, () =>
        authenticator.authenticate(
          { type: "basic", login: "quinn", password: "right-password", otp: undefined },
          t.clock.now(),
        ),
      ),
    );
    assert.deepEqual(
      principals.map((principal) => [principal?.kind, principal?.user.id]),
      Array(40).fill(["password", quinn.id]),
    );
  });

  test("asking for the OTP challenge is not a failed attempt", async () => {
    for (let i = 0; i < 5; i++) assertChallenged(await login("otto"));
    assert.equal((await login("otto", "right-password", currentOtp(secrets.otto!, t.clock.now()))).statusCode, 200);
  });

  test("a wrong OTP is a failed attempt", async () => {
    const now = t.clock.now();
    for (let i = 0; i < 3; i++) assertChallenged(await login("olga", "right-password", wrongOtp(secrets.olga!, now)));
    assertLocked(await login("olga", "right-password", currentOtp(secrets.olga!, now)));
  });
});

describe("suspended accounts", () => {
  // GitHub's answer to a suspended account's credentials (src/server/errors.ts, accountSuspended).
  const SUSPENDED = {
    message: "Sorry. Your account was suspended.",
    documentation_url: "https://developer.github.com/v3",
  };
  let t: TestApp;
  let token = "";
  let twoFactorToken = "";
  let secret = "";
  before(async () => {
    t = await startTestApp(CONFIG);
    const sam = await t.createUser("sam", "sam-password");
    token = (await t.createToken(sam, ["repo"])).token;
    secret = newOtpSecret();
    const tom = await t.createUser("tom", "tom-password", { otpSecret: secret });
    twoFactorToken = (await t.createToken(tom)).token;
    await t.store.users.setSuspended(sam.id, t.clock.now());
    await t.store.users.setSuspended(tom.id, t.clock.now());
  });
  after(() => t.close());

  for (const [form, options] of TOKEN_FORMS) {
    test(`a suspended user's token is 403 "Sorry. Your account was suspended." (${form})`, async () => {
      const res = await t.app.inject({ method: "GET", url: "/nowhere", ...options(token) });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), SUSPENDED);
    });
  }

  test("the right password is 403 suspended; a wrong one stays 401 Bad credentials", async () => {
    const right = await t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic("sam", "sam-password") },
    });
    assert.equal(right.statusCode, 403);
    assert.deepEqual(right.json(), SUSPENDED);
    const wrong = await t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic("sam", "nope") },
    });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), BAD_CREDENTIALS);
  });

  test("a two-factor user learns of the suspension only with the right code", async () => {
    const tom = (headers: Record<string, string> = {}) =>
      t.app.inject({
        method: "GET",
        url: "/authorizations",
        headers: { authorization: basic("tom", "tom-password"), ...headers },
      });
    assertChallenged(await tom());
    const res = await tom({ "X-GitHub-OTP": currentOtp(secret, t.clock.now()) });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), SUSPENDED);
    assert.equal(
      (await t.app.inject({ method: "GET", url: "/nowhere", headers: { authorization: `token ${twoFactorToken}` } }))
        .statusCode,
      403,
    );
  });

  test("once reinstated, the same password and token work again", async () => {
    const sam = (await t.store.users.findByLogin("sam"))!;
    await t.store.users.setSuspended(sam.id, null);
    assertTokenAuthenticated(
      await t.app.inject({ method: "GET", url: "/nowhere", headers: { authorization: `token ${token}` } }),
      "repo",
    );
    const res = await t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic("sam", "sam-password") },
    });
    assert.equal(res.statusCode, 200);
  });
});
