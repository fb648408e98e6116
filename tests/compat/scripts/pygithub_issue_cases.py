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


@case("comment")
def _():
    issue = repo.get_issue(1)
    made = issue.create_comment("Seen by PyGithub")
    issue.create_comment("And again")
    return {"body": made.body, "user": made.user.login, "id_type": type(made.id).__name__,
            "created_at_type": type(made.created_at).__name__, "issue_url": made.issue_url,
            "listed": [c.body for c in issue.get_comments()], "comments": repo.get_issue(1).comments}


@case("assign")
def _():
    issue = repo.get_issue(2)
    issue.add_to_assignees("alice")
    added = [a.login for a in repo.get_issue(2).assignees]
    issue.remove_from_assignees("alice")
    removed = [a.login for a in repo.get_issue(2).assignees]
    issue.edit(assignees=["alice"])
    return {"added": added, "removed": removed, "edited": [a.login for a in repo.get_issue(2).assignees],
            "events": [e.event for e in issue.get_events()]}


@case("star")
def _():
    me = gh.get_user()
    me.add_to_starred(repo)
    starred = me.has_in_starred(repo)
    stargazers = [u.login for u in repo.get_stargazers()]
    count = gh.get_repo("alice/hello").stargazers_count
    me.remove_from_starred(repo)
    return {"starred": starred, "stargazers": stargazers, "stargazers_count": count,
            "unstarred": not me.has_in_starred(repo), "after": [u.login for u in repo.get_stargazers()]}


@case("fork")
def _():
    made = repo.create_fork(organization="acme")
    read = gh.get_repo("acme/hello")
    # bob has a fork in the network already (the client world's): forking again answers it and makes nothing.
    again = Github(os.environ["BOB_TOKEN"], base_url=URL).get_user().create_fork(repo)
    return {"made": made.full_name, "fork": read.fork, "parent": read.parent.full_name,
            "source": read.source.full_name, "owner": read.owner.login, "again": [again.full_name, again.fork],
            "forks": [r.full_name for r in repo.get_forks()], "forks_count": gh.get_repo("alice/hello").forks_count}


@case("search")
def _():
    bugs = gh.search_issues("repo:alice/hello is:open label:bug")
    found = gh.search_issues("repo:alice/hello is:open", sort="created", order="asc")
    return {"bugs": bugs.totalCount, "bug_numbers": [i.number for i in bugs],
            "open": found.totalCount, "numbers": [i.number for i in found],
            "repository": bugs[0].repository.full_name}
