#!/usr/bin/env python3
"""Creates or updates the one sagelint comment on a pull request.

The comment is found by the hidden marker the markdown diff output starts
with, so every push updates it in place instead of adding a new one. This is
the only step of the Action that holds the GitHub token.

- A body longer than GitHub accepts (65,536 characters) is cut at a line,
  with a note (sagelint's markdown already stays within the limit).
- A post GitHub refuses for lack of permission (a fork's read-only token:
  403) is a warning; the findings are still in the annotations and SARIF.
- Any other failure fails the step, after marking the previous comment (if
  any) as out of date, so that a stale comment never stands for this push.

Usage: action-comment.py BODY_FILE
Environment: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), SAGELINT_PR (the
pull request number), GITHUB_API_URL (default https://api.github.com),
SAGELINT_HEAD_SHA or GITHUB_SHA (named in the out-of-date note).
"""
import json
import os
import sys
import urllib.error
import urllib.request

MARKER = "<!-- sagelint-diff -->"
LIMIT = 65536  # characters GitHub accepts in a comment body
STALE = "> ⚠️ **Out of date.** sagelint could not update this comment for {sha}: {why}. See the workflow run."


def escape(text):
    """Text as the message of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


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


def fit(body):
    """The body within GitHub's limit: cut at a line, with a note."""
    if len(body) <= LIMIT:
        return body
    note = "\n\n…the comment was cut at GitHub's limit of 65,536 characters; see the SARIF results.\n"
    cut = body[: LIMIT - len(note)]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut + note


def reason(error):
    if isinstance(error, urllib.error.HTTPError):
        return f"GitHub answered {error.code} {error.reason}"
    if isinstance(error, urllib.error.URLError):
        return f"cannot reach GitHub ({error.reason})"
    return str(error)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: action-comment.py BODY_FILE")
    with open(sys.argv[1], encoding="utf-8") as f:
        body = f.read()
    token = os.environ.get("GITHUB_TOKEN", "")
    repo = os.environ.get("GITHUB_REPOSITORY", "")
    pr = os.environ.get("SAGELINT_PR", "")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    sha = os.environ.get("SAGELINT_HEAD_SHA") or os.environ.get("GITHUB_SHA") or "this push"
    if not token or not repo or not pr.isdigit():
        sys.exit("action-comment.py: GITHUB_TOKEN, GITHUB_REPOSITORY and SAGELINT_PR are needed")
    if not body.startswith(MARKER):
        body = MARKER + "\n" + body
    body = fit(body)

    existing = None
    try:
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
        return 0
    except (urllib.error.URLError, OSError, ValueError) as e:
        if isinstance(e, urllib.error.HTTPError) and e.code == 403:
            print("::warning::" + escape("sagelint: the token may not comment on this pull request (" + reason(e) +
                                         "; a fork's read-only token?): the findings are in the annotations and "
                                         "the SARIF results"))
            return 0
        why = reason(e)
        if existing is not None:
            old = existing.get("body") or ""
            stale = MARKER + "\n" + STALE.format(sha=sha[:12], why=why) + "\n\n" + old[len(MARKER):].lstrip("\n")
            try:
                request("PATCH", f"{api}/repos/{repo}/issues/comments/{existing['id']}", token, {"body": fit(stale)})
                print(f"sagelint: marked comment {existing['id']} out of date")
            except (urllib.error.URLError, OSError, ValueError) as e2:
                print("::warning::" + escape("sagelint: could not mark the previous comment out of date: " +
                                             reason(e2)))
        print("::error::" + escape("sagelint: could not create or update the pull-request comment: " + why))
        return 1


if __name__ == "__main__":
    sys.exit(main())
