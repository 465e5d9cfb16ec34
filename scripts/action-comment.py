#!/usr/bin/env python3
"""Creates or updates the one sagelint comment on a pull request.

The comment is found by the hidden marker the markdown diff output starts
with, so every push updates it in place instead of adding a new one — but only
a comment the token's own user wrote: anyone can post a comment starting with
the marker, and adopting it would let them steer what the pull request shows.
The token's user is what GET /user says (a personal token), else the workflow
token's github-actions[bot], or SAGELINT_COMMENT_AUTHOR. This is the only step
of the Action that holds the GitHub token.

- A body longer than GitHub accepts (65,536 characters) is cut at a line,
  with a note (sagelint's markdown already stays within the limit).
- A post GitHub refuses for lack of permission (a fork's read-only token:
  403) is a warning; the findings are still in the annotations and SARIF.
- Any other failure fails the step, after marking the previous comment (if
  any) as out of date, so that a stale comment never stands for this push.

With SAGELINT_FIX_REPORT (sagelint's JSON report; the `suggest-fixes` input),
it first posts a review comment with a ```suggestion block for each safe fix
that lies on lines the pull request changes (action-fixes.py says which), once
per fix however often the Action runs, and lists the other fixes in the
comment. Suggestions that GitHub refuses are warnings, and listed too.

Usage: action-comment.py BODY_FILE
Environment: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), SAGELINT_PR (the
pull request number), GITHUB_API_URL (default https://api.github.com),
SAGELINT_HEAD_SHA or GITHUB_SHA (named in the out-of-date note; the commit the
suggestions are made on), SAGELINT_FIX_REPORT, SAGELINT_POST_COMMENT (false:
the suggestions only, no comment).
"""
import importlib.util
import json
import os
import sys
import urllib.error
import urllib.request

MARKER = "<!-- sagelint-diff -->"
BOT_LOGIN = "github-actions[bot]"  # who the workflow's GITHUB_TOKEN comments as
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


def fixes_module():
    """action-fixes.py, beside this script."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "action-fixes.py")
    spec = importlib.util.spec_from_file_location("action_fixes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pages(url, token, limit=30):
    """Every item of a paginated GitHub listing (at most `limit` pages of 100)."""
    items = []
    for page in range(1, limit + 1):
        got = request("GET", f"{url}?per_page=100&page={page}", token) or []
        items += got
        if len(got) < 100:
            break
    return items


def own_login(api, token):
    """The login the token comments as."""
    named = os.environ.get("SAGELINT_COMMENT_AUTHOR", "").strip()
    if named:
        return named
    try:
        user = request("GET", f"{api}/user", token)
    except (urllib.error.URLError, OSError, ValueError):
        # An app installation token (the workflow's GITHUB_TOKEN) may not read /user.
        return BOT_LOGIN
    login = user.get("login") if isinstance(user, dict) else None
    return login if isinstance(login, str) and login else BOT_LOGIN


def by(comment, login):
    """Whether `login` wrote the comment."""
    user = comment.get("user")
    return isinstance(user, dict) and user.get("login") == login


def suggest_fixes(api, repo, pr, token, head_sha, report_path, me):
    """Posts the suggestions; returns the comment's section listing the other fixes."""
    fixes = fixes_module()
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    base = f"{api}/repos/{repo}/pulls/{pr}"
    unreadable = None
    try:
        files = fixes.files_from_api(pages(base + "/files", token))
    except (urllib.error.URLError, OSError, ValueError) as e:
        unreadable = "the pull request's diff could not be read (" + reason(e) + ")"
        files = {}
    p = fixes.plan(report, files, fixes.repo_root("."))
    others = p["others"]
    if unreadable:
        print("::warning::" + escape("sagelint: " + unreadable + "; its fixes are listed in the comment"))
        for o in others:
            if o["reason"] == "outside this pull request's changes":
                o["reason"] = unreadable
    todo = p["suggestions"]
    if todo and not head_sha:
        others += [dict(s, reason="no head commit to suggest on (SAGELINT_HEAD_SHA)") for s in todo]
        todo = []
    existing = []
    if todo:
        try:
            existing = [c.get("body") or "" for c in pages(base + "/comments", token) if by(c, me)]
        except (urllib.error.URLError, OSError, ValueError) as e:
            # Without the list, a suggestion could be posted twice: list them instead.
            print("::warning::" + escape("sagelint: cannot list the review comments (" + reason(e) +
                                         "): the fixes are listed in the comment instead of suggested"))
            others += [dict(s, reason="the review comments could not be listed") for s in todo]
            todo = []
    posted = already = 0
    refused = None
    for s in todo:
        marker = fixes.MARKER.format(key=s["key"])
        if any(marker in b for b in existing):
            already += 1
            continue
        if refused:
            others.append(dict(s, reason=refused))
            continue
        comment = {"body": fixes.comment_body(s), "commit_id": head_sha, "path": s["repo_path"],
                   "line": s["end_line"], "side": "RIGHT"}
        if s["start_line"] < s["end_line"]:
            comment.update(start_line=s["start_line"], start_side="RIGHT")
        try:
            request("POST", base + "/comments", token, comment)
            posted += 1
        except (urllib.error.URLError, OSError, ValueError) as e:
            why = "GitHub refused the suggestion (" + reason(e) + ")"
            if isinstance(e, urllib.error.HTTPError) and e.code == 403:
                refused = why  # a read-only token: the others would be refused too
                why += "; a fork's read-only token?"
            print("::warning::" + escape(f"sagelint: {s['path']}:{s['start_line']}: {why}"))
            others.append(dict(s, reason=why))
    print(f"sagelint: {posted} fix suggestion(s) posted, {already} already there, {len(others)} listed")
    others.sort(key=lambda o: (o["path"], o["line"] or 0, o["rule"]))
    return fixes.listing(others, posted + already)


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
    me = own_login(api, token)
    report = os.environ.get("SAGELINT_FIX_REPORT", "")
    if report:
        try:
            section = suggest_fixes(api, repo, pr, token, os.environ.get("SAGELINT_HEAD_SHA", ""), report, me)
        except (OSError, ValueError) as e:
            section = ""
            print("::warning::" + escape("sagelint: no fix suggestions: cannot read " + report + ": " + str(e)))
        if section:
            body = body.rstrip("\n") + "\n" + section
    if os.environ.get("SAGELINT_POST_COMMENT", "true") != "true":
        return 0
    body = fit(body)

    existing = None
    try:
        page = 1
        while existing is None:
            url = f"{api}/repos/{repo}/issues/{pr}/comments?per_page=100&page={page}"
            comments = request("GET", url, token) or []
            for c in comments:
                if (c.get("body") or "").startswith(MARKER) and by(c, me):
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
