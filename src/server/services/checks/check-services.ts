/** The services of what CI reports of a commit (statuses, check runs and suites), over one CommitReports. */
import type { ActionParts } from "../actions/acting.js";
import type { CommitService } from "../git/commits.js";
import { RepositoryCode } from "../git/repository-code.js";
import { CheckRunService, CheckWrites } from "./check-runs.js";
import { CheckSuiteService } from "./check-suites.js";
import { CommitReports } from "./commit-reports.js";
import { CommitStatusService } from "./commit-statuses.js";

export interface CheckServices {
  statuses: CommitStatusService;
  runs: CheckRunService;
  suites: CheckSuiteService;
}

export function checkServices(parts: ActionParts, commits: CommitService): CheckServices {
  const reports = new CommitReports(parts, new RepositoryCode(parts.store, parts.feeds, parts.clock), commits);
  const writes = new CheckWrites(parts, reports);
  return {
    statuses: new CommitStatusService(parts, reports),
    runs: new CheckRunService(writes),
    suites: new CheckSuiteService(writes),
  };
}
