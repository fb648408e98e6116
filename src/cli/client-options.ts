/**
 * What the client commands (`auth`, `events`) share: where the server is, credentials from flags, the
 * environment or a prompt, and one clear line for anything the server or the network said. These commands
 * talk HTTP through the SDK, so they work against any feedgate (or GitHub-compatible server), not a local
 * database.
 */
import type { Command } from "commander";
import { Client, FeedgateError, HttpError, type AuthOptions } from "../client/index.js";
import { FeedgateFailure, InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { readSecret } from "./prompt.js";

/** Generous for one request, yet a hung server does not hang a script forever. */
const TIMEOUT_MS = 30_000;

export interface ConnectionOptions {
  url?: string;
  user?: string;
  token?: string;
}

export function urlOption(command: Command): Command {
  return command.option("--url <url>", "server base URL (env FEEDGATE_URL), e.g. http://127.0.0.1:3000");
}

function serverUrl(options: ConnectionOptions, env: NodeJS.ProcessEnv): string {
  const baseUrl = options.url ?? env.FEEDGATE_URL;
  if (!baseUrl) throw new InvalidInputError("--url (or FEEDGATE_URL) is required");
  return baseUrl;
}

function client(baseUrl: string, auth: AuthOptions | undefined): Client {
  return new Client({
    baseUrl,
    version: "3.0.0",
    auth,
    timeout: TIMEOUT_MS,
    headers: { "User-Agent": "feedgate-cli" },
  });
}

/**
 * Basic auth for managing authorizations. The password and the one-time code come from the environment
 * (FEEDGATE_PASSWORD, FEEDGATE_OTP) or are prompted without echo; the code only when the server asks.
 */
export async function passwordClient(options: ConnectionOptions, io: CliIo): Promise<Client> {
  // Checked first: nobody should type a password only to hear the command was incomplete.
  const baseUrl = serverUrl(options, io.env);
  const username = options.user ?? io.env.FEEDGATE_USER;
  if (!username) throw new InvalidInputError("--user (or FEEDGATE_USER) is required");
  // An empty variable counts as unset: the secret is then read, and refused when empty (prompt.ts).
  const password =
    io.env.FEEDGATE_PASSWORD ||
    (await readSecret(`password for ${username}: `, io, {
      what: "password",
      otherwise: "set FEEDGATE_PASSWORD or pipe the password on standard input",
    }));
  const otp = async () =>
    io.env.FEEDGATE_OTP ||
    (await readSecret("two-factor code: ", io, {
      what: "two-factor code",
      otherwise: "set FEEDGATE_OTP or pipe the code on standard input",
    }));
  return client(baseUrl, { type: "basic", username, password, otp });
}

/** A token for the feeds (--token or FEEDGATE_TOKEN); anonymous without one, which sees public events. */
export function tokenClient(options: ConnectionOptions, env: NodeJS.ProcessEnv): Client {
  const token = options.token ?? env.FEEDGATE_TOKEN;
  return client(serverUrl(options, env), token ? { type: "oauth", token } : undefined);
}

/** `401 Bad credentials`, with a 422's field messages after it. */
export function describeError(error: FeedgateError): string {
  if (!(error instanceof HttpError)) return error.message;
  const details = (error.errors ?? []).map((e) => e.message ?? `${e.field} ${e.code}`);
  return `${error.code} ${error.message}${details.length ? `: ${details.join("; ")}` : ""}`;
}

/** Wraps a command action: SDK failures become one line on stderr and exit status 1, as the operator's mistakes. */
export function clientAction<A extends unknown[]>(
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      throw error instanceof FeedgateError ? new FeedgateFailure(describeError(error)) : error;
    }
  };
}
