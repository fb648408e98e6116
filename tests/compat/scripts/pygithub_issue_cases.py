"""PyGithub (Debian's python3-github), unmodified, acting on issues against a live feedgate:
tests/compat/pygithub-issues.test.ts runs this with the server's URL and the client world's credentials, and checks
each case's result, printed as one JSON line. A case that raises prints its exception instead."""
import os

from cases import case
from github import Github

URL = os.environ["FEEDGATE_URL"]
TOKEN = os.environ["ALICE_TOKEN"]


gh = Github(TOKEN, base_url=URL, per_page=2)
repo = gh.get_repo("alice/hello")


@case("create")
def _():
    issue = repo.create_issue(title="From PyGithub", body="Opened by PyGithub", labels=["bug"], assignees=["alice"])
    return {"number": issue.number, "state": issue.state, "labels": [l.name for l in issue.labels],
            "assignees": [a.login for a in issue.assignees], "user": issue.user.login,
            "created_at_type": type(issue.created_at).__name__}


@case("close-and-reopen")
def _():
    issue = repo.get_issue(1)
    issue.edit(state="closed", title="From PyGithub, closed")
    closed = repo.get_issue(1)
    as_closed = {"state": closed.state, "title": closed.title, "closed_by": closed.closed_by.login}
    closed.edit(state="open")
    return {**as_closed, "reopened": repo.get_issue(1).state}


@case("lock")
def _():
    issue = repo.get_issue(1)
    issue.lock("too heated")
    locked = repo.get_issue(1).locked
    issue.unlock()
    return {"locked": locked, "unlocked": not repo.get_issue(1).locked}


@case("events")
def _():
    return [{"event": e.event, "id_type": type(e.id).__name__, "actor": e.actor.login}
            for e in repo.get_issue(1).get_events()]


@case("list")
def _():
    for n in (2, 3):
        repo.create_issue(title=f"Second page {n}")
    return {"open": [i.number for i in repo.get_issues(state="open", direction="asc")],
            "closed": [i.number for i in repo.get_issues(state="closed")]}
