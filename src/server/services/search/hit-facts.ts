/**
 * The issues a search found, across repositories, with what their objects show: each repository read once and the
 * facts of its issues read together (actions/issue-facts.ts), rather than once per hit. The hits keep their order.
 */
import type { IssueFacts } from "../../convert/issue.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import type { IssueRow, RepoRow, Store } from "../../store/store.js";
import { issueFacts } from "../actions/issue-facts.js";

/** A hit: the issue's facts and its repository. */
export interface Hit {
  facts: IssueFacts;
  repo: RepoRow;
}

export async function hitFacts(store: Store, rows: IssueRow[]): Promise<Hit[]> {
  const byRepo = new Map<number, IssueRow[]>();
  for (const row of rows) byRepo.set(row.repoId, [...(byRepo.get(row.repoId) ?? []), row]);
  const found = new Map<number, Hit>();
  for (const [repoId, issues] of byRepo) {
    const repo = (await store.directory.findRepoById(repoId))!;
    for (const facts of await issueFacts(store, repo, issues)) found.set(facts.issue.id, { facts, repo });
  }
  return rows.map((row) => found.get(row.id)!);
}

/** What the repository objects of these hits show (owner, counts), read once per repository. */
export async function hitRepositories(store: Store, hits: Hit[]): Promise<Map<number, RepositoryFacts>> {
  const repositories = new Map<number, RepositoryFacts>();
  for (const { repo } of hits) {
    if (repositories.has(repo.id)) continue;
    const owner = (await store.users.findById(repo.ownerId))!;
    repositories.set(repo.id, { repo, owner, stats: await store.directory.repoStats(repo.id) });
  }
  return repositories;
}
