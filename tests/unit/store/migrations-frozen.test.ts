/**
 * Released migrations never change (src/server/store/migrations/migration.ts says why), and this test holds them to it,
 * without a database: RELEASED is the SHA-256 of each released migration's SQL per driver, as it was released. Also:
 * each migration is a file `NNN-what.ts` whose number is its id, the ids run 1, 2, 3... with none missing, the list in
 * index.ts is those files in order, and a migration's file imports nothing but the Migration type, so no code outside
 * it can rewrite its SQL.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { migrations, type Migration } from "../../../src/server/store/migrations/index.js";
import { REPOSITORY } from "../../helpers/clone.js";

const DIRECTORY = "src/server/store/migrations";
const THIS_FILE = "tests/unit/store/migrations-frozen.test.ts";

/**
 * SHA-256 (hex) of each released migration's `sqlite` and `postgres` text. A new migration adds its row here once it is
 * final (the failure of "every migration is in RELEASED" prints the row); a row is never edited or removed.
 */
const RELEASED: Record<number, { sqlite: string; postgres: string }> = {
  1: {
    sqlite: "efb996d6e122a7887ae4b6f43fe400c6c9666f827493ae10d01469c709495265",
    postgres: "a607ac4b57ae29f4eee30d211c2a2930da89043dc0e01de48d39c2d1304b65f1",
  },
  2: {
    sqlite: "ee6a4da018bd2f6dd8a931ef5ef864480e0e3ca7a2de6804d29e38994d47f454",
    postgres: "6257b71d7992f3b438f00bf87505cb3b25d3e46ed8d98b79f4a4052cfaa6e6dd",
  },
  3: {
    sqlite: "684fdcbfa70ea87727a7e8bfae46194e606f5ae01f4034a916d30782dc3c0f92",
    postgres: "178960aa4a468f57a680fea123adbedbce717a4a77d069846c9f29604e8e988e",
  },
  4: {
    sqlite: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    postgres: "5b0c3526bc5da93f12be14175272a451bcafb864d04030d58c37b89ab09007ba",
  },
  5: {
    sqlite: "d36e0cf416d050c15b5fdae42d8cf244d9a47961643616ef4804ef9e77b7240f",
    postgres: "459d7809d20910583af0f4cf068eeb5d781afa2331a70e47601f52fe78718bd5",
  },
  6: {
    sqlite: "75dfa96ae23699a2ea3f60eeff1d701ef108b8ed8035a0d7d5b45134a2ebfa4e",
    postgres: "b6505bd9ba05b007c8d76c3be81ede66dcda1e89e2dac8b362921beb4365284c",
  },
  7: {
    sqlite: "8af324a0dcc5dd6aacb28d4daa44b409f5e6f0a047861dc0786c38c47f49e965",
    postgres: "dc8d0e87b4fd02d1baf148b51c5a3d19e160733fac10e3689d39ab5aad91dafc",
  },
  8: {
    sqlite: "4fe1fc27c54875a8386dbd1c7f0ceda8a59e94d384e2e11ae96e806af56bd6be",
    postgres: "0a75ce791353b8f35f045c38ceb5361037b86377f9cf6c9c090205541076866a",
  },
  9: {
    sqlite: "962fe8f4afbf844fcbc3dbe35e4f6b69eaa807d53b3291f6910c31aeff7fc152",
    postgres: "08c03e5d93969ff522f6cf6ebabcc415c1349156c5e8f1129a3ac5774340ea60",
  },
  10: {
    sqlite: "0545336cdf2a0a3c7f829630a773fb86594200644b99f57b718febe0c73fa40a",
    postgres: "0545336cdf2a0a3c7f829630a773fb86594200644b99f57b718febe0c73fa40a",
  },
  11: {
    sqlite: "13640d105050e130ae398ca5c2c42ee374a3d7b9a69453b32fedc0fdbce3369e",
    postgres: "8d8b79da4222dce01f20ffc8df61fb88b945100bc7f5842c37c4fb244aca953b",
  },
  12: {
    sqlite: "f7cd5088b1daf7db6878055493a3341449a525d717c4c830a773de516a3174da",
    postgres: "d3a490c8a7c8781fce6301d7bc49cbb93e5b826396c80c558e5fb3311ac759f7",
  },
  13: {
    sqlite: "8aeb4d989043f1e6227229678f9da5ff652dd468c4b5725d21179ccd20718778",
    postgres: "72c3f934f313249824a52f3d0eba52bbc0a59ab33b2da5ca8421fd84cd4df082",
  },
  14: {
    sqlite: "10215e04e4257f312684b184f8220f4b3339210a990d30126586ead7ad1fa938",
    postgres: "969abe3e082231dd167abbe02d8385ea26fd8829dcd69921c06ba489b90d288b",
  },
  15: {
    sqlite: "64766b41423700038e10ef762c45620c77998660d3c0067afa8c9415dd2f27be",
    postgres: "ab10d2745b552d8ec918ef758218450ebd1d31a8a1b59f5d2973f70bab0dc6ea",
  },
  16: {
    sqlite: "1d71743a62161b7b8ac3475f557af6f8f4125c973676f54249dead25466e6a09",
    postgres: "a1044ef31c8cffb62c6a4de1e201694b282f8920ed60dff646a8757bbfc4d433",
  },
  17: {
    sqlite: "6624730b9005fab091bb177d444a9f9f157643f58c992e1d8abbde193545170a",
    postgres: "631e4e78fdbca1180432dbf6e064e5062940f456d9de48e4e05a710f2896ddde",
  },
  18: {
    sqlite: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    postgres: "a7342129a42d12292597e6d4456e47ab83c6cd707f46a292680ce37be89e3abb",
  },
  19: {
    sqlite: "e4e0a63390b4d065ed1d09edc16d2fb24d16a8aa423c5c9db1784ef44ffa3559",
    postgres: "bbffedbb84412969cb6f947a16a53c9314a264c3ee9a203e7f8f04251a504ad3",
  },
  20: {
    sqlite: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    postgres: "398d000f279cab091a7ff0c745063e5b4fae52d4cb7720f882c14608214c3e31",
  },
  21: {
    sqlite: "67a9486b1afe1a38e25aab7bcf8f1bd156f7703dadf2ee8b5132c093766ed342",
    postgres: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  },
  22: {
    sqlite: "c175feaa2da72c7f0959446d85ba71d19ce9b899408f83bedd99ca35c72ac146",
    postgres: "5e85cde4d9293a1d0298fe29c9c0ef3f813a35ca4066737694355fa731c21b97",
  },
  23: {
    sqlite: "29d7cc04d95503ad0ff8ba6cb0feadf8f0614eda682cc3fc5190d2959e046ab4",
    postgres: "bba83e34a4ca882a07aea85a375a46f667ff357d19a651beddd75e23cd3632a8",
  },
  24: {
    sqlite: "c055e727dfeaeaa717a19687ee60208f386fc8f9402c93dfabdcb6992b958b1c",
    postgres: "7399aeb2c12fe3a896393741330e3c201d55aac65b492c069c1ca365cbff1d7f",
  },
  25: {
    sqlite: "59764fddf67564c0da0d09b6731dbf1067553a0cba17c3a6e867457d8c0feb23",
    postgres: "5d5b4e0c82e09c186279a1ab87fa95bbb741f9160b4bb3bbd62f516f235e7d8a",
  },
  26: {
    sqlite: "af0b90070d6151ebec25a8ea66b7ce7380ee23788ae1e457bfadac550e4596da",
    postgres: "234f6a58fac760889576033f57a07c5c9a53a4a73c67eac9ea5960c01c51419b",
  },
  27: {
    sqlite: "3f72f7363eba539b3f2b9af4046de9a8ee41a3c1283de1092ac57ecabc64ee2e",
    postgres: "6f28e703df1b0ea154c035fdeb249fc373e485648df19dd5a583e1c1d4b1419d",
  },
  28: {
    sqlite: "751c884c8e04a21d4e631a199423729f9158dfc524d0eb6aa32148f30ed821fd",
    postgres: "7a7c6dd153c1c29edd9d6ba1bbbe810d017aee951ba2ad1d7e3fecaeb05252d3",
  },
  29: {
    sqlite: "b4522607ccc627c1f253025e98037dd3e9290398e69aeed50f8686fe8f1e14fa",
    postgres: "513c04617a85e1fadfc3966d2f2f97bdc5f1774ca39b46d55b3e5da45fc712e0",
  },
  30: {
    sqlite: "f0ce1ba97950913a4189733ef451ed24add0e0983c92a75f0a9eb5da120218f3",
    postgres: "a6fe69769215af73e5328161b128fd9f9db144937169c46609159b7c78c2f05a",
  },
  31: {
    sqlite: "4b227ca36d35f4c432bc039702d363d4864651f3d9025fe63d3d7b78a4d27f75",
    postgres: "e07eed0e211b62555311b813b9937e04073903d2274f6a15924f524263bd536e",
  },
  32: {
    sqlite: "85774149a7e5c7b2c26a3526fdf2d410ea2d15491905d85a534a19a2bd4f4237",
    postgres: "ff13fb26fd57c63142089b32ddf221d9dceb0ee6cba96f9f0171abef0403326d",
  },
  33: {
    sqlite: "d03c20445fc067ed13abba25b5baf662a6c5124c3fcd390dc3576d62c89162b4",
    postgres: "4f784a07ff71be52b3b4394cbd6d6e4b88e01db25ade9a644aac7346278963e8",
  },
  34: {
    sqlite: "6c18addc0435ba5e6315b8b43e8b00bddc975cd415599e31ca3a6f47c52820b7",
    postgres: "c9516bd0eb19d3bd30f24aa52159bcc527714794f802eba6d40c226d23140de0",
  },
  35: {
    sqlite: "d4165af298c53a12bf0fc76c8e3f90c6d0b12bb6926c8710bbd022e15ca43f1a",
    postgres: "ac6009dc271b981079fe0bf99ec22ad85e2adce88ee233af41b5b12eb20a7bf3",
  },
  36: {
    sqlite: "157d003d1236250629b3e99ebaf742730e382f0b047caadf31b3ac234fed7841",
    postgres: "1cf48dc962b63fe6f04d0bd5e95563521b756fb2a7afc27aefd48f8c588b41c5",
  },
  37: {
    sqlite: "b9504271d762340755b373cf685c0fbd2e825a4ccbc57c79ab3e91538c721e6d",
    postgres: "e0ed620ce447daef7a36901e9b6e999738d2023c5c0907a4b4acb8015540ffcc",
  },
  38: {
    sqlite: "360235f4a3e4ea1dee36879311d0bfab262b4e0c8274015ac71e754f9132b559",
    postgres: "561236fef7602be925218a57e46f0f4bc1fffd67813d2a9abad0cbcfb6c809e7",
  },
  39: {
    sqlite: "7d330eef89796c57776495aa2365bdead71572546702d5f9930e6d8222995429",
    postgres: "89b95775d2767a063db3afaf62db2ac7be220908fe3449499729342b933c4026",
  },
  40: {
    sqlite: "35d40cf72640f5013694ffbceb58d338211b79c50e0939510a3b87a59ecfd14c",
    postgres: "35d40cf72640f5013694ffbceb58d338211b79c50e0939510a3b87a59ecfd14c",
  },
  41: {
    sqlite: "f8829658e605751ba86d6e1598c648b171c36280632268f5ac124f09d705a184",
    postgres: "48e067a958c151cd2a34c39abbd7d4b772e8dc8e7604fc44462893b3a113a226",
  },
};

const DRIVERS = ["sqlite", "postgres"] as const;
const sha256 = (sql: string) => createHash("sha256").update(sql).digest("hex");
const nnn = (id: number) => String(id).padStart(3, "0");
const MIGRATION_FILE = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/;

/** The migration files, by name, in order. */
const FILES = readdirSync(join(REPOSITORY, DIRECTORY))
  .filter((name) => MIGRATION_FILE.test(name))
  .sort();

function fileOf(id: number): string {
  return FILES.find((name) => name.startsWith(`${nnn(id)}-`)) ?? `${nnn(id)}-?.ts`;
}

function rowFor(migration: Migration): string {
  return `${migration.id}: { sqlite: "${sha256(migration.sqlite)}", postgres: "${sha256(migration.postgres)}" },`;
}

describe("released migrations", () => {
  test("every released migration's SQL is, on each driver, the SQL it was released with", () => {
    const problems = Object.entries(RELEASED).flatMap(([key, released]) => {
      const id = Number(key);
      const migration = migrations.find((m) => m.id === id);
      if (!migration) {
        return [
          `migration ${nnn(id)} is released and is gone from ${DIRECTORY}/index.ts: put it back (databases have ` +
            "applied it, and a fresh one must be made the same way); to undo what it did, write a new migration",
        ];
      }
      return DRIVERS.filter((driver) => sha256(migration[driver]) !== released[driver]).map(
        (driver) =>
          `migration ${nnn(id)} is released; do not edit it, write a new migration. Its ${driver} SQL ` +
          `(${DIRECTORY}/${fileOf(id)}, or a helper it calls) is no longer the SQL databases applied`,
      );
    });
    assert.ok(problems.length === 0, problems.join("\n"));
  });

  test("every migration is in RELEASED", () => {
    const unlisted = migrations.filter((m) => !(m.id in RELEASED));
    assert.ok(
      unlisted.length === 0,
      unlisted
        .map(
          (m) =>
            `migration ${nnn(m.id)} is not in RELEASED (${THIS_FILE}): once it is final, add this row there, after ` +
            `the others:\n  ${rowFor(m)}`,
        )
        .join("\n"),
    );
  });
});

describe("the migration files", () => {
  test("each file's number is its migration's id, the ids run from 1 with none missing, and index.ts lists them in order", async () => {
    const ids: number[] = [];
    for (const name of FILES) {
      const module = (await import(`../../../${DIRECTORY}/${name.replace(/\.ts$/, ".js")}`)) as {
        migration?: Migration;
      };
      const number = Number(MIGRATION_FILE.exec(name)?.[1]);
      assert.equal(module.migration?.id, number, `${name} exports no \`migration\` whose id is ${number}`);
      ids.push(number);
      assert.ok(migrations.includes(module.migration), `${name}'s migration is not in index.ts's list`);
    }
    assert.deepEqual(
      ids,
      ids.map((_, i) => i + 1),
      "migration ids must run 1, 2, 3... with no gap or repeat (the next migration takes the next number)",
    );
    assert.deepEqual(
      migrations.map((m) => m.id),
      ids,
      "index.ts lists every migration file, once, in order of id",
    );
  });

  test("the folder holds migration files, the list and the type, and nothing else", () => {
    const others = readdirSync(join(REPOSITORY, DIRECTORY)).filter(
      (name) => !MIGRATION_FILE.test(name) && name !== "index.ts" && name !== "migration.ts",
    );
    assert.deepEqual(others, [], "a migration's file is NNN-what.ts (three digits, then kebab-case words)");
  });

  test("a migration's file imports nothing but the Migration type, so only its own code makes its SQL", () => {
    const problems = FILES.flatMap((name) => {
      const source = readFileSync(join(REPOSITORY, DIRECTORY, name), "utf8");
      // Imports and re-exports, as Biome writes them: a statement a line.
      const imports = source.split("\n").filter((line) => /^(?:import\b|export\s*(?:\*|\{|type\s*\{))/.test(line));
      const dynamic = /\bimport\s*\(|\brequire\s*\(/.test(source);
      const others = imports.filter((line) => line !== 'import type { Migration } from "./migration.js";');
      if (dynamic) others.push("a module at run time");
      return others.map((line) => `${name}: ${line} (copy what it uses into it, frozen with it)`);
    });
    assert.deepEqual(problems, []);
  });

  test("migration.ts holds types only: nothing in it runs, so nothing shared can make a migration's SQL", async () => {
    const module = await import(`../../../${DIRECTORY}/migration.js`);
    assert.deepEqual(Object.keys(module), []);
  });
});
