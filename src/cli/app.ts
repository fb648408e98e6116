/**
 * `feedgate app create <name> --owner <login> --private-key-file <path>`: registers a GitHub App, prints its id, slug
 * and client id, and writes its private key (PKCS#8 PEM) to the file named, readable by its owner only; feedgate keeps
 * the public key. `feedgate app install <app-id> <account> [--repository <name>...]`: installs it on an account.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { isPermissionName, type GrantedPermissions } from "../api/permissions.js";
import { InvalidInputError } from "../server/failures.js";
import { AppRegistry } from "../server/services/apps/app-registry.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `issues=write` flags as GitHub's permissions object. */
function permissionsOf(flags: string[]): GrantedPermissions {
  const permissions: Record<string, string> = {};
  for (const flag of flags) {
    const [name = "", level = ""] = flag.split("=", 2);
    if (!isPermissionName(name) || (level !== "read" && level !== "write"))
      throw new InvalidInputError(`--permission must be NAME=read or NAME=write, got "${flag.slice(0, 40)}"`);
    permissions[name] = level;
  }
  return permissions as GrantedPermissions;
}

export function appCommand(program: Command, io: CliIo): void {
  const app = program.command("app").description("manage GitHub Apps and their installations");

  storeOptions(app.command("create <name>").description("register a GitHub App and write its private key"), io.env)
    .requiredOption("--owner <login>", "the account that owns the app")
    .requiredOption("--private-key-file <path>", "where to write the app's private key (PEM)")
    .option("--permission <name=level>", "a permission the app asks for (repeatable)", collect, [])
    .option("--event <name>", "a webhook event the app subscribes to (repeatable)", collect, [])
    .action(async (name: string, options) => {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const permissions = permissionsOf(options.permission as string[]);
      const made = await withStore(options, async (store) => {
        if (!(await store.users.findByLogin(options.owner as string)))
          throw new InvalidInputError(`no account "${String(options.owner).slice(0, 100)}"`);
        return new AppRegistry(store, () => new Date()).register({
          name,
          owner: options.owner as string,
          key: pem,
          permissions,
          events: options.event as string[],
        });
      });
      await writeFile(options.privateKeyFile as string, pem, { mode: 0o600 });
      io.stdout.write(`id ${made.id}\nslug ${made.slug}\nclient id ${made.clientId}\n`);
    });

  storeOptions(app.command("install <app-id> <account>").description("install a GitHub App on an account"), io.env)
    .option("--repository <name>", "install on this repository only (repeatable); all of them by default", collect, [])
    .action(async (appId: string, account: string, options) => {
      const repositories = options.repository as string[];
      const installation = await withStore(options, async (store) => {
        const found = /^\d+$/.test(appId) ? await store.apps.byId(Number(appId)) : null;
        if (!found) throw new InvalidInputError(`no app with id "${appId.slice(0, 20)}"`);
        if (!(await store.users.findByLogin(account)))
          throw new InvalidInputError(`no account "${account.slice(0, 100)}"`);
        return new AppRegistry(store, () => new Date()).install(
          found,
          account,
          repositories.length ? repositories : "all",
        );
      });
      io.stdout.write(`installation ${installation.id}\n`);
    });
}
