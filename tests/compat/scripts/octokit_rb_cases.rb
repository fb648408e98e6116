# octokit.rb (Debian's ruby-octokit), unmodified, against a live feedgate: tests/compat/octokit-rb.test.ts runs this
# with the server's URL and the client world's credentials, and checks each case's result, printed as one JSON line.
# A case that raises prints its exception instead, so one failure does not hide the others.
require "json"
require "octokit"

URL = ENV.fetch("FEEDGATE_URL")

def report(name)
  result = begin
    yield
  rescue StandardError => e
    { raised: e.class.name, message: e.message.lines.first.to_s.strip }
  end
  puts JSON.generate({ case: name, result: result })
  $stdout.flush
end

def ids(items) = items.map { |item| item.id.to_s }

basic = Octokit::Client.new(login: ENV.fetch("ALICE_LOGIN"), password: ENV.fetch("ALICE_PASSWORD"), api_endpoint: URL)
token = Octokit::Client.new(access_token: ENV.fetch("ALICE_TOKEN"), api_endpoint: URL)

report("version") { Octokit::VERSION.to_s }

report("authorizations") do
  created = basic.create_authorization(scopes: ["repo"], note: "octokit.rb", note_url: "https://example.com/rb")
  fetched = basic.authorization(created.id)
  listed = basic.authorizations.map(&:id)
  updated = basic.update_authorization(created.id, add_scopes: ["gist"], note: "octokit.rb, renamed")
  deleted = basic.delete_authorization(created.id)
  gone = begin
    basic.authorization(created.id)
    nil
  rescue Octokit::NotFound => e
    e.response_status
  end
  { token_prefix: created.token[0, 4], scopes: created.scopes, note: created.note, fetched_same: fetched.id == created.id,
    listed: listed.include?(created.id), updated_scopes: updated.scopes, updated_note: updated.note, deleted: deleted,
    gone: gone }
end

report("two-factor") do
  olga = Octokit::Client.new(login: ENV.fetch("OLGA_LOGIN"), password: ENV.fetch("OLGA_PASSWORD"), api_endpoint: URL)
  refused = begin
    olga.authorizations
    nil
  rescue Octokit::OneTimePasswordRequired => e
    e.password_delivery
  end
  created = olga.create_authorization(scopes: [], note: "olga rb", headers: { "X-GitHub-OTP" => ENV.fetch("OLGA_OTP") })
  { refused: refused, created_note: created.note }
end

report("bad credentials") do
  Octokit::Client.new(login: ENV.fetch("ALICE_LOGIN"), password: "wrong", api_endpoint: URL).authorizations
rescue Octokit::Unauthorized => e
  { status: e.response_status, message: e.message.include?("Bad credentials") }
end

report("entry points") do
  repo = token.repository("alice/hello")
  fork = token.repository("bob/hello")
  stranger = begin
    Octokit::Client.new(api_endpoint: URL).repository("alice/secret")
    nil
  rescue Octokit::NotFound => e
    e.response_status
  end
  { me: token.user.login, user: token.user("bob").login, org: token.organization("acme").login, repo: repo.full_name,
    fork_parent: fork.parent&.full_name, secret_private: token.repository("alice/secret").private, stranger: stranger,
    rate_limit: token.rate_limit.limit }
end

# Each feed on its own, so that one that fails names itself.
def feed
  ids(yield)
rescue StandardError => e
  "#{e.class.name}: #{e.message.lines.first.to_s.strip}"
end

report("feeds") do
  {
    get: feed { token.public_events },
    getFromRepo: feed { token.repository_events("alice/hello") },
    getFromRepoIssues: feed { token.repository_issue_events("alice/hello") },
    getFromRepoNetwork: feed { token.repository_network_events("alice/hello") },
    getFromOrg: feed { token.organization_public_events("acme") },
    getReceived: feed { token.received_events("alice") },
    getReceivedPublic: feed { token.received_public_events("alice") },
    getFromUser: feed { token.user_events("alice") },
    getFromUserPublic: feed { token.user_public_events("alice") },
    getFromUserOrg: feed { token.organization_events("acme") },
  }
end

report("pagination") do
  client = Octokit::Client.new(access_token: ENV.fetch("ALICE_TOKEN"), api_endpoint: URL, per_page: 10)
  first = client.repository_events("alice/hello")
  rels = client.last_response.rels
  last = rels[:last].get.data
  client.auto_paginate = true
  { first: ids(first), next: rels[:next].href.sub(URL, ""), last: ids(last),
    all: ids(client.repository_events("alice/hello")) }
end

report("event fields") do
  event = token.repository_events("alice/hello").first
  issue_event = token.repository_issue_events("alice/hello").first
  { id: event.id, type: event.type, actor: event.actor.login, repo: event.repo.name, public: event.public,
    created_at: event.created_at.utc.iso8601, forkee: event.payload.forkee.full_name,
    issue_event_id: issue_event.id.to_s, issue_event: issue_event.event, issue_number: issue_event.issue.number }
end

report("conditional") do
  token.repository_events("alice/hello")
  etag = token.last_response.headers["etag"]
  token.repository_events("alice/hello", headers: { "If-None-Match" => etag })
  { status: token.last_response.status, poll_interval: token.last_response.headers["x-poll-interval"] }
end
