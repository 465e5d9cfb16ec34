#!/usr/bin/env python3
"""Creates or updates the one sagelint comment on a pull request.

The comment is found by the hidden marker the markdown diff output starts
with, so every push updates it in place instead of adding a new one.

Usage: action-comment.py BODY_FILE
Environment: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), SAGELINT_PR (the
pull request number), GITHUB_API_URL (default https://api.github.com).
"""
import json
import os
import sys
import urllib.error
import urllib.request

MARKER = "<!-- sagelint-diff -->"


def request(method, url, token, body=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Accept", "application/vnd.github+json")
    req.add_header("X-GitHub-Api-Version", "2022-11-28")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        text = resp.read().decode("utf-8")
        return json.loads(text) if text else None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: action-comment.py BODY_FILE")
    with open(sys.argv[1], encoding="utf-8") as f:
        body = f.read()
    token = os.environ.get("GITHUB_TOKEN", "")
    repo = os.environ.get("GITHUB_REPOSITORY", "")
    pr = os.environ.get("SAGELINT_PR", "")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    if not token or not repo or not pr.isdigit():
        sys.exit("action-comment.py: GITHUB_TOKEN, GITHUB_REPOSITORY and SAGELINT_PR are needed")
    if not body.startswith(MARKER):
        body = MARKER + "\n" + body

    existing = None
    page = 1
    while existing is None:
        url = f"{api}/repos/{repo}/issues/{pr}/comments?per_page=100&page={page}"
        comments = request("GET", url, token) or []
        for c in comments:
            if (c.get("body") or "").startswith(MARKER):
                existing = c
                break
        if len(comments) < 100:
            break
        page += 1

    if existing is not None:
        request("PATCH", f"{api}/repos/{repo}/issues/comments/{existing['id']}", token, {"body": body})
        print(f"sagelint: updated comment {existing['id']}")
    else:
        created = request("POST", f"{api}/repos/{repo}/issues/{pr}/comments", token, {"body": body})
        print(f"sagelint: created comment {created.get('id') if created else '?'}")


if __name__ == "__main__":
    try:
        main()
    except urllib.error.HTTPError as e:
        sys.exit(f"action-comment.py: GitHub answered {e.code} {e.reason}")
    except urllib.error.URLError as e:
        sys.exit(f"action-comment.py: cannot reach GitHub: {e.reason}")
