"""PyGithub (Debian's python3-github), unmodified, against a live feedgate: tests/compat/pygithub.test.ts runs this
with the server's URL and the client world's credentials, and checks each case's result, printed as one JSON line.
A case that raises prints its exception instead, so one failure does not hide the others."""
import os
import sys

import github
from cases import case
from github import Github

URL = os.environ["FEEDGATE_URL"]
ALICE = (os.environ["ALICE_LOGIN"], os.environ["ALICE_PASSWORD"])
OLGA = (os.environ["OLGA_LOGIN"], os.environ["OLGA_PASSWORD"])
TOKEN = os.environ["ALICE_TOKEN"]


def ids(items):
    return [str(item.id) for item in items]


basic = Github(ALICE[0], ALICE[1], base_url=URL)
token = Github(TOKEN, base_url=URL, per_page=30)


@case("version")
def _():
    import importlib.metadata
    return importlib.metadata.version("PyGithub")


# Authorizations: every operation PyGithub 1.55 has, with Basic auth.
@case("authorizations")
def _():
    me = basic.get_user()
    created = me.create_authorization(scopes=["repo"], note="pygithub", note_url="https://example.com/app")
    # edit() updates the object in place: what create answered is read first.
    as_created = {
        "id_type": type(created.id).__name__, "token_prefix": created.token[:4], "scopes": created.scopes,
        "note": created.note, "note_url": created.note_url, "app_name": created.app.name,
        "created_at_type": type(created.created_at).__name__,
    }
    fetched = me.get_authorization(created.id)
    listed = [a.id for a in me.get_authorizations()]
    created.edit(add_scopes=["gist"], note="pygithub, renamed")
    after_edit = me.get_authorization(created.id)
    created.delete()
    gone = None
    try:
        me.get_authorization(created.id)
    except github.UnknownObjectException as error:
        gone = error.status
    return {
        **as_created, "fetched_same": fetched.id == created.id, "listed": created.id in listed,
        "edited_scopes": after_edit.scopes, "edited_note": after_edit.note, "gone": gone,
    }


# Two-factor: PyGithub sends the one-time password on create; a call without it is a TwoFactorException.
@case("two-factor")
def _():
    olga = Github(OLGA[0], OLGA[1], base_url=URL)
    created = olga.get_user().create_authorization(scopes=[], note="olga 2fa", onetime_password=os.environ["OLGA_OTP"])
    refused = None
    try:
        list(olga.get_user().get_authorizations())
    except github.TwoFactorException as error:
        refused = error.status
    return {"created_note": created.note, "refused": refused}


@case("bad credentials")
def _():
    try:
        list(Github(ALICE[0], "wrong", base_url=URL).get_user().get_authorizations())
    except github.BadCredentialsException as error:
        return {"status": error.status, "message": error.data["message"]}


# The entry points PyGithub reaches the feeds through.
@case("entry points")
def _():
    me = token.get_user()
    user = token.get_user("bob")
    org = token.get_organization("acme")
    repo = token.get_repo("alice/hello")
    fork = token.get_repo("bob/hello")
    secret = token.get_repo("alice/secret")
    stranger_sees_secret = None
    try:
        Github(base_url=URL).get_repo("alice/secret")
    except github.UnknownObjectException as error:
        stranger_sees_secret = error.status
    return {
        "me": me.login, "me_type": me.type, "user": user.login, "user_id_type": type(user.id).__name__,
        "org": org.login, "repo": repo.full_name, "repo_private": repo.private, "owner": repo.owner.login,
        "fork": fork.fork, "parent": fork.parent.full_name if fork.parent else None,
        "secret_private": secret.private, "permissions_admin": secret.permissions.admin,
        "stranger_sees_secret": stranger_sees_secret, "rate_limit": token.get_rate_limit().core.limit,
    }


# Every feed PyGithub exposes, first page (30) in its own paging.
def first_page(paginated):
    """One feed's first page; a feed that raises says so in its own entry, so that it names itself."""
    try:
        return ids(paginated.get_page(0))
    except Exception as error:
        return f"{type(error).__name__}: {error}"


@case("feeds")
def _():
    me = token.get_user()
    alice = token.get_user("alice")
    repo = token.get_repo("alice/hello")
    return {
        "get": first_page(token.get_events()),
        "getFromRepo": first_page(repo.get_events()),
        "getFromRepoIssues": first_page(repo.get_issues_events()),
        "getFromRepoNetwork": first_page(repo.get_network_events()),
        "getFromOrg": first_page(token.get_organization("acme").get_events()),
        "getReceived": first_page(alice.get_received_events()),
        "getReceivedPublic": first_page(alice.get_public_received_events()),
        "getFromUser": first_page(alice.get_events()),
        "getFromUserPublic": first_page(alice.get_public_events()),
        "getFromUserOrg": first_page(me.get_organization_events(token.get_organization("acme"))),
    }


# Its own pagination: iterating follows Link to the end; reversed starts from rel="last". (`reversed` is read at the
# default page size: with another, PyGithub 1.55 appends `?per_page=N` to the last page's URL, which already has a
# query, and sends `page=5?per_page=10`; GitHub read the leading digits, feedgate holds to the spec's digits-only 422.)
@case("pagination")
def _():
    paged = Github(TOKEN, base_url=URL, per_page=10).get_repo("alice/hello").get_events()
    reversed_events = token.get_repo("alice/hello").get_events().reversed
    return {"all": ids(paged), "reversed_first": ids(reversed_events)[:3], "page_2": ids(paged.get_page(1))}


# The model objects' fields.
@case("event fields")
def _():
    event = token.get_repo("alice/hello").get_events()[0]
    issue_event = token.get_repo("alice/hello").get_issues_events()[0]
    return {
        "id": event.id, "type": event.type, "actor": event.actor.login, "repo": event.repo.name,
        "public": event.public, "created_at": event.created_at.isoformat(), "payload": event.payload,
        "issue_event_id": issue_event.id, "issue_event_type": type(issue_event.id).__name__,
        "issue_event_event": issue_event.event, "issue_number": issue_event.issue.number,
        "issue_event_actor": issue_event.actor.login,
    }


# Conditional requests: update() sends the ETag back; an unchanged resource is a 304 and nothing changes.
@case("conditional")
def _():
    repo = token.get_repo("alice/hello")
    user = token.get_user("bob")
    return {"repo_changed": repo.update(), "user_changed": user.update(), "etag": bool(repo.etag)}


sys.exit(0)
