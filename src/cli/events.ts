/**
 * `feedgate events <feed> [args]`: read a feed over HTTP with the SDK, one JSON line per event. Feeds and
 * their arguments come from the endpoint table, so a new feed there is a new feed here.
 */
import type { Command } from "commander";
import { endpoints } from "../api/endpoints.js";
import type { Params } from "../client/index.js";
import { InvalidInputError } from "../server/failures.js";
import { clientAction, tokenClient, urlOption, type ConnectionOptions } from "./client-options.js";
import type { CliIo } from "./io.js";
import { followLive, isLocalServer, type FeedCall, type FeedItem, type PollPace } from "./follow.js";
import { seconds } from "./seconds.js";

type FeedName = keyof typeof endpoints.events;

interface EventsOptions extends ConnectionOptions {
  page?: string;
  perPage?: string;
  all?: boolean;
  follow?: boolean;
  interval?: string;
  forceInterval?: boolean;
}

/** --interval and --force-interval, checked; they only mean something with --follow. */
function pollPace(options: EventsOptions, url: string): PollPace {
  if (options.interval === undefined) {
    if (options.forceInterval) throw new InvalidInputError("--force-interval needs --interval");
    return { mayPollFaster: false };
  }
  if (!options.follow) throw new InvalidInputError("--interval sets how often --follow polls; add --follow");
  return {
    interval: seconds(options.interval, "--interval"),
    mayPollFaster: Boolean(options.forceInterval) || isLocalServer(url),
  };
}

/** `/repos/:user/:repo/events` -> ["user", "repo"]: the arguments, in path order. */
const argumentsOf = (name: FeedName) => [...endpoints.events[name].path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

const usage = (name: FeedName) => [name, ...argumentsOf(name).map((a) => `<${a}>`)].join(" ");
const FEED_LIST = (Object.keys(endpoints.events) as FeedName[]).map(usage).join("\n  ");

function isFeed(name: string): name is FeedName {
  return Object.hasOwn(endpoints.events, name);
}

/** The path parameters; `owner/repo` may be given as one argument. */
function feedParams(name: FeedName, args: string[]): Record<string, string> {
  const names = argumentsOf(name);
  const values = names.length === 2 && args.length === 1 && args[0]!.includes("/") ? args[0]!.split("/") : args;
  if (values.length !== names.length) throw new InvalidInputError(`usage: feedgate events ${usage(name)}`);
  return Object.fromEntries(names.map((n, i) => [n, values[i]!]));
}

export function eventsCommand(program: Command, io: CliIo): void {
  const printEvent = (event: FeedItem) => io.stdout.write(`${JSON.stringify(event)}\n`);
  urlOption(program.command("events <feed> [args...]").description("print a feed's events as JSON lines, newest first"))
    .option("--token <token>", "an OAuth token (env FEEDGATE_TOKEN); without one, public events only")
    .option("--page <n>", "page number")
    .option("--per-page <n>", "events per page, at most 100 (default 30)")
    .option("--all", "every page, following the Link header")
    .option(
      "--follow",
      "keep printing each new event once, oldest first: from the server's live stream, or by polling " +
        "with conditional requests when it offers none",
    )
    .option(
      "--interval <seconds>",
      "with --follow, seconds between polls; a server's larger X-Poll-Interval wins, " +
        "except on this machine (127.0.0.1, localhost, ::1)",
    )
    .option("--force-interval", "poll every --interval seconds even when the server asks for longer")
    .addHelpText(
      "after",
      `\nFeeds:\n  ${FEED_LIST}\n\nuser and repo may be given as one argument: getFromRepo octocat/hello-world`,
    )
    .action(
      clientAction(async (feed: string, args: string[], options: EventsOptions) => {
        if (!isFeed(feed)) throw new InvalidInputError(`unknown feed "${feed}"; feeds:\n  ${FEED_LIST}`);
        if (options.follow && (options.page !== undefined || options.all)) {
          throw new InvalidInputError("--follow reads the newest events; it does not combine with --page or --all");
        }
        const params = {
          ...feedParams(feed, args),
          ...(options.perPage === undefined ? {} : { per_page: options.perPage }),
        };
        const client = tokenClient(options, io.env); // checks the URL, with the SDK's own message
        const pace = pollPace(options, client.baseUrl);
        // Every feed takes path parameters, page and per_page and returns events: one call shape serves them all.
        const operation = client.events[feed] as unknown as typeof client.events.get;
        const call = operation as unknown as FeedCall;
        // A live stream when the server offers one, else conditional polling (./follow.ts).
        if (options.follow)
          return followLive(client, operation, params, call, printEvent, (line) => io.stderr.write(line), pace);
        if (options.all) {
          for await (const page of client.paginate(operation, params as Params<typeof operation.endpoint>))
            page.data.forEach(printEvent);
          return;
        }
        const result = await call({ ...params, ...(options.page === undefined ? {} : { page: options.page }) });
        if (!result.notModified) result.data.forEach(printEvent);
      }),
    );
}
