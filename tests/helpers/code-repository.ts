/**
 * A repository's history made through the API as a client makes one, for the tests that read it back with git, tar
 * and unzip: files written with the contents API (a long path and a non-ASCII name among them), an executable and a
 * symbolic link through git data, a branch and a merge of it, and an annotated tag of the merge.
 */
import assert from "node:assert/strict";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

export interface CodeHistory {
  /** The merge commit, where main is. */
  main: string;
  /** The annotated tag object of v1.0, which tags the merge. */
  tag: string;
  /** Every commit made, oldest first. */
  commits: string[];
}

/** A request on the socket of `base` with alice's `token`, answering JSON with the status expected. */
export function apiCaller(base: string, token: string) {
  return async (method: string, path: string, body?: unknown, status = 200): Promise<Json> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    assert.equal(res.status, status, `${method} ${path}: ${text}`);
    return text === "" ? {} : (JSON.parse(text) as Json);
  };
}

export const LONG_PATH = `deep/${"d".repeat(70)}/${"f".repeat(60)}.txt`;

export async function makeHistory(call: ReturnType<typeof apiCaller>, fullName: string): Promise<CodeHistory> {
  const repo = `/repos/${fullName}`;
  const put = async (path: string, text: string, branch?: string) =>
    (
      await call(
        "PUT",
        `${repo}/contents/${encodeURI(path)}`,
        { message: `Write ${path}`, content: Buffer.from(text).toString("base64"), ...(branch ? { branch } : {}) },
        201,
      )
    ).commit.sha as string;
  const commits = [await put("README.md", "# hello\n"), await put("docs/guide.md", "Read me first.\n")];
  commits.push(await put(LONG_PATH, "far down\n"), await put("docs/café.md", "non-ASCII\n"));

  // An executable and a link, which only git data writes.
  const base = (await call("GET", `${repo}/git/commits/${commits.at(-1)}`)).tree.sha as string;
  const tree = await call(
    "POST",
    `${repo}/git/trees`,
    {
      base_tree: base,
      tree: [
        { path: "bin/tool.sh", mode: "100755", type: "blob", content: "#!/bin/sh\necho hello\n" },
        { path: "readme-link", mode: "120000", type: "blob", content: "README.md" },
      ],
    },
    201,
  );
  const scripted = await call(
    "POST",
    `${repo}/git/commits`,
    { message: "Add a tool and a link", tree: tree.sha, parents: [commits.at(-1)] },
    201,
  );
  await call("PATCH", `${repo}/git/refs/heads/main`, { sha: scripted.sha });
  commits.push(scripted.sha);

  // A branch with a commit of its own, main moved on meanwhile, and the branch merged: a commit with two parents.
  await call("POST", `${repo}/git/refs`, { ref: "refs/heads/feature", sha: scripted.sha }, 201);
  commits.push(await put("feature.txt", "a feature\n", "feature"));
  commits.push(await put("CHANGES.md", "Changes.\n"));
  const merge = await call("POST", `${repo}/merges`, { base: "main", head: "feature" }, 201);
  commits.push(merge.sha);

  const tag = await call(
    "POST",
    `${repo}/git/tags`,
    { tag: "v1.0", message: "The first", object: merge.sha, type: "commit" },
    201,
  );
  await call("POST", `${repo}/git/refs`, { ref: "refs/tags/v1.0", sha: tag.sha }, 201);
  return { main: merge.sha, tag: tag.sha, commits };
}
