/**
 * `feedgate serve --tls-cert --tls-key`: HTTPS on the API port, over a real socket, with a throw-away self-signed
 * certificate made here by openssl and trusted by the request alone (`ca`); the printed URL and every absolute URL
 * of an answer are https. The metrics port stays plain HTTP (src/server/metrics-server.ts says why). Flags given
 * wrong fail the start with one line.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { feedgate, runCli, waitForOutput } from "../helpers/cli.js";
import { https, selfSigned, skipUnlessOpenssl } from "../helpers/certificate.js";

const skip = skipUnlessOpenssl();

describe("feedgate serve over TLS", { skip }, () => {
  let dir: string;
  let pair: { cert: string; key: string };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-tls-"));
    pair = selfSigned(dir, "server");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("serves HTTPS; the printed URL, Location and url fields are https; /metrics on its port stays http", async () => {
    const server = feedgate(
      ["serve", "--port", "0", "--metrics-port", "0", "--db", join(dir, "feedgate.db"), "--demo"],
      { env: { FEEDGATE_TLS_CERT: pair.cert, FEEDGATE_TLS_KEY: pair.key } },
    );
    try {
      const [, api, metrics] = await waitForOutput(
        server,
        /Server listening at (https:\/\/127\.0\.0\.1:\d+)[\s\S]*Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
      );
      const [, login, password] = await waitForOutput(server, /login: +(\S+)\n +password: +(\S+)/, 20_000, "stderr");
      assert.match(server.stderr, new RegExp(`export FEEDGATE_URL=${api} `));
      const ca = readFileSync(pair.cert);
      const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

      for (const prefix of ["", "/api/v3"]) {
        const created = await https(`${api}${prefix}/authorizations`, ca, {
          method: "POST",
          headers: { authorization, "content-type": "application/json" },
          body: JSON.stringify({ note: `tls${prefix}` }),
        });
        assert.equal(created.status, 201, created.body);
        const { id, url } = JSON.parse(created.body) as { id: string; url: string };
        assert.equal(created.headers.location, `${api}${prefix}/authorizations/${id}`);
        assert.equal(url, created.headers.location);
      }
      // Without our CA the certificate is refused: the handshake is real.
      await assert.rejects(https(`${api}/healthz`, Buffer.from("")), /self[- ]signed|unable to verify|certificate/i);
      assert.equal((await fetch(`${metrics}/metrics`)).status, 200);
    } finally {
      server.child.kill("SIGTERM");
      await server.done;
    }
  });

  const serve = (args: string[], env: Record<string, string> = {}) =>
    runCli(["serve", "--port", "0", "--db", join(dir, "never.db"), ...args], { env });

  test("one of the two flags alone: one line, status 1", async () => {
    const certOnly = await serve(["--tls-cert", pair.cert]);
    assert.equal(certOnly.code, 1);
    assert.equal(
      certOnly.stderr,
      "feedgate: --tls-cert (FEEDGATE_TLS_CERT) needs --tls-key (FEEDGATE_TLS_KEY): give both, or neither for plain HTTP\n",
    );
    const keyOnly = await serve([], { FEEDGATE_TLS_KEY: pair.key });
    assert.equal(
      keyOnly.stderr,
      "feedgate: --tls-key (FEEDGATE_TLS_KEY) needs --tls-cert (FEEDGATE_TLS_CERT): give both, or neither for plain HTTP\n",
    );
  });

  test("an unreadable file: one line naming it", async () => {
    const missing = join(dir, "missing.pem");
    const result = await serve(["--tls-cert", missing, "--tls-key", pair.key]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `feedgate: cannot read --tls-cert ${missing}: no such file\n`);
    // Said before anything was opened: no database file was created (and migrated) for a start that cannot happen.
    assert.equal(existsSync(join(dir, "never.db")), false);
  });

  test("a key of another certificate, or a file that is no PEM: one line naming both files", async () => {
    const other = selfSigned(dir, "other");
    const mismatch = await serve(["--tls-cert", pair.cert, "--tls-key", other.key]);
    assert.equal(mismatch.code, 1);
    assert.match(
      mismatch.stderr,
      new RegExp(
        `^feedgate: --tls-cert ${pair.cert} and --tls-key ${other.key} are not a PEM ` +
          "certificate and its private key: .*mismatch.*\\n$",
      ),
    );
    const garbage = join(dir, "garbage.pem");
    writeFileSync(garbage, "not a certificate\n");
    const notPem = await serve(["--tls-cert", garbage, "--tls-key", pair.key]);
    assert.equal(notPem.code, 1);
    assert.equal(notPem.stderr.split("\n").length, 2, notPem.stderr);
    assert.match(notPem.stderr, /^feedgate: --tls-cert .*garbage\.pem and --tls-key .* are not a PEM certificate/);
  });
});
