/**
 * The import rules (.dependency-cruiser.cjs) catch what they are for: `npm run lint` runs them on src/, and here
 * they run on a small tree written to break each one, so a rule that stopped matching would fail this test rather
 * than pass the real tree unseen.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { REPOSITORY } from "../helpers/clone.js";

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Writes `files` into a new tree and returns the rules each import broke, as `rule from -> to`. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-import-rules-"));
  try {
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", strict: true } }),
    );
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const cruise = promisify(execFile)(
      join(REPOSITORY, "node_modules/.bin/depcruise"),
      ["src", "--config", join(REPOSITORY, ".dependency-cruiser.cjs"), "--output-type", "json"],
      { cwd: dir },
    );
    // depcruise exits non-zero when a rule is broken; its report is on stdout either way.
    const { stdout } = await cruise.catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
    return report.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("an upward import, a circle, Node in the wire facts and a config reading the server are each refused", async () => {
  assert.deepEqual(
    await violations({
      "src/api/versions.ts": 'import { readFileSync } from "node:fs";\nexport const v = readFileSync;\n',
      "src/server/store/rows.ts": 'import { rule } from "../services/rules.js";\nexport const rows = rule;\n',
      "src/server/services/rules.ts": "export const rule = 1;\n",
      "src/server/convert/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "src/server/convert/b.ts": 'import type { a } from "./a.js";\nexport const b: typeof a | 1 = 1;\n',
      "src/server/config.ts": 'import { rows } from "./store/rows.js";\nexport const config = rows;\n',
      "src/client/client.ts": 'import { config } from "../server/config.js";\nexport const client = config;\n',
    }),
    [
      "config-imports-nothing-of-the-server src/server/config.ts -> src/server/store/rows.ts",
      // A circle through a type-only import is still a circle; it is reported once, where it closes.
      "no-circular src/server/convert/a.ts -> src/server/convert/b.ts",
      "no-upward-from-foundations src/server/config.ts -> src/server/store/rows.ts",
      "no-upward-from-stores-and-counters src/server/store/rows.ts -> src/server/services/rules.ts",
      "sdk-stands-on-wire-facts src/client/client.ts -> src/server/config.ts",
      "wire-facts-stand-alone src/api/versions.ts -> fs",
    ],
  );
});

test("imports down the layers are allowed", async () => {
  assert.deepEqual(
    await violations({
      "src/api/endpoints.ts": "export const endpoints = [];\n",
      "src/client/client.ts": 'import { endpoints } from "../api/endpoints.js";\nexport const client = endpoints;\n',
      "src/server/store/rows.ts":
        'import { endpoints } from "../../api/endpoints.js";\nexport const rows = endpoints;\n',
      "src/server/services/rules.ts": 'import { rows } from "../store/rows.js";\nexport const rule = rows;\n',
      "src/server/routes/events.ts": 'import { rule } from "../services/rules.js";\nexport const route = rule;\n',
      "src/cli/main.ts": 'import { route } from "../server/routes/events.js";\nexport const main = route;\n',
    }),
    [],
  );
});
