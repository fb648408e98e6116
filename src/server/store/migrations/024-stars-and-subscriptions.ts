// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 24,
  name: "when a star was made, and watching apart from starring",
  // `watches` is GitHub's star (a WatchEvent makes one, and has since 2012): `starred_at` is when it was made through
  // the API, which `application/vnd.github.star+json` answers; stars from imported history leave it null, as history
  // has only the event's time. GitHub's watching (the notifications subscription, `/subscription`) is another relation,
  // with its own two switches: `subscribed` and `ignored`. Migration 6's triggers on `watches` keep raising the
  // received-feed numbers; subscriptions feed no received feed, so they raise none.
  sqlite: `
      ALTER TABLE watches ADD COLUMN starred_at TEXT;
      CREATE TABLE subscriptions (
        user_id    INTEGER NOT NULL REFERENCES users(id),
        repo_id    INTEGER NOT NULL REFERENCES repos(id),
        subscribed INTEGER NOT NULL,
        ignored    INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (user_id, repo_id)
      ) WITHOUT ROWID;
      CREATE INDEX subscriptions_by_repo ON subscriptions (repo_id, user_id);
    `,
  postgres: `
      ALTER TABLE watches ADD COLUMN starred_at timestamptz;
      CREATE TABLE subscriptions (
        user_id    bigint NOT NULL REFERENCES users(id),
        repo_id    bigint NOT NULL REFERENCES repos(id),
        subscribed boolean NOT NULL,
        ignored    boolean NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, repo_id)
      );
      CREATE INDEX subscriptions_by_repo ON subscriptions (repo_id, user_id);
    `,
};
