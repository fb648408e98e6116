/**
 * `feedgate org member <org> <login> --role owner|member`: an organization's roles, as GitHub has two (an owner
 * manages the organization's hooks, sees its settings and administers its repositories; a member does not). The
 * membership is written as `feedgate seed` writes a world's (`orgs[].owners` / `members`): one path, the same rules.
 */
import type { Command } from "commander";
import { InvalidInputError } from "../server/failures.js";
import { IngestService } from "../server/services/ingest.js";
import { requireUser } from "../server/services/users.js";
import type { CliIo } from "./io.js";
import { storeOptions, withStore } from "./options.js";

const ROLES = ["owner", "member"] as const;

export function orgCommand(program: Command, io: CliIo): void {
  const org = program.command("org").description("manage organizations");

  storeOptions(
    org
      .command("member <org> <login>")
      .description("make a user an organization's owner or member (or change the role)"),
    io.env,
  )
    .option("--role <role>", "owner or member", "member")
    .action(async (orgLogin: string, login: string, options) => {
      const role = options.role as string;
      if (!(ROLES as readonly string[]).includes(role))
        throw new InvalidInputError(`--role must be owner or member, got "${role.slice(0, 20)}"`);
      const [orgName, userName] = await withStore(options, async (store) => {
        const organization = await store.users.findByLogin(orgLogin);
        if (!organization)
          throw new InvalidInputError(
            `no organization "${orgLogin.slice(0, 100)}": \`feedgate seed\` adds organizations`,
          );
        if (organization.type !== "Organization")
          throw new InvalidInputError(`${organization.login} is a user, not an organization`);
        const user = await requireUser(store, login); // a user's login: an organization's is refused there
        const entry = role === "owner" ? { owners: [user.login] } : { members: [user.login] };
        await new IngestService(store, () => new Date()).seedWorld(
          { orgs: [{ login: organization.login, ...entry }] },
          { baseDir: undefined },
        );
        return [organization.login, user.login];
      });
      io.stdout.write(`${userName} is ${role === "owner" ? "an owner" : "a member"} of ${orgName}\n`);
    });
}
