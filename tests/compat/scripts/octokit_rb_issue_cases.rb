# octokit.rb (Debian's ruby-octokit), unmodified, acting on issues against a live feedgate:
# tests/compat/octokit-rb-issues.test.ts runs this with the server's URL and the client world's credentials, and checks
# each case's result, printed as one JSON line. A case that raises prints its exception instead.
require "json"
require "octokit"

URL = ENV.fetch("FEEDGATE_URL")
REPO = "alice/hello"

def report(name)
  result = begin
    yield
  rescue StandardError => e
    { raised: e.class.name, message: e.message.lines.first.to_s.strip }
  end
  puts JSON.generate({ case: name, result: result })
  $stdout.flush
end

client = Octokit::Client.new(access_token: ENV.fetch("ALICE_TOKEN"), api_endpoint: URL, per_page: 2)
client.auto_paginate = true

report("create") do
  issue = client.create_issue(REPO, "From octokit.rb", "Opened by octokit.rb", labels: "bug,help wanted")
  { number: issue.number, state: issue.state, labels: issue.labels.map(&:name), user: issue.user.login,
    created_at: issue.created_at.class.name }
end

report("close-and-reopen") do
  closed = client.close_issue(REPO, 1)
  reopened = client.reopen_issue(REPO, 1)
  renamed = client.update_issue(REPO, 1, title: "From octokit.rb, renamed")
  { closed: closed.state, closed_by: closed.closed_by.login, reopened: reopened.state, title: renamed.title }
end

report("lock") do
  client.lock_issue(REPO, 1, lock_reason: "off-topic")
  locked = client.issue(REPO, 1)
  client.unlock_issue(REPO, 1)
  { locked: locked.locked, reason: locked.active_lock_reason, unlocked: !client.issue(REPO, 1).locked }
end

report("events") { client.issue_events(REPO, 1).map(&:event) }

report("list") do
  client.create_issue(REPO, "Another")
  client.create_issue(REPO, "And another")
  { all: client.list_issues(REPO, state: "all", direction: "asc").map(&:number),
    labelled: client.list_issues(REPO, labels: "help wanted").map(&:number) }
end

report("comment") do
  made = client.add_comment(REPO, 1, "Seen by octokit.rb")
  client.add_comment(REPO, 1, "And again")
  { body: made.body, user: made.user.login, created_at: made.created_at.class.name,
    listed: client.issue_comments(REPO, 1).map(&:body), comments: client.issue(REPO, 1).comments }
end

report("assign") do
  added = client.add_assignees(REPO, 2, ["alice"])
  removed = client.remove_assignees(REPO, 2, ["alice"])
  { added: added.assignees.map(&:login), removed: removed.assignees.map(&:login),
    events: client.issue_events(REPO, 2).map(&:event) }
end

report("star") do
  starred = client.star(REPO)
  result = { star: starred, starred: client.starred?(REPO), stargazers: client.stargazers(REPO).map(&:login),
             stargazers_count: client.repository(REPO).stargazers_count }
  result.merge(unstar: client.unstar(REPO), unstarred: !client.starred?(REPO),
               after: client.stargazers(REPO).map(&:login))
end

report("fork") do
  made = client.fork(REPO, organization: "acme")
  read = client.repository("acme/hello")
  # bob has a fork in the network already (the client world's): forking again answers it and makes nothing.
  again = Octokit::Client.new(access_token: ENV.fetch("BOB_TOKEN"), api_endpoint: URL).fork(REPO)
  { made: made.full_name, fork: read.fork, parent: read.parent.full_name, source: read.source.full_name,
    owner: read.owner.login, again: [again.full_name, again.fork], forks: client.forks(REPO).map(&:full_name),
    forks_count: client.repository(REPO).forks_count }
end

report("search") do
  bugs = client.search_issues("repo:#{REPO} is:open label:bug")
  found = client.search_issues("repo:#{REPO} is:open", sort: "created", order: "asc")
  { bugs: bugs.total_count, bug_numbers: bugs.items.map(&:number), open: found.total_count,
    numbers: found.items.map(&:number), repository_url: bugs.items.first.repository_url.sub(URL, "") }
end
