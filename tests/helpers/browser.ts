/**
 * Debian's Chromium driven by playwright-core, for the console's browser tests. Outside CI, without Chromium, the
 * tests report themselves skipped with the reason; under CI they fail (skipOutsideCi), as missing servers do.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { skipOutsideCi } from "./services.js";

export const CHROMIUM = process.env.FEEDGATE_TEST_CHROMIUM ?? "/usr/bin/chromium";

export const browserSkip = () => skipOutsideCi(existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`);

export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  // Chromium's sandbox refuses to run as root (containers, CI).
  return chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
}

/**
 * Where a test writes the screenshot `name` (`console-tokens.png`): into docs/, which shows it, only when
 * FEEDGATE_SCREENSHOTS=1 asks to update them; else into a temporary folder, so that `npm test` leaves the working tree
 * as it found it (every run's screenshot differs: a new token, port and time).
 */
export function screenshotPath(name: string): string {
  if (process.env.FEEDGATE_SCREENSHOTS === "1") return join("docs", name);
  screenshots ??= mkdtempSync(join(tmpdir(), "feedgate-screenshots-"));
  return join(screenshots, name);
}
let screenshots: string | undefined;

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical violations on the page, as "rule: target" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a script element: the console's CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(AXE, "utf8"));
  const results = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return results
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
}

/** Collects CSP violations and console errors a page reports. */
export async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (message) => {
    // A page answered 401 or 422 (a refused password, a refused form) is the test's doing, not a fault.
    if (message.type() === "error" && !/status of (401|422)\b/.test(message.text()))
      seen.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective}`),
    );
  });
  return seen;
}
