/** A flag given in seconds (`--interval 5`, `--progress-every 0.5`): a number above 0, decimals allowed. */
import { InvalidInputError } from "../server/failures.js";

export function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0)) {
    throw new InvalidInputError(`${flag} must be a number of seconds above 0, got "${value}"`);
  }
  return n;
}
