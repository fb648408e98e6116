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
