// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 26,
  name: "repository settings, and the names a rename leaves",
  // What a repository made or edited through the API keeps (POST /user/repos, PATCH /repos/{o}/{r}). A repository made
  // by a world file or an import keeps answering as it did: a null description and homepage, no default branch (no
  // git data), no projects and no wiki, its times from its stored events (created_at and updated_at null). Its issues
  // were served, so has_issues is true: false is what answers GitHub's 410 on its issue routes.
  // `repo_renames` holds each old name a rename left, so that requests naming it are redirected (GitHub's 301) to the
  // repository; a repository made later with that name takes the name back.
  sqlite: `
      ALTER TABLE repos ADD COLUMN description TEXT;
      ALTER TABLE repos ADD COLUMN homepage TEXT;
      ALTER TABLE repos ADD COLUMN has_issues INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE repos ADD COLUMN has_projects INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE repos ADD COLUMN has_wiki INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE repos ADD COLUMN default_branch TEXT;
      ALTER TABLE repos ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE repos ADD COLUMN created_at TEXT;
      ALTER TABLE repos ADD COLUMN updated_at TEXT;
      CREATE TABLE repo_renames (
        owner_id INTEGER NOT NULL REFERENCES users(id),
        name     TEXT NOT NULL COLLATE NOCASE,
        repo_id  INTEGER NOT NULL REFERENCES repos(id),
        PRIMARY KEY (owner_id, name)
      ) WITHOUT ROWID;
      CREATE INDEX repo_renames_by_repo ON repo_renames (repo_id);
    `,
  postgres: `
      ALTER TABLE repos ADD COLUMN description text;
      ALTER TABLE repos ADD COLUMN homepage text;
      ALTER TABLE repos ADD COLUMN has_issues boolean NOT NULL DEFAULT true;
      ALTER TABLE repos ADD COLUMN has_projects boolean NOT NULL DEFAULT false;
      ALTER TABLE repos ADD COLUMN has_wiki boolean NOT NULL DEFAULT false;
      ALTER TABLE repos ADD COLUMN default_branch text;
      ALTER TABLE repos ADD COLUMN archived boolean NOT NULL DEFAULT false;
      ALTER TABLE repos ADD COLUMN created_at timestamptz;
      ALTER TABLE repos ADD COLUMN updated_at timestamptz;
      CREATE TABLE repo_renames (
        owner_id bigint NOT NULL REFERENCES users(id),
        name     text NOT NULL,
        repo_id  bigint NOT NULL REFERENCES repos(id)
      );
      CREATE UNIQUE INDEX repo_renames_by_owner_name ON repo_renames (owner_id, lower(name));
      CREATE INDEX repo_renames_by_repo ON repo_renames (repo_id);
    `,
};
