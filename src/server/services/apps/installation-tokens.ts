/**
 * Installation tokens (`ghs_`, an hour by the clock): an authorization of the app's bot account whose fine-grained
 * grant is the installation's account, its repositories and the app's permissions there, narrowed as the request
 * asks (`repositories`, `repository_ids`, `permissions`). So every route authorizes them as it does fine-grained
 * tokens, by the endpoint table's permission column, and what they write is the bot's.
 */
import type { AccessLevel, GrantedPermissions, RepositorySelection } from "../../../api/permissions.js";
import type { MintedToken } from "../../convert/app.js";
import { notFound, validationFailed } from "../../errors.js";
import type { AppRow, InstallationRow, RepoRow, Store } from "../../store/store.js";
import { hashToken, mintInstallationToken, mintStatelessInstallationToken } from "../credentials.js";

const HOUR_MS = 60 * 60 * 1000;
const DOCS = "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";
const RANK: Record<AccessLevel | "admin", number> = { read: 1, write: 2, admin: 3 };

export interface Narrowing {
  repositories?: string[];
  repository_ids?: number[];
  permissions?: GrantedPermissions;
}

const invalid = (field: string) => validationFailed([{ resource: "Installation", code: "invalid", field }], DOCS);

export class InstallationTokens {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  /** `stateless`: GitHub's stateless form of the token (`X-GitHub-Stateless-S2S-Token: enabled`). */
  async mint(
    app: AppRow,
    installation: InstallationRow,
    narrowing: Narrowing = {},
    stateless = false,
  ): Promise<MintedToken> {
    if (installation.appId !== app.id) throw notFound();
    const permissions = narrowedPermissions(installation.permissions, narrowing.permissions);
    const repositories = await this.narrowedRepositories(installation, narrowing);
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + HOUR_MS);
    const token = stateless
      ? await mintStatelessInstallationToken(app.id, installation.id, expiresAt)
      : mintInstallationToken();
    const selection: RepositorySelection = repositories ? "subset" : "all";
    const row = await this.store.authorizations.create(
      {
        userId: app.botId,
        hashedToken: hashToken(token),
        tokenLastEight: token.slice(-8),
        scopes: [],
        note: `installation ${installation.id}`,
        noteUrl: null,
        fingerprint: null,
        expiresAt,
        fineGrained: {
          ownerId: installation.accountId,
          repositorySelection: selection,
          repositoryIds: repositories?.map((r) => r.id) ?? [],
          permissions: { ...permissions, metadata: "read" },
          description: null,
          installationId: installation.id,
          rateScale: await this.rateScale(installation),
        },
      },
      now,
    );
    await this.store.apps.linkToken(row.id, installation.id);
    return {
      token,
      expiresAt,
      permissions,
      repositorySelection: repositories ? "selected" : "all",
      repositories,
    };
  }

  /** GitHub's scaling of an installation's rate limit: its repositories over 20, and an organization's members over 20. */
  private async rateScale(installation: InstallationRow): Promise<number> {
    const repositories =
      installation.repositorySelection === "all"
        ? (await this.store.apps.repositoryIdsOf(installation.accountId)).length
        : installation.repositoryIds.length;
    const { members } = await this.store.directory.accountCounts(installation.accountId);
    return Math.max(0, repositories - 20) + Math.max(0, members - 20);
  }

  /** The repositories the token is limited to: those asked for (within the installation's), or its selection. */
  private async narrowedRepositories(installation: InstallationRow, narrowing: Narrowing) {
    const names = narrowing.repositories ?? [];
    const ids = narrowing.repository_ids ?? [];
    if (names.length + ids.length === 0)
      return installation.repositorySelection === "all" ? null : this.byIds(installation.repositoryIds);
    if (names.length + ids.length > 500) throw invalid("repositories");
    const account = await this.store.users.findById(installation.accountId);
    const found: RepoRow[] = [];
    for (const name of names) {
      if (typeof name !== "string") throw invalid("repositories");
      const repo = await this.store.directory.findRepo(account!.login, name.split("/").pop()!);
      if (!repo || !this.covers(installation, repo)) throw invalid("repositories");
      found.push(repo);
    }
    for (const id of ids) {
      if (!Number.isSafeInteger(id) || id <= 0) throw invalid("repository_ids");
      const repo = await this.store.directory.findRepoById(id);
      if (!repo || !this.covers(installation, repo)) throw invalid("repository_ids");
      found.push(repo);
    }
    return found;
  }

  private covers(installation: InstallationRow, repo: RepoRow): boolean {
    if (repo.ownerId !== installation.accountId) return false;
    return installation.repositorySelection === "all" || installation.repositoryIds.includes(repo.id);
  }

  private async byIds(ids: number[]): Promise<RepoRow[]> {
    const repos: RepoRow[] = [];
    for (const id of ids) {
      const repo = await this.store.directory.findRepoById(id);
      if (repo) repos.push(repo);
    }
    return repos;
  }
}

/** The installation's permissions, or those asked for when none is past what the installation has. */
function narrowedPermissions(held: GrantedPermissions, asked: GrantedPermissions | undefined): GrantedPermissions {
  if (asked === undefined) return held;
  if (typeof asked !== "object" || asked === null || Array.isArray(asked)) throw invalid("permissions");
  for (const [name, level] of Object.entries(asked)) {
    const has = held[name as keyof GrantedPermissions];
    if (!has || !(level in RANK) || RANK[level as AccessLevel] > RANK[has]) throw invalid("permissions");
  }
  return asked;
}
