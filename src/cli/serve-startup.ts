/**
 * What `feedgate serve` does to the store before it listens: the demo account (`--demo`), a world file (`--seed`)
 * and a site administrator (`--admin LOGIN:PASSWORD`, or FEEDGATE_ADMIN), in that order: the demo is made only on a
 * database without users, which the other two would not leave. With `--ephemeral`, this is how a test run's server
 * gets its data and an administrator for `POST /admin/world` and `/admin/events`.
 */
import type { StartupNote } from "../server/startup-notes.js";
import { InvalidInputError } from "../server/failures.js";
import { DEMO_LOGIN, ensureDemoAccount } from "../server/services/demo.js";
import { IngestService } from "../server/services/ingest.js";
import { checkLogin, ensureSiteAdmin } from "../server/services/users.js";
import type { Store } from "../server/store/store.js";
import { seedReport, type WorldFile } from "./world-file.js";
import type { DemoOutcome } from "./demo-banner.js";

/** Read where `--admin` is not given: a variable stays out of the process list (`ps`), where a flag's password shows. */
export const ADMIN_ENV = "FEEDGATE_ADMIN";

export interface AdminCredentials {
  login: string;
  password: string;
}

/**
 * `--admin`'s value, else FEEDGATE_ADMIN's (empty: not given, as for every setting): LOGIN:PASSWORD, the password
 * being everything after the first colon. A bad value is one line naming where it came from, never the value: it
 * holds a password.
 */
export function adminCredentials(flag: string | undefined, env: NodeJS.ProcessEnv): AdminCredentials | undefined {
  const source = flag !== undefined && flag !== "" ? "--admin" : ADMIN_ENV;
  const value = source === "--admin" ? flag : env[ADMIN_ENV];
  if (value === undefined || value === "") return undefined;
  const colon = value.indexOf(":");
  const login = colon === -1 ? "" : value.slice(0, colon);
  const password = colon === -1 ? "" : value.slice(colon + 1);
  if (login === "" || password === "") {
    throw new InvalidInputError("must be LOGIN:PASSWORD with neither part empty, such as root:change-me", {
      field: source,
    });
  }
  try {
    checkLogin(login);
  } catch (error) {
    throw error instanceof InvalidInputError ? new InvalidInputError(error.problem, { field: source }) : error;
  }
  return { login, password };
}

export interface StartupWork {
  demo: boolean;
  /** `--seed`: read (and parsed) before the store is opened, so that a bad file stops the start first. */
  world: (WorldFile & { file: string }) | undefined;
  admin: AdminCredentials | undefined;
}

/** The admin's fate, for the log; its password never is. */
function adminNote(login: string, created: boolean): StartupNote {
  return created
    ? { level: "info", msg: `created site administrator ${login} (--admin)`, fields: { login } }
    : // A warning: a script that passed a new password would otherwise wonder why it is refused.
      {
        level: "warn",
        msg: `--admin: ${login} exists already and was left as it is; the password given was not set`,
        fields: { login },
      };
}

/** The demo account made now, or whether one from an earlier start is there (else other users kept it from being made). */
async function demoOutcome(store: Store, clock: () => Date): Promise<DemoOutcome> {
  const made = await ensureDemoAccount(store, clock);
  return made ? { made } : { made: null, existed: (await store.users.findByLogin(DEMO_LOGIN)) !== null };
}

export async function prepareStore(
  store: Store,
  clock: () => Date,
  work: StartupWork,
  sealSecret: (secret: string) => string,
): Promise<{ demo: DemoOutcome | null; notes: StartupNote[] }> {
  const notes: StartupNote[] = [];
  const demo = work.demo ? await demoOutcome(store, clock) : null;
  if (work.world) {
    const seeded = await new IngestService(store, clock).seedWorld(work.world.doc, {
      baseDir: work.world.baseDir,
      sealSecret,
    });
    notes.push({ level: "info", msg: seedReport(work.world.file, seeded).trim().replace("\n", "; ") });
  }
  if (work.admin)
    notes.push(adminNote(work.admin.login, await ensureSiteAdmin(store, work.admin.login, work.admin.password)));
  return { demo, notes };
}
