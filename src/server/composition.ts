/**
 * The composition root: every service of one app, made in one place from the config, the store, the clock and the
 * counters, with the background jobs they run and one lifecycle for them. buildApp (./app.ts) registers the
 * pipeline and the routes from this bag and makes nothing itself.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./config.js";
import type { Store } from "./store/store.js";
import { RememberingStore } from "./store/remembering-store.js";
import { MemoryWindowCounters, type WindowCounters } from "./counters/counters.js";
import { type Clock, ManualClock, wallClock } from "./clock.js";
import { AppJwtVerifier } from "./services/apps/app-jwt.js";
import { AppService } from "./services/apps/app-service.js";
import { Authenticator } from "./services/authenticator.js";
import { AuthorizationService } from "./services/authorizations.js";
import { CredentialRevocationService } from "./services/credential-revocation.js";
import { FineGrainedTokenService } from "./services/fine-grained-tokens.js";
import { EntryPointService } from "./services/entry-points.js";
import { type GraphqlRunner, graphqlOnUse } from "./graphql/graphql-on-use.js";
import { FeedService } from "./services/feeds.js";
import { IngestService } from "./services/ingest.js";
import { HookService } from "./services/hooks.js";
import { AppHookService } from "./services/apps/app-hook.js";
import { IssueService } from "./services/actions/issues.js";
import { pullServices, type PullServices } from "./services/pulls/pull-services.js";
import { IssueSearchService } from "./services/search/issue-search.js";
import { CallerIssueService } from "./services/search/caller-issues.js";
import { CommentService } from "./services/actions/comments.js";
import { ReactionService } from "./services/actions/reactions.js";
import { ActivityService } from "./services/actions/activity.js";
import { LabelService } from "./services/actions/labels.js";
import { codeServices, type CodeServices } from "./services/git/code-services.js";
import { checkServices, type CheckServices } from "./services/checks/check-services.js";
import { releaseServices, type ReleaseServices } from "./services/releases/release-services.js";
import { CommitCommentService } from "./services/commit-comments/commit-comments.js";
import { BranchProtectionService } from "./services/protection/branch-protection.js";
import { MilestoneService } from "./services/actions/milestones.js";
import { AssigneeService } from "./services/actions/assignees.js";
import { RepositoryService } from "./services/actions/repositories.js";
import { ForkService } from "./services/actions/forks.js";
import { RepositoryListService } from "./services/actions/repository-lists.js";
import { CollaboratorService } from "./services/actions/collaborators.js";
import { InvitationService } from "./services/actions/invitations.js";
import { SessionService } from "./services/sessions.js";
import { oauthServices, type OAuthServices } from "./services/oauth/oauth.js";
import { Retention } from "./services/retention.js";
import { StalePages } from "./services/stale-pages.js";
import { TestControls } from "./services/test-controls.js";
import { FaultList } from "./services/faults.js";
import { webhooks, type Webhooks } from "./webhooks/webhooks.js";
import type { SecretBox } from "./webhooks/secret-box.js";
import { ManifestFlow } from "./services/apps/manifest-flow.js";
import { DeveloperSettings } from "./services/apps/developer-settings.js";
import { StreamHub } from "./streams/hub.js";
import { Metrics } from "./metrics.js";
import { requestId } from "./request-id.js";
import { RepeatedAnswers } from "./repeats/repeated-answers.js";
import { loadAssets, type ConsoleAssets } from "./console/assets.js";

export interface ServiceInputs {
  config: Config;
  /** The database itself; the services see it through what it remembers (`remembering`). */
  store: Store;
  /**
   * The one clock every rule reads; the wall clock by default. A ManualClock (the test double's) also sets the `Date`
   * header, and its moves wake the background jobs. Under `--test-controls` one is made when none is given.
   */
  clock?: Clock | ManualClock;
  counters?: WindowCounters;
  /** Given when `/metrics` is also served elsewhere (`--metrics-port`); otherwise made here. */
  metrics?: Metrics;
  log: FastifyBaseLogger;
  /** The app's `listeningOrigin`, which throws until it listens: the base of webhook bodies without `--base-url`. */
  listeningOrigin: () => string;
  /** false: no answer is repeated (./repeats/), every request takes the whole pipeline. */
  repeatAnswers?: boolean;
  /** What webhook secrets are sealed with, when the caller sealed some already (the test double's world); else made. */
  secrets?: SecretBox;
}

/** Jobs that run outside requests while the app is ready: started when it is, stopped when it closes. */
export interface Background {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The services of one app: what its plugins and routes are registered with. */
export interface Services {
  config: Config;
  clock: Clock;
  /** The test double's clock (or the one `--test-controls` made): tests set and advance it. */
  manualClock: ManualClock | undefined;
  /** The database itself, for what runs outside requests. */
  database: Store;
  /** Kept current request by request (plugins/store-version.ts). */
  remembering: RememberingStore;
  /** The database through what it remembers: what the services read. */
  store: Store;
  counters: WindowCounters;
  metrics: Metrics;
  /** Present on test instances only (`--test-controls`, `feedgate/testing`), as is `testControls`. */
  faults: FaultList | undefined;
  testControls: TestControls | undefined;
  stalePages: StalePages;
  repeatedAnswers: RepeatedAnswers;
  authenticator: Authenticator;
  /** GitHub Apps' JWTs, verified once per token until it expires. */
  appJwt: AppJwtVerifier;
  apps: AppService;
  /** GitHub's manifest flow: the console's confirmation and the conversion route. */
  manifests: ManifestFlow;
  /** The console's Developer settings. */
  developerSettings: DeveloperSettings;
  authorizations: AuthorizationService;
  fineGrainedTokens: FineGrainedTokenService;
  credentialRevocation: CredentialRevocationService;
  feeds: FeedService;
  streams: StreamHub;
  entryPoints: EntryPointService;
  graphql: GraphqlRunner;
  webhooks: Webhooks;
  ingest: IngestService;
  hooks: HookService;
  appHook: AppHookService;
  issues: IssueService;
  /** Pull requests, their merges, reviewers and reviews. */
  pulls: PullServices;
  issueSearch: IssueSearchService;
  callerIssues: CallerIssueService;
  comments: CommentService;
  reactions: ReactionService;
  activity: ActivityService;
  labels: LabelService;
  /** Git data and contents: objects, refs, files (services/git/). */
  code: CodeServices;
  /** What CI reports of a commit: statuses, check runs and suites. */
  checks: CheckServices;
  /** Releases and their assets. */
  releases: ReleaseServices;
  /** Comments on a repository's commits. */
  commitComments: CommitCommentService;
  /** Branches' protection rules. */
  branchProtection: BranchProtectionService;
  collaborators: CollaboratorService;
  invitations: InvitationService;
  milestones: MilestoneService;
  assignees: AssigneeService;
  repositories: RepositoryService;
  forks: ForkService;
  repositoryLists: RepositoryListService;
  sessions: SessionService;
  /** OAuth apps: registration, the web flow, the device flow. */
  oauth: OAuthServices;
  consoleAssets: ConsoleAssets;
  background: Background;
}

/** The log levels at which Fastify logs every request. */
const LOGS_REQUESTS = new Set(["trace", "debug", "info"]);

/** The movable clock of a test instance: the one given, or under `--test-controls` one started at the given time. */
function manualClockOf(config: Config, given: Clock | ManualClock): ManualClock | undefined {
  if (given instanceof ManualClock) return given;
  return config.testControls ? new ManualClock(given(), true) : undefined;
}

export function makeServices({
  config,
  store: database,
  clock: givenClock = wallClock,
  counters = new MemoryWindowCounters(),
  metrics = new Metrics(database),
  log,
  listeningOrigin,
  repeatAnswers = true,
  secrets,
}: ServiceInputs): Services {
  const manualClock = manualClockOf(config, givenClock);
  const clock: Clock = manualClock?.now ?? (givenClock as Clock);
  const remembering = new RememberingStore(database);
  const store = remembering.store;
  const faults = config.testControls ? new FaultList() : undefined;

  const stalePages = new StalePages(config.feeds.staleIfErrorMs, config.feeds.cacheBytes, clock);
  const authenticator = new Authenticator({
    store,
    counters,
    lockout: config.loginLockout,
    loginFailures: metrics.loginFailures,
  });
  const repeatedAnswers = new RepeatedAnswers(
    {
      clock,
      version: () => remembering.refresh(true),
      receivedVersion: (userId) => store.events.receivedVersion(userId),
      counters,
      dateHeader: manualClock !== undefined,
      requestId,
      duration: metrics.requestDuration,
      repeated: metrics.repeatedAnswers,
      bypassed: () => faults !== undefined && faults.size > 0,
    },
    repeatAnswers && !LOGS_REQUESTS.has(log.level),
  ); // a logged request is logged by Fastify: none is answered around it

  const expiry = { maxLifetimeMs: config.tokenMaxLifetimeMs };
  const feeds = new FeedService({
    store,
    caps: config.feeds,
    clock,
    version: () => remembering.version,
    cacheRequests: metrics.feedCacheRequests,
  });
  metrics.feedCacheSize(() => feeds.cacheSize);
  const entryPoints = new EntryPointService(store, feeds);
  const streams = new StreamHub({
    events: store.events,
    remembering,
    feeds,
    authenticator,
    options: config.streams,
    log,
    metrics: { open: metrics.openStreams, resumed: metrics.streamsResumed, gaps: metrics.streamGaps },
    clock,
  });
  // The dispatcher reads the database itself: it runs outside requests, where remembered answers are not refreshed.
  const hooks = webhooks({
    config,
    store: database,
    clock,
    log,
    listeningOrigin,
    registry: metrics.registry,
    secrets,
  });
  const ingest = new IngestService(store, clock, {
    eventsIngested: metrics.eventsIngested,
    ingested: () => hooks.dispatcher.wake(),
    options: { webhooks: { maxQueue: config.webhooks.maxQueue } },
  });
  // On the database itself, as the dispatcher: retention runs outside requests.
  const retention = new Retention({
    store: database.retention,
    clock,
    policy: config.retention,
    report: {
      pruned: (kind, count) => metrics.retentionPruned.inc({ kind }, count),
      ran: (at) => metrics.retentionLastRun.set(at.getTime() / 1000),
    },
    log,
  });
  // What every action service shares: the action log, the webhooks it queues, the base of what it makes.
  const actionParts = {
    store,
    feeds,
    clock,
    payloads: hooks.payloads,
    baseUrl: hooks.baseUrl,
    queued: () => hooks.dispatcher.wake(),
    options: { webhooks: { maxQueue: config.webhooks.maxQueue } },
  };
  const oauth = oauthServices(store, clock);
  const code = codeServices(actionParts);
  const pulls = pullServices(actionParts);
  const testControls =
    faults &&
    new TestControls({
      store: database,
      clock: manualClock!,
      counters,
      faults,
      ingest,
      sealSecret: (secret) => hooks.secrets.seal(secret),
      async commitFiles(fullName, login, change) {
        // What a request reads first: a repository deleted, renamed or reset away since is no longer remembered.
        await remembering.refresh();
        const [owner = "", name = ""] = fullName.split("/");
        const repo = await store.directory.findRepo(owner, name);
        const user = await store.users.findByLogin(login);
        if (!repo) throw new RangeError(`commit: no repository "${fullName}"`);
        if (!user) throw new RangeError(`commit: no user "${login}"`);
        return code.contents.commitFiles(repo, user, change);
      },
    });
  if (testControls) hooks.dispatcher.onAttempt((attempt) => testControls.recordAttempt(attempt));

  const manifests = new ManifestFlow(store, clock, (secret) => hooks.secrets.seal(secret));
  return {
    config,
    clock,
    manualClock,
    database,
    remembering,
    store,
    counters,
    metrics,
    faults,
    testControls,
    stalePages,
    repeatedAnswers,
    authenticator,
    appJwt: new AppJwtVerifier(store.apps),
    apps: new AppService(store, clock),
    manifests,
    developerSettings: new DeveloperSettings(store, oauth.apps, manifests),
    authorizations: new AuthorizationService(store, clock, expiry),
    fineGrainedTokens: new FineGrainedTokenService(store, clock, expiry),
    credentialRevocation: new CredentialRevocationService(store),
    feeds,
    streams,
    entryPoints,
    graphql: graphqlOnUse({ entryPoints, pulls: pulls.pulls, code }),
    webhooks: hooks,
    ingest,
    hooks: new HookService({ store, clock, secrets: hooks.secrets, deliveries: hooks.deliveries }),
    appHook: new AppHookService({ store, clock, secrets: hooks.secrets, deliveries: hooks.deliveries }),
    issueSearch: new IssueSearchService(store, feeds),
    callerIssues: new CallerIssueService(store, feeds),
    comments: new CommentService(actionParts),
    reactions: new ReactionService(actionParts),
    activity: new ActivityService(actionParts),
    issues: new IssueService(actionParts),
    pulls,
    labels: new LabelService(actionParts),
    code,
    checks: checkServices(actionParts, code.commits),
    releases: releaseServices(actionParts),
    commitComments: new CommitCommentService(actionParts),
    branchProtection: new BranchProtectionService(actionParts),
    milestones: new MilestoneService(actionParts),
    assignees: new AssigneeService(actionParts),
    repositories: new RepositoryService(actionParts),
    forks: new ForkService(actionParts),
    repositoryLists: new RepositoryListService(store, feeds),
    collaborators: new CollaboratorService(actionParts),
    invitations: new InvitationService(actionParts),
    sessions: new SessionService(store, clock),
    oauth,
    consoleAssets: loadAssets(),
    background: background([hooks.dispatcher, retention], manualClock, testControls, () =>
      oauth.apps.ensureGitHubCli(),
    ),
  };
}

interface Job {
  start(): void;
  /** Something may be due: look now rather than at the next interval. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The jobs started in order once the app is ready, and stopped in the reverse order when it closes. A test's clock
 * moving wakes each (a retry or a prune it brought due runs at once); a test instance then takes the image its
 * resets return to: the database as it stands once the app is ready (a world seeded before it was built, and the
 * registrations every installation has).
 */
function background(
  jobs: Job[],
  clock: ManualClock | undefined,
  controls: TestControls | undefined,
  registerDefaults: () => Promise<void>,
): Background {
  const stopWaking = clock ? jobs.map((job) => clock.onMove(() => job.wake())) : [];
  return {
    async start() {
      // What every installation has (GitHub CLI's OAuth app), before the image a test double's resets return to.
      await registerDefaults();
      for (const job of jobs) job.start();
      await controls?.markStart();
    },
    async stop() {
      for (let i = jobs.length - 1; i >= 0; i--) {
        stopWaking[i]?.();
        await jobs[i]!.stop();
      }
    },
  };
}
