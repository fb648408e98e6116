"""
The same kind of test from Python: PyGithub against `feedgate serve --ephemeral --test-controls`, with the world
file seeded at start and the HTTP controls (/_feedgate/...) resetting, faulting and snapshotting between tests.

    FEEDGATE="npx feedgate" python3 -m unittest examples/testing/python/test_bot.py
"""
import base64
import json
import os
import shlex
import subprocess
import unittest
import urllib.request
from pathlib import Path

from github import Github, GithubException

HERE = Path(__file__).resolve().parent
TOKEN = "0c7ca70000000000000000000000000000000001"  # octocat's, from world.json
ADMIN = ("root", "a-long-admin-password")


class FeedgateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        command = shlex.split(os.environ.get("FEEDGATE", "npx feedgate"))
        cls.server = subprocess.Popen(
            command + ["serve", "--ephemeral", "--test-controls", "--port", "0", "--log-level", "warn",
                       "--seed", str(HERE.parent / "world.json")],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "FEEDGATE_ADMIN": ":".join(ADMIN)})
        # Log lines come first (a warning that the controls are on); then the ready line: {"feedgate":"ready","url":...}
        line = {}
        while line.get("feedgate") != "ready":
            line = json.loads(cls.server.stdout.readline())
        cls.url = line["url"]
        cls.repo = Github(TOKEN, base_url=cls.url).get_repo("octocat/hello-world")

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(10)

    def control(self, method, path, body=None):
        request = urllib.request.Request(self.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read() or "null")

    def ingest(self, events):
        credentials = base64.b64encode(":".join(ADMIN).encode()).decode()
        request = urllib.request.Request(self.url + "/admin/events", method="POST", data=json.dumps(events).encode(),
                                         headers={"content-type": "application/json", "authorization": "Basic " + credentials})
        urllib.request.urlopen(request).close()

    def setUp(self):
        self.control("POST", "/_feedgate/reset")  # every test starts from the world file

    def ids(self):
        return [event.id for event in self.repo.get_events()]

    def test_reads_the_seeded_world(self):
        self.assertEqual(self.ids(), ["1"])

    def test_github_unavailable_once(self):
        self.control("POST", "/_feedgate/faults", {"preset": "unavailable", "path": "/repos/:owner/:repo/events", "times": 1})
        with self.assertRaises(GithubException) as raised:
            self.ids()
        self.assertEqual(raised.exception.status, 502)
        self.assertEqual(self.ids(), ["1"])

    def test_clock_and_snapshots(self):
        self.control("PUT", "/_feedgate/clock", {"now": "2030-01-01T00:00:00Z"})
        snapshot = self.control("POST", "/_feedgate/snapshots")["id"]
        self.ingest([{"id": "2", "type": "WatchEvent", "actor": {"login": "hubot"}, "repo": {"name": "octocat/hello-world"},
                      "payload": {"action": "started"}}])  # no created_at: the server's clock stamps it
        events = list(self.repo.get_events())
        self.assertEqual([event.id for event in events], ["2", "1"])
        self.assertEqual(events[0].created_at.year, 2030)
        self.control("POST", "/_feedgate/snapshots/%s/restore" % snapshot)
        self.assertEqual(self.ids(), ["1"])


if __name__ == "__main__":
    unittest.main()
