/** A create that names what already exists (a login, a token). */
import { FeedgateFailure } from "../failures.js";

export class DuplicateError extends FeedgateFailure {
  override name = "DuplicateError";
  constructor(what: string) {
    super(`${what} already exists`, { code: "already_exists" });
  }
}
