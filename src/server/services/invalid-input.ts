/** Input an operator or an ingest gave that cannot be used; the message names the entry and says why. */
export class InvalidInputError extends Error {
  override name = "InvalidInputError";
}
