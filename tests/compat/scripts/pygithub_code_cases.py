"""PyGithub (Debian's python3-github), unmodified, writing and reading code against a live feedgate:
tests/compat/pygithub-code.test.ts runs this with the server's URL and the client world's credentials, and checks
each case's result, printed as one JSON line. A case that raises prints its exception instead."""
import os

from cases import case
from github import Github, GithubException, InputGitTreeElement

URL = os.environ["FEEDGATE_URL"]
TOKEN = os.environ["ALICE_TOKEN"]
BOB_TOKEN = os.environ["BOB_TOKEN"]


gh = Github(TOKEN, base_url=URL)
repo = gh.get_repo("alice/hello")


@case("create-update-read")
def _():
    created = repo.create_file("docs/notes.md", "Add notes", "first\n")
    updated = repo.update_file("docs/notes.md", "More notes", "first\nsecond\n", created["content"].sha)
    read = repo.get_contents("docs/notes.md")
    listing = repo.get_contents("docs")
    return {"created": created["content"].path, "parents": [p.sha for p in updated["commit"].parents],
            "first_commit": created["commit"].sha, "text": read.decoded_content.decode(), "sha": read.sha,
            "listing": [c.path for c in listing]}


@case("stale-sha")
def _():
    try:
        repo.update_file("docs/notes.md", "Stale", "x\n", "0" * 40)
    except GithubException as error:
        return {"status": error.status, "message": error.data.get("message")}
    return {"status": None}


@case("branch-through-git-data")
def _():
    main = repo.get_branch("main")
    base = repo.get_git_commit(main.commit.sha)
    tree = repo.create_git_tree([InputGitTreeElement("VERSION", "100644", "blob", content="2\n")], base.tree)
    commit = repo.create_git_commit("Bump", tree, [base])
    ref = repo.create_git_ref("refs/heads/bump", commit.sha)
    return {"ref": ref.ref, "branches": sorted(b.name for b in repo.get_branches()),
            "on_branch": repo.get_contents("VERSION", ref="bump").decoded_content.decode(),
            "commit_message": repo.get_commit(commit.sha).commit.message,
            "files": [f.filename for f in repo.get_commit(commit.sha).files]}


@case("history-and-delete")
def _():
    notes = repo.get_contents("docs/notes.md")
    repo.delete_file("docs/notes.md", "Drop notes", notes.sha)
    return {"messages": [c.commit.message for c in repo.get_commits()],
            "readme_gone": [c.path for c in repo.get_contents("")]}


@case("archive-link")
def _():
    import gzip
    import urllib.request

    tarball = repo.get_archive_link("tarball", "main")
    zipball = repo.get_archive_link("zipball")
    # The link is fetched as a program handed it would: with the token (feedgate's link carries none of its own).
    request = urllib.request.Request(tarball, headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request) as answer:
        tar = gzip.decompress(answer.read())
    return {"tarball": tarball.replace(URL, ""), "zipball": zipball.replace(URL, ""),
            "pax_comment": tar[512:523].decode()}


@case("pull-review-merge")
def _():
    main = repo.get_branch("main")
    repo.create_git_ref("refs/heads/feature", main.commit.sha)
    repo.create_file("feature.txt", "Add the feature", "on\n", branch="feature")
    pull = repo.create_pull(title="The feature", body="Fixes nothing", base="main", head="feature")
    review = Github(BOB_TOKEN, base_url=URL).get_repo("alice/hello").get_pull(pull.number).create_review(
        body="Looks good", event="APPROVE")
    merged = pull.merge(commit_message="Feature, squashed", merge_method="squash")
    after = repo.get_pull(pull.number)
    head = repo.get_branch("main").commit
    return {"number": pull.number, "files": [f.filename for f in pull.get_files()],
            "review": [review.state, review.user.login], "merged": [merged.merged, after.merged, after.state],
            "main_is_merge": head.sha == merged.sha, "parents": len(head.parents),
            "message": head.commit.message, "reviews": [r.state for r in after.get_reviews()],
            "on_main": repo.get_contents("feature.txt").decoded_content.decode()}
