/** Throw-away TLS certificates for the tests that serve HTTPS, made by the machine's openssl. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { request } from "node:https";
import { join } from "node:path";
import { skipOutsideCi } from "./services.js";

/** false when openssl can make certificates here, else why the TLS tests are skipped (outside CI only). */
export const skipUnlessOpenssl = () =>
  skipOutsideCi(
    spawnSync("openssl", ["version"]).status === 0 ? false : "openssl is not installed: no certificate to test with",
  );

/**
 * A self-signed certificate for 127.0.0.1 (and the host names `dnsNames`) and its key, valid for a day, as
 * `<name>-cert.pem` and `<name>-key.pem` in `dir`.
 */
export function selfSigned(dir: string, name: string, dnsNames: string[] = []): { cert: string; key: string } {
  const cert = join(dir, `${name}-cert.pem`);
  const key = join(dir, `${name}-key.pem`);
  const made = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    key,
    "-out",
    cert,
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    `subjectAltName=${["IP:127.0.0.1", ...dnsNames.map((host) => `DNS:${host}`)].join(",")}`,
  ]);
  assert.equal(made.status, 0, made.stderr.toString());
  return { cert, key };
}

/** One HTTPS exchange that trusts `ca` only. */
export function https(
  url: string,
  ca: Buffer,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, ca }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
