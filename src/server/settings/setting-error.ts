/**
 * A setting given a value it cannot take. Its own class, with no import, so that the settings import nothing of the
 * server's; the CLI prints it as one line, as it does a FeedgateFailure (cli/failure-report.ts).
 */
export class SettingError extends Error {
  override name = "SettingError";
}
