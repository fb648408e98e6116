/** The services of what CI reports of a commit (statuses, check runs and suites), over one CommitReports. */
import type { ActionParts } from "../actions/acting.js";
import type { CommitService } from "../git/commits.js";
import { RepositoryCode } from "../git/repository-code.js";
import { CommitReports } from "./commit-reports.js";
import { CommitStatusService } from "./commit-statuses.js";

export interface CheckServices {
  statuses: CommitStatusService;
}

export function checkServices(parts: ActionParts, commits: CommitService): CheckServices {
  const reports = new CommitReports(parts, new RepositoryCode(parts.store, parts.feeds, parts.clock), commits);
  return { statuses: new CommitStatusService(parts, reports) };
}
