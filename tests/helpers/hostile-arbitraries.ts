/**
 * The hostile-input suite's fast-check arbitraries: path segments, queries, headers, credentials in every scheme,
 * JSON bodies that carry a flaw the interface refuses, admin ingest bodies, and invalid UTF-8.
 */
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { basic } from "./test-app.js";
import { ALICE_TOKEN, OLGA } from "./client-world.js";
import { LOGINS, PASSWORD_USERS, ROOT_ADMIN_TOKEN, type Seeded } from "./hostile-world.js";
import { mintToken } from "../../src/server/services/credentials.js";
import { SCOPE_NAMES } from "../../src/api/scopes.js";

// ---------------------------------------------------------------------------------------------------------------
// Generators of hostile pieces.

const pct = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
const b64 = (value: string | Uint8Array) => Buffer.from(value).toString("base64");

const HUGE_NUMBERS = [
  "0",
  "-1",
  "-0",
  "01",
  "+1",
  "1.5",
  "1e3",
  "1e309",
  "-1e309",
  "1e-400",
  "0x10",
  "NaN",
  "Infinity",
  " 1",
  "1 ",
  "9007199254740993",
  "18446744073709551616",
  "99999999999999999999999999999999999999",
];
export const hugeNumber = fc.oneof(
  fc.constantFrom(...HUGE_NUMBERS),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 400n }).map(String),
  fc.integer({ min: 16, max: 400 }).map((n) => "9".repeat(n)),
);

/** What Node's HTTP parser lets through in a header value: printable ASCII, tab, and bytes 0x80-0xff (as latin1). */
const headerChar = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
export const headerText = fc.string({ unit: headerChar, maxLength: 40 });
export const overlong = (min: number, max: number) => fc.integer({ min, max }).map((n) => "a".repeat(n));

/** A path segment as URL text: percent-encoded bytes (NUL, control, invalid UTF-8), odd characters, huge numbers, long runs. */
const segment = fc.oneof(
  fc.uint8Array({ maxLength: 24 }).map(pct),
  fc.string({ unit: "binary", maxLength: 24 }).map(encodeURIComponent),
  fc.string({ unit: fc.constantFrom(..."%.~-_;,=+!*'()@:$&[]{}|^`\"<>\\ab1"), maxLength: 12 }),
  hugeNumber.map(encodeURIComponent),
  overlong(90, 6000),
  fc.constantFrom(
    "",
    ".",
    "..",
    "%",
    "%zz",
    "%0",
    "%00",
    "%FF",
    "%C0%80",
    "%ED%A0%80",
    "%EF%BF%BF",
    "%F4%90%80%80",
    "%E2%80%AE",
  ),
);

const REAL_PARAMS: Record<string, string[]> = {
  user: LOGINS,
  repo: ["hello", "secret", "tools", "site", "nothing"],
  org: ["acme", "alice", "nothing"],
};

/** True when a segment, once decoded as the router decodes it, names an authorization that may exist. */
function namesExisting(text: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return false;
  }
  return /^[1-9][0-9]*$/.test(decoded) && Number(decoded) < 1_000_000;
}

/**
 * False for a DELETE whose URL might name a stored authorization, however it was put together (an extra segment
 * after `/authorizations` can be `%33`): those would be legitimate writes.
 */
export function deletesNothing(method: string, url: string): boolean {
  if (method.toUpperCase() !== "DELETE") return true;
  if (REPOSITORY_ITSELF.test(url)) return false;
  return ![...url.matchAll(/authorizations\/([^/?#]*)/gi)].some((m) => namesExisting(m[1]!));
}

/** A repository's own path (`/repos/{o}/{r}`, `/repositories/{id}`), at `/` or under `/api/v3`. */
const REPOSITORY_ITSELF = /^(\/api\/v3)?\/(repos\/[^/?#]+\/[^/?#]+|repositories\/[^/?#]+)\/?([?#].*)?$/i;

/**
 * False for the repository writes whose every field is optional and whose unknown keys are ignored, as GitHub's are:
 * an edit (`PATCH`, or GitHub's POST alias), a fork, and the preferences for check suites (whose one field,
 * `auto_trigger_checks`, is optional). Whatever flawed body arrives may make a legitimate answer.
 */
export function takesAnyBody(method: string, url: string): boolean {
  const verb = method.toUpperCase();
  if ((verb === "PATCH" || verb === "POST") && REPOSITORY_ITSELF.test(url)) return true;
  if (
    verb === "PATCH" &&
    /^(\/api\/v3)?\/(repos\/[^/?#]+\/[^/?#]+|repositories\/[^/?#]+)\/check-suites\/preferences\/?([?#].*)?$/i.test(url)
  )
    return true;
  return (
    verb === "POST" && /^(\/api\/v3)?\/(repos\/[^/?#]+\/[^/?#]+|repositories\/[^/?#]+)\/forks\/?([?#].*)?$/i.test(url)
  );
}

/**
 * False for a POST to the authorizations collection (at `/` or under `/api/v3`) with a password: every field of the
 * body is optional, so whatever little of it arrives (nothing, a lone chunk of whitespace) may make a legitimate
 * create, which is not what these properties look for. Tokens cannot create, and stay in.
 */
export function createsNothing(method: string, url: string, authorization: string | undefined): boolean {
  if (method.toUpperCase() !== "POST" || !/^basic /i.test(authorization ?? "")) return true;
  return !/^(\/api\/v3)?\/authorizations\/?([?#].*)?$/i.test(url);
}

function paramArb(name: string, method: string, existingIds: number[]): fc.Arbitrary<string> {
  if (name === "id") {
    // Deletes name nothing that exists; every other method may name anything (its body is flawed).
    if (method === "DELETE") {
      return fc
        .oneof(fc.bigInt({ min: 1_000_000n, max: 10n ** 30n }).map(String), segment, hugeNumber.map(encodeURIComponent))
        .filter((s) => !namesExisting(s));
    }
    return fc.oneof(fc.constantFrom(...existingIds.map(String)), fc.integer({ min: 1, max: 60 }).map(String), segment);
  }
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(REAL_PARAMS[name] ?? ["x"])) },
    { weight: 1, arbitrary: segment },
  );
}

/** A route's path with its parameters filled, then sometimes mangled as a whole. */
export function pathArb(path: string, method: string, existingIds: number[]): fc.Arbitrary<string> {
  if (path === "*")
    return fc.oneof(
      segment.map((s) => `/${s}`),
      fc.constant("/events"),
    );
  const parts = path
    .split("/")
    .map((part) => (part.startsWith(":") ? paramArb(part.slice(1), method, existingIds) : fc.constant(part)));
  const filled = fc.tuple(...parts).map((segments) => segments.join("/"));
  const mangling = fc.oneof(
    { weight: 14, arbitrary: fc.constant("as is") },
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        "api prefix",
        "trailing slash",
        "double slash",
        "upper case",
        "extra segment",
        "overlong",
      ),
    },
  );
  return fc.tuple(filled, mangling, segment).map(([p, how, extra]) => {
    switch (how) {
      case "api prefix":
        return `/api/v3${p}`;
      case "trailing slash":
        return `${p}/`;
      case "double slash":
        return p.replace("/", "//");
      case "upper case":
        return p.toUpperCase();
      case "extra segment":
        return `${p}/${extra}`;
      case "overlong":
        return `${p}/${"a".repeat(100_000)}`;
      default:
        return p;
    }
  });
}

const queryKey = fc.oneof(
  fc.constantFrom("page", "per_page", "access_token", "page[]", "per_page[x]", "__proto__", "constructor", "since"),
  segment,
);
const queryValue = fc.oneof(hugeNumber.map(encodeURIComponent), segment, fc.constantFrom("", "1", "2", "100", "101"));
export const queryArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("", "", "?per_page=1", "?page=2&per_page=10") },
  {
    weight: 6,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.tuple(queryKey, queryValue).map(([k, v]) => `${k}=${v}`),
          queryKey,
          fc.constantFrom("&", "=", "==", "&&", "%", "?", "#"),
        ),
        { maxLength: 6 },
      )
      .map((parts) => (parts.length > 0 ? `?${parts.join("&")}` : "")),
  },
  { weight: 1, arbitrary: overlong(20_000, 100_000).map((a) => `?page=1&x=${a}`) },
);

const HEADER_SAMPLES = [
  "",
  " ",
  "\t",
  "*/*",
  "application/json",
  "application/vnd.github.v3+json",
  "application/vnd.github.v4+json",
  "application/vnd.github.v3+json, application/vnd.github.v4+json",
  "application/vnd.github.+json",
  "text/html;q=0.9, */*;q=",
  '"etag"',
  'W/"x"',
  "*",
  "Thu, 01 Jan 1970 00:00:00 GMT",
  "Mon, 31 Dec 275760 00:00:00 GMT",
  "Sat, 30 Feb 2021 25:61:61 GMT",
  "2022-11-28",
  "3.0.0",
  "1e309",
  "ÿ",
  "ÿþ",
  "\u0080",
  "a\tb",
];
export const headerValue = fc.oneof(
  { weight: 5, arbitrary: headerText },
  { weight: 4, arbitrary: fc.constantFrom(...HEADER_SAMPLES) },
  { weight: 1, arbitrary: hugeNumber },
  { weight: 1, arbitrary: overlong(17_000, 70_000) },
);
export const HOSTS = [
  "localhost",
  "",
  " ",
  "example.com:443",
  "[::1]:3000",
  "a b",
  "[::1",
  "x:99999",
  "x:65536",
  "[::1]:99999",
  "1.2.3.4.5",
  "256.0.0.1",
  "evil.com/path",
  "hÿ",
  "-",
  ".",
  "localhost:0",
];
const TOKEN_CHARS = "!#$%&'*+-.^_`|~abcdefghijklmnopqrstuvwxyz0123456789";
export const headerName = fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 });
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/x-ndjson",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/octet-stream",
  "",
  "*/*",
  ";",
  "application/json;;;",
  'application/json; charset="utf-8"',
];
const contentType = fc.option(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerText }),
  { nil: undefined },
);

const HEADER_NAMES = [
  "accept",
  "x-github-api-version",
  "if-none-match",
  "if-modified-since",
  "x-github-otp",
  "x-service-otp",
  "origin",
  "access-control-request-method",
  "access-control-request-headers",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "accept-encoding",
  "range",
  "content-type",
];
/** Up to three headers the server reads, or made-up ones, with hostile values: most requests still get past the checks. */
export const headersArb = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...HEADER_NAMES), headerValue) },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constant("host"),
          fc.oneof(fc.constantFrom(...HOSTS), headerText, overlong(1000, 20_000)),
        ),
      },
      { weight: 2, arbitrary: fc.tuple(headerName, headerValue) },
    ),
    { maxLength: 3 },
  )
  .map((entries) => Object.fromEntries(entries) as Record<string, string>);

export const REMOTE_ADDRESSES = ["127.0.0.1", "::1", "::ffff:127.0.0.1", "203.0.113.9", "fe80::1%eth0", "10.0.0.1"];

// ---------------------------------------------------------------------------------------------------------------
// Credentials: valid in every form, wrong, and malformed in every scheme.

export interface Credential {
  headers: Record<string, string>;
  /** Appended to the query string (`access_token=...`). */
  query?: string;
}

export const header = (authorization: string): Credential => ({ headers: { authorization } });

/** Well-formed feedgate tokens that were never stored, and the same with a broken checksum. */
const UNSTORED_TOKENS = [mintToken(), mintToken(), `${mintToken().slice(0, -2)}00`, `fgp_${"0".repeat(36)}`];

/** Credentials that can never authenticate, each a 401 "Bad credentials". Most are refused without a password check. */
export const malformedAuthorization = fc.oneof(
  // (An empty header is no credentials at all: anonymous, as when it is left out.)
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "token",
      "token ",
      "Bearer",
      "Bearer ",
      "bearer \t",
      "Token  ",
      "BEARER",
      " ",
      ":",
      "Basic:",
      "token:abc",
    ),
  },
  // token and Bearer with something that is no stored token: unknown hex, a feedgate token with a bad checksum, noise
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom("token", "Bearer", "bearer", "TOKEN"),
        fc.oneof(
          fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString("hex")),
          fc.constantFrom(...UNSTORED_TOKENS),
          headerText.filter((s) => s.trim() !== ""),
          hugeNumber,
          overlong(1000, 60_000),
        ),
      )
      .map(([scheme, value]) => `${scheme} ${value}`),
  },
  // Basic without a colon, with characters base64 does not have, or huge; none decodes to login:password
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.uint8Array({ maxLength: 64 }).map((bytes) => b64(bytes.filter((b) => b !== 0x3a))),
        headerText,
        overlong(1000, 60_000).map((a) => a.toUpperCase()),
        fc.constantFrom("", "=", "====", "!!!!", "YWxpY2U", "YWxpY2U=", "%%%", "YWxp Y2U6"),
      )
      .filter((value) => !Buffer.from(value, "base64").includes(0x3a))
      .map((value) => `Basic ${value}`),
  },
  // schemes nobody speaks here
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            "Digest",
            "Negotiate",
            "NTLM",
            "OAuth",
            "HOBA",
            "Mutual",
            "AWS4-HMAC-SHA256",
            "Basic2",
            "tokens",
            "Bearer:",
            "Basic:",
          ),
          headerName,
        ),
        headerText,
      )
      .map(([scheme, value]) => `${scheme} ${value}`),
  },
  // a login that exists nowhere, NUL bytes in it included: each costs one (decoy) password check
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom("\u0000", "a\u0000", "alice\u0000", "\u0000alice", "", "nobody"),
          fc.string({ unit: "binary", maxLength: 20 }),
        ),
        headerText,
      )
      .map(([login, password]) => basic(login, `x${password}`)),
  },
);

export function credentialArb(
  world: Seeded,
  weights: { anonymous: number; password: number; token: number; malformed: number },
) {
  const validToken = fc.constantFrom(...world.tokens);
  return fc.oneof(
    { weight: weights.anonymous, arbitrary: fc.constant<Credential>({ headers: {} }) },
    {
      weight: weights.password,
      arbitrary: fc.constantFrom(...PASSWORD_USERS).map(({ login, password }) => header(basic(login, password))),
    },
    // the two-factor user: the right code (in either header, padded), none, or a wrong one
    {
      weight: Math.ceil(weights.password / 3),
      arbitrary: fc
        .tuple(
          fc.constantFrom("x-github-otp", "x-service-otp"),
          fc.oneof(fc.constant("right"), fc.constant(" right "), fc.constant("none"), headerText, hugeNumber),
        )
        .map(([name, code]): Credential => {
          const otp = code === "right" ? world.otp() : code === " right " ? ` ${world.otp()} ` : code;
          return {
            headers: { authorization: basic(OLGA.login, OLGA.password), ...(code === "none" ? {} : { [name]: otp }) },
          };
        }),
    },
    // a known login with a wrong password
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...PASSWORD_USERS, OLGA), headerText)
        .map(([user, password]) => header(basic(user.login, `x${password}`))),
    },
    {
      weight: weights.token,
      arbitrary: fc
        .tuple(
          validToken,
          fc.constantFrom("token", "Bearer", "bearer", "TOKEN  ", " token", "basic", "basic-empty", "query"),
        )
        .map(([token, form]): Credential => {
          if (form === "query") return { headers: {}, query: `access_token=${token}` };
          if (form === "basic") return header(basic("x-access-token", token));
          if (form === "basic-empty") return header(basic("", token));
          return header(`${form} ${token}`);
        }),
    },
    { weight: weights.malformed, arbitrary: malformedAuthorization.map(header) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(queryValue, fc.constant(""), fc.constant("a&access_token=b"))
        .map((value): Credential => ({ headers: {}, query: `access_token=${value}` })),
    },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies. `flawedJson` is JSON text that the authorization routes and both admin routes must refuse, whatever else
// it holds: a syntax error, a value that is no object, a field of the wrong type, or an unknown scope.

export const SCOPES: string[] = [...SCOPE_NAMES];
/** Fields every authorization write reads (create and update alike), so a flaw in one is refused by both. */
export const SHARED_FIELDS = ['"note"', '"note_url"', '"fingerprint"'];

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: headerText },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\u0000",
      "a\u0000b",
      "\u202e",
      "\uffff",
      "\ufffd",
      "💥",
      "\r\n",
      "\u2028",
      "repo\u0000",
    ),
  },
  { weight: 1, arbitrary: overlong(1000, 100_000) },
);
const depth = fc.integer({ min: 50, max: 150_000 });
const deepArray = depth.map((d) => `${"[".repeat(d)}${"]".repeat(d)}`);
const deepObject = depth.map((d) => `${'{"a":'.repeat(d)}1${"}".repeat(d)}`);
const NUMBER_TEXTS = [
  "1e309",
  "-1e309",
  "1e-400",
  "-0",
  "123456789012345678901234567890",
  "0.000000000000000000000001",
  "9007199254740993",
  "1E+2",
  "0",
];
const numberText = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS),
  fc.double().filter(Number.isFinite).map(String),
  hugeNumber.filter((n) => /^-?[1-9][0-9]*$/.test(n)),
);
const keyText = fc.oneof(
  { weight: 12, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '"note"',
      '"note_url"',
      '"fingerprint"',
      '"scopes"',
      '"add_scopes"',
      '"remove_scopes"',
      '"NOTE"',
      '"note "',
      '"scopes\\u0000"',
      '""',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('"__proto__"', '"constructor"', '"prototype"') },
);

/** JSON text for decoration: any value, nested, with hostile strings, escapes and numbers no double holds. */
const { value: jsonText } = fc.letrec<{ value: string; atom: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("atom"), tie("array"), tie("object")),
  atom: fc.oneof(
    { weight: 3, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
    { weight: 2, arbitrary: numberText },
    {
      weight: 2,
      arbitrary: fc.constantFrom("null", "true", "false", '"\\u0000"', '"\\ud800"', '"\\udc00\\ud800"', '"\\uffff"'),
    },
    { weight: 1, arbitrary: fc.oneof(deepArray, deepObject) },
  ),
  array: fc.array(tie("value"), { maxLength: 4 }).map((values) => `[${values.join(",")}]`),
  object: fc
    .array(fc.tuple(keyText, tie("value")), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(",")}}`),
}));

const decorations = fc.array(fc.tuple(keyText, jsonText), { maxLength: 4 });
const objectText = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${k}:${v}`).join(",")}}`;

const nonString = fc.oneof(
  numberText,
  fc.constantFrom("true", "false", "[]", "{}", '{"a":1}', '["x"]', "[null]"),
  deepArray,
  deepObject,
);
const unknownScope = hostileString.filter((s) => !SCOPES.includes(s)).map((s) => JSON.stringify(s));
const typeFlaw = fc.oneof(
  fc.tuple(fc.constantFrom(...SHARED_FIELDS), nonString),
  fc.tuple(
    fc.constant('"scopes"'),
    fc.oneof(
      numberText,
      deepObject,
      fc.constantFrom("true", "null", '"repo"', "{}", '{"0":"repo"}'),
      // an array holding something that is no string
      fc
        .tuple(
          fc.subarray(SCOPES),
          nonString.filter((v) => !v.startsWith('"')),
          fc.nat(),
        )
        .map(([scopes, odd, at]) => {
          const items = scopes.map((s) => JSON.stringify(s));
          items.splice(at % (items.length + 1), 0, odd);
          return `[${items.join(",")}]`;
        }),
    ),
  ),
);
const scopeFlaw = fc.tuple(fc.subarray(SCOPES), unknownScope, fc.nat()).map(([scopes, odd, at]): [string, string] => {
  const items = scopes.map((s) => JSON.stringify(s));
  items.splice(at % (items.length + 1), 0, odd);
  return ['"scopes"', `[${items.join(",")}]`];
});
const syntaxFlaw = fc.oneof(
  // a proper prefix of an object: its closing brace is missing
  fc.tuple(decorations.map(objectText), fc.nat()).map(([text, n]) => text.slice(0, 1 + (n % (text.length - 1)))),
  fc
    .tuple(decorations.map(objectText), fc.constantFrom("}", ",", "x", "{}", " //", "]", "\u0000", ":", '"', "\\"))
    .map(([text, tail]) => text + tail),
  fc.constantFrom(
    "{",
    "}",
    "[",
    "{'note':'x'}",
    "{note: 1}",
    '{"note": "x",}',
    "NaN",
    "undefined",
    "{} {}",
    '{"a":1}{"b":2}',
    "note=x&scopes=repo",
    '{"note": "\\x"}',
    '{"note": "\\u12"}',
    '{"note": "\n"}',
    '{"note" "x"}',
    "--\r\nContent-Disposition: form-data",
    '{"__proto__": {"x": 1}, "scopes": "repo"}',
    '{"constructor": {"prototype": {"x": 1}}, "scopes": "repo"}',
  ),
);
/** JSON that is not an object: never an empty array, which `POST /admin/events` accepts as zero events. */
const notObject = fc.oneof(
  fc.array(jsonText, { minLength: 1, maxLength: 3 }).map((values) => `[${values.join(",")}]`),
  numberText,
  hostileString.map((s) => JSON.stringify(s)),
  fc.constantFrom("null", "true", "false"),
  deepArray,
);
export const flawedJson = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(decorations, typeFlaw).map(([entries, flaw]) => objectText([...entries, flaw])) },
  { weight: 3, arbitrary: fc.tuple(decorations, scopeFlaw).map(([entries, flaw]) => objectText([...entries, flaw])) },
  { weight: 3, arbitrary: syntaxFlaw },
  { weight: 1, arbitrary: notObject },
);

// Admin ingest bodies: near-valid events and world documents, each with a flaw that refuses the whole batch.

const eventText = fc
  .record(
    {
      id: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String), hugeNumber, hostileString, fc.integer()),
      type: fc.oneof(
        fc.constantFrom("PushEvent", "WatchEvent", "ForkEvent", "MemberEvent", "PublicEvent", "CreateEvent"),
        hostileString,
      ),
      actor: fc.oneof(
        fc.record({ login: fc.oneof(fc.constantFrom("alice", "intruder", "root"), hostileString) }),
        fc.constant(null),
        hostileString,
      ),
      repo: fc.oneof(
        fc.record({
          name: fc.oneof(fc.constantFrom("alice/hello", "alice/secret", "intruder/repo", "/"), hostileString),
        }),
        hostileString,
      ),
      public: fc.oneof(fc.boolean(), hostileString),
      org: fc.record({ login: fc.oneof(fc.constantFrom("acme", "intruder-org"), hostileString) }),
      created_at: fc.oneof(
        fc.constantFrom(
          "2021-07-21T10:00:00Z",
          "9999-12-31T23:59:59Z",
          "0000-01-01T00:00:00Z",
          "+275760-09-13T00:00:00.000Z",
          "2021-02-30T00:00:00Z",
          "2021-07-21T10:00:00+25:00",
        ),
        hostileString,
      ),
    },
    { requiredKeys: [] },
  )
  .chain((envelope) =>
    fc.option(jsonText, { nil: undefined }).map((payload) => {
      const text = JSON.stringify(envelope);
      return payload === undefined ? text : `${text.slice(0, -1)}${text === "{}" ? "" : ","}"payload":${payload}}`;
    }),
  );
/** Each refuses the batch it is in: no object, no id, an id that is an object, a type that is no event type, bad JSON. */
const EVENT_FLAWS = ["42", "null", '"event"', "{}", '{"id":{}}', '{"id":"1","type":"Push Event"}', "{", '{"id": "1",'];
export const adminEventsBody = fc
  .tuple(
    fc.array(eventText, { maxLength: 4 }),
    fc.constantFrom(...EVENT_FLAWS),
    fc.nat(),
    fc.constantFrom("\n", "\r\n", "array"),
  )
  .map(([events, flaw, at, form]) => {
    const items = [...events];
    items.splice(at % (items.length + 1), 0, flaw);
    return form === "array" ? `[${items.join(",")}]` : items.join(form);
  });

const worldText = fc
  .record(
    {
      users: fc.array(
        fc.record(
          {
            login: fc.oneof(fc.constantFrom("intruder", "alice", "root", "ALICE"), hostileString),
            // a password costs a full-strength hash, so few documents carry one
            password: fc.oneof(
              { weight: 1, arbitrary: hostileString },
              { weight: 12, arbitrary: fc.constant(undefined) },
            ),
            otp_secret: fc.oneof(fc.constantFrom("JBSWY3DPEHPK3PXPJBSWY3DP", "JBSWY3DP", "not base32!"), hostileString),
            site_admin: fc.oneof(fc.boolean(), hostileString),
            following: fc.array(hostileString, { maxLength: 2 }),
            watching: fc.array(hostileString, { maxLength: 2 }),
          },
          { requiredKeys: ["login"] },
        ),
        { maxLength: 3 },
      ),
      orgs: fc.array(
        fc.record({
          login: hostileString,
          members: fc.array(fc.constantFrom("alice", "root", "intruder"), { maxLength: 2 }),
        }),
        { maxLength: 2 },
      ),
      repos: fc.array(
        fc.record(
          {
            full_name: fc.oneof(fc.constantFrom("alice/secret", "intruder/repo"), hostileString),
            private: fc.boolean(),
          },
          { requiredKeys: ["full_name"] },
        ),
        { maxLength: 2 },
      ),
      tokens: fc.array(
        fc.record(
          {
            user: fc.oneof(fc.constantFrom("alice", "root", "intruder"), hostileString),
            token: fc.oneof(
              fc.constantFrom(ALICE_TOKEN, ROOT_ADMIN_TOKEN),
              fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString("hex")),
              hostileString,
            ),
            scopes: fc.array(fc.oneof(fc.constantFrom(...SCOPES), hostileString), { maxLength: 3 }),
            note: hostileString,
          },
          { requiredKeys: ["user", "token"] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  )
  .chain((doc) =>
    fc.array(eventText, { maxLength: 2 }).map((events) => {
      const text = JSON.stringify(doc);
      return `${text.slice(0, -1)}${text === "{}" ? "" : ","}"events":[${events.join(",")}]}`;
    }),
  );
/** Checked after users, organizations, repositories, tokens and events: files cannot be seeded over HTTP. */
const WORLD_FLAWS = ['"events_files":["x.ndjson"]', '"issue_events":[42]', '"unknown":1', '"users":{}'];
export const adminWorldBody = fc
  .tuple(worldText, fc.constantFrom(...WORLD_FLAWS))
  .map(([text, flaw]) => `${text.slice(0, -1)},${flaw}}`);

/** Byte sequences that are not UTF-8: stray continuations, overlong forms, surrogates, beyond U+10FFFF, cut short. */
const INVALID_UTF8 = [
  [0x80],
  [0xbf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xc3],
  [0xc3, 0x28],
  [0xe0, 0x80, 0x80],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf0, 0x82, 0x82, 0xac],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0xfe, 0xff],
];
export const invalidUtf8 = fc.oneof(
  fc.constantFrom(...INVALID_UTF8).map((bytes) => Buffer.from(bytes)),
  fc
    .uint8Array({ minLength: 1, maxLength: 6 })
    .map((bytes) => Buffer.from(bytes))
    .filter((bytes) => !isUtf8(bytes)),
);

export interface Body {
  payload: Buffer;
  contentType: string | undefined;
}

/** Body text to bytes, sometimes with invalid UTF-8 spliced in or padded past the body limit (neither repairs a flaw). */
export const encodedBody = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(
      text,
      fc.oneof(
        { weight: 16, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: fc.tuple(invalidUtf8, fc.nat()) },
        { weight: 1, arbitrary: fc.constant("pad" as const) },
      ),
      contentType,
    )
    .map(([json, change, type]): Body => {
      let payload = Buffer.from(json, "utf8");
      if (change === "pad") payload = Buffer.concat([payload, Buffer.alloc(1_100_000, " ")]);
      else if (change) {
        const at = change[1] % (payload.length + 1);
        payload = Buffer.concat([payload.subarray(0, at), change[0], payload.subarray(at)]);
      }
      return { payload, contentType: type };
    });
