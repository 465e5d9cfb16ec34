#!/usr/bin/env python3
"""A stand-in for the GitHub REST endpoints the Action's comment step uses
(list, create and update issue comments; list a pull request's files; list and
create its review comments), on localhost. Appends each request to LOG as a
JSON line and prints the port it listens on. While the file LOG.fail holds
"METHOD CODE", the next request of that method gets that status (and the file
is removed). A pull request's files are the JSON list in LOG.files. The token
is the workflow's: GET /user is refused (403) and what it posts is by
github-actions[bot]; among the comments others wrote, one by "mallory" starts
with sagelint's marker, as anyone can write.

Usage: fake_github.py LOG
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

LOG = sys.argv[1]
comments = []  # {"id", "body", "user"}
BOT = {"login": "github-actions[bot]", "type": "Bot"}
# Comments by other people come first: two fillers, and one that imitates sagelint's.
OTHERS = [{"id": 1, "body": "LGTM", "user": {"login": "alice", "type": "User"}},
          {"id": 2, "body": "please rebase", "user": {"login": "bob", "type": "User"}},
          {"id": 3, "body": "<!-- sagelint-diff -->\n### sagelint: no new findings",
           "user": {"login": "mallory", "type": "User"}}]
reviews = {}  # pull request path -> [review comment]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def record(self, body):
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "auth": self.headers.get("Authorization"), "body": body}) + "\n")

    def reply(self, code, payload):
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def failing(self):
        try:
            with open(LOG + ".fail", encoding="utf-8") as f:
                method, code = f.read().split()
        except (OSError, ValueError):
            return False
        if method != self.command:
            return False
        os.remove(LOG + ".fail")
        self.reply(int(code), {"message": "refused by the test"})
        return True

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"null")

    def page(self, listing):
        query = parse_qs(urlparse(self.path).query)
        page = int(query.get("page", ["1"])[0])
        per_page = int(query.get("per_page", ["30"])[0])
        self.reply(200, listing[(page - 1) * per_page: page * per_page])

    def do_GET(self):
        self.record(None)
        path = self.path.split("?")[0]
        if path == "/user":  # answered before any failure the test injects for the listings
            self.reply(403, {"message": "Resource not accessible by integration"})
            return
        if self.failing():
            return
        if "/pulls/" in path and path.endswith("/files"):
            try:
                with open(LOG + ".files", encoding="utf-8") as f:
                    self.page(json.load(f))
            except OSError:
                self.page([])
        elif "/pulls/" in path and path.endswith("/comments"):
            self.page(reviews.get(path, []))
        elif "/issues/" in path and path.endswith("/comments"):
            self.page(OTHERS + comments)
        else:
            self.reply(404, {"message": "Not Found"})

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        if self.failing():
            return
        path = self.path.split("?")[0]
        if "/pulls/" in path and path.endswith("/comments"):
            c = dict(body, id=5000 + sum(len(v) for v in reviews.values()), user=BOT)
            reviews.setdefault(path, []).append(c)
            self.reply(201, c)
            return
        c = {"id": 1000 + len(comments), "body": body["body"], "user": BOT}
        comments.append(c)
        self.reply(201, c)

    def do_PATCH(self):
        body = self.read_body()
        self.record(body)
        if self.failing():
            return
        cid = int(self.path.rstrip("/").split("/")[-1])
        for c in comments:
            if c["id"] == cid:
                c["body"] = body["body"]
                self.reply(200, c)
                return
        self.reply(404, {"message": "Not Found"})


server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
