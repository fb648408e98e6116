/**
 * The token form's Expiration choice, as GitHub's "Generate new token" page offers it: 7, 30, 60 or 90 days, a custom
 * date, or no expiration (30 days chosen at first, as there). The choice becomes the API's `expires_at`, so the
 * AuthorizationService applies the same rules (in the future, within `--token-max-lifetime`) to both.
 */
import { InvalidInputError } from "../failures.js";

export const EXPIRATION_CHOICES = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "60", label: "60 days" },
  { value: "90", label: "90 days" },
  { value: "custom", label: "Custom..." },
  { value: "none", label: "No expiration" },
] as const;

export const DEFAULT_EXPIRATION = "30";

const DAY_MS = 86_400_000;

/**
 * The `expires_at` a posted form asks for: undefined when the form has no choice (the API's default then applies),
 * null for none, else an ISO time. A custom date ends at the start of that day, UTC, the zone the list shows.
 */
export function expiresAtOf(choice: string | null, customDate: string | null, now: Date): string | null | undefined {
  if (choice === null || choice === "") return undefined;
  if (choice === "none") return null;
  if (choice === "custom") {
    if (!customDate || !/^\d{4}-\d{2}-\d{2}$/.test(customDate)) {
      throw new InvalidInputError("Choose the date a custom expiration ends on", { field: "expires_at" });
    }
    return `${customDate}T00:00:00Z`;
  }
  const days = EXPIRATION_CHOICES.find((c) => c.value === choice && /^\d+$/.test(c.value));
  if (!days)
    throw new InvalidInputError(`Expiration must be one of the choices offered, got "${choice.slice(0, 20)}"`, {
      field: "expires_at",
    });
  return new Date(now.getTime() + Number(days.value) * DAY_MS).toISOString();
}
