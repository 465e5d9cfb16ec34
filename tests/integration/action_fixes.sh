#!/usr/bin/env bash
# The Action's `suggest-fixes` (README "Fixes"), offline: which fixes of a report
# become suggestion review comments and which are listed in the pull request's
# comment (scripts/action-fixes.py, against a JSON report and the pull
# request's diff in tests/integration/action_fixes/), then the comment step
# (scripts/action-comment.py) against the local fake of GitHub's REST API:
# one review comment per suggestion, never twice, the rest listed; a refused
# suggestion is a warning and listed; a diff GitHub cannot give lists them all.
#
# The fixture: head/ is the pull request's head tree, pr.diff its diff
# (`git diff --full-index`), report.json `sagelint diff --format json` of it
# with fixes as the format editors write them; infra/stale.yaml was changed
# after the diff, so it is not the head version the diff names.
# Usage: action_fixes.sh SOURCE_DIR   (UPDATE_SNAPSHOTS=1 rewrites expected.json)
set -euo pipefail
src="$1"
fx="$src/tests/integration/action_fixes"
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The checkout: the head tree in a git work tree (the repository's top is where .git is).
mkdir -p "$work/checkout"
cp -R "$fx/head/." "$work/checkout/"
git -C "$work/checkout" init -q
cd "$work/checkout"

# 1. The plan, exactly.
python3 "$src/scripts/action-fixes.py" "$fx/report.json" "$fx/pr.diff" > "$work/plan.json"
if [ "${UPDATE_SNAPSHOTS:-}" = 1 ]; then cp "$work/plan.json" "$fx/expected.json"; fi
diff -u "$fx/expected.json" "$work/plan.json" || { echo "FAIL: the plan differs from expected.json"; exit 1; }
python3 - "$work/plan.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
got = [(s["rule"], s["repo_path"], s["start_line"], s["end_line"], s["text"]) for s in p["suggestions"]]
assert got == [
    ("SM105", "infra/endpoint.yaml", 11, 11, ""),                      # a removed line: an empty suggestion
    ("SM403", "jobs.py", 8, 8, ""),
    ("SM104", "tf/main.tf", 3, 3, '  instance_type = "ml.m5.xlarge"'),  # a changed line
    ("SM403", "train.py", 10, 10, "    max_wait=3600,\n)"),              # an inserted line, with the one it precedes
], got
others = [(o["rule"], o["path"], o["line"], o["reason"]) for o in p["others"]]
assert others == [
    ("SM102", "infra/endpoint.yaml", 9, "unsafe"),
    ("SM104", "infra/stale.yaml", 6, "the checked-out file is not the pull request's head version"),
    ("SM104", "tf/main.tf", 9, "outside this pull request's changes"),  # its edit is in tf/variables.tf
], others
assert "0123456789abcdef" not in json.dumps(p), "a finding the base has too was used"
assert p["comments"][3].endswith("```suggestion\n    max_wait=3600,\n)\n```\n"), p["comments"][3]
PY
echo "ok: safe fixes on changed lines are suggested; unsafe, elsewhere or stale ones are listed"

# The report's paths are relative to the repository root (sagelint writes them so wherever it runs):
# the plan is the same when the script runs in a subdirectory.
(cd "$work/checkout/infra" && python3 "$src/scripts/action-fixes.py" "$fx/report.json" "$fx/pr.diff") > "$work/plan-sub.json"
diff -u "$work/plan.json" "$work/plan-sub.json" || { echo "FAIL: the plan depends on the current directory"; exit 1; }
echo "ok: edit paths are resolved from the repository root"

# 2. The computation's edge cases.
python3 - "$src/scripts/action-fixes.py" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("action_fixes", sys.argv[1])
fx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fx)

def edit(l, c, el, ec, content, path="a.py"):
    return {"path": path, "line": l, "column": c, "end_line": el, "end_column": ec, "content": content}

data = b"a = f(\n    x=1,\n    y=2,\n)\n"
# Two edits of one fix: one suggestion over the lines from the first to the last.
assert fx.suggestion_of({"edits": [edit(2, 7, 2, 8, "3"), edit(3, 7, 3, 8, "4")]}, data) == (2, 3, "    x=3,\n    y=4,")
# An edit that removes a line's newline joins the next line: the suggestion covers both.
assert fx.suggestion_of({"edits": [edit(2, 9, 3, 1, " ")]}, data) == (2, 3, "    x=1,     y=2,")
# A multi-line removal ending inside a line.
assert fx.suggestion_of({"edits": [edit(2, 8, 3, 8, "")]}, data) == (2, 3, "    x=1,")
# Refused: overlapping edits, an edit past the last line or outside a line, CRLF, not UTF-8.
assert fx.suggestion_of({"edits": [edit(2, 5, 2, 8, ""), edit(2, 6, 2, 7, "")]}, data) == "its edits overlap"
assert fx.suggestion_of({"edits": [edit(5, 1, 5, 1, "b = 2\n")]}, data) == "it edits past the file's last line"
assert fx.suggestion_of({"edits": [edit(2, 20, 2, 21, "")]}, data) == "its edit lies outside the file"
assert fx.suggestion_of({"edits": [edit(1, 1, 1, 2, "b")]}, b"a = 1\r\n") == "the file has CRLF line ends"
assert fx.suggestion_of({"edits": [edit(1, 1, 1, 2, "b")]}, b"a = '\xe9'\n") == "the file is not UTF-8"
# The last line without a newline.
assert fx.suggestion_of({"edits": [edit(1, 5, 1, 6, "2")]}, b"a = 1") == (1, 1, "a = 2")

# The head-side lines of a patch: `+` lines only, counted through context; removals and
# "\ No newline" counted out.
patch = "@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n-d\n\\ No newline at end of file\n+D\n@@ -10,2 +10,3 @@\n k\n+l\n m"
assert fx.added_lines(patch) == {2, 4, 11}, fx.added_lines(patch)

# A fix whose edits lie in two files is listed; a file the pull request removed has no lines.
report = {"new": [{"rule": "SM104", "path": "a.py", "line": 1, "fingerprint": "f",
                   "fix": {"applicability": "safe", "message": "m",
                           "edits": [edit(1, 1, 1, 2, "x"), edit(1, 1, 1, 2, "x", path="b.py")]}}]}
files = fx.files_from_api([{"filename": "a.py", "sha": "x", "patch": "@@ -0,0 +1 @@\n+a"},
                           {"filename": "b.py", "status": "removed", "patch": "@@ -1 +0,0 @@\n-a"}])
assert list(files) == ["a.py"]
p = fx.plan(report, files, "/nonexistent", read=lambda path: b"a\n")
assert p["others"][0]["reason"] == "its edits span several files", p

# Markdown from a scanned file shows as typed: no HTML, links, mentions; code spans hold backticks.
assert fx.md_text("<img src=x> @team [a](https://e.example)") == \
    "&lt;img src=x&gt; \\@team \\[a\\](https\\://e.example)"
assert fx.md_code("a`b|c") == "``a`b\\|c``"
s = {"key": "k", "rule": "SM104", "message": "m", "text": "x = ```"}
assert fx.comment_body(s).endswith("````suggestion\nx = ```\n````\n"), fx.comment_body(s)
# The listing is capped.
many = [{"rule": "SM102", "path": "p", "line": n, "message": "m", "reason": "unsafe"} for n in range(60)]
text = fx.listing(many, 0)
assert text.count("\n- ") == fx.LISTED_MAX + 1 and "…and 10 more" in text, text
print("ok: multi-line, joined and refused edits; patch lines; several files; markdown escaping; the cap")
PY

# 3. The comment step against the fake GitHub.
python3 "$src/tests/integration/fake_github.py" "$work/requests.log" > "$work/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
# The pull request's files as the API lists them: name, head blob, patch.
python3 - "$fx/pr.diff" > "$work/requests.log.files" <<'PY'
import json, re, sys
files = []
for part in open(sys.argv[1], encoding="utf-8").read().split("diff --git ")[1:]:
    lines = part.split("\n")
    name = next(l[6:] for l in lines if l.startswith("+++ b/"))
    sha = next(re.match(r"index \w+\.\.(\w+)", l).group(1) for l in lines if l.startswith("index "))
    at = next(i for i, l in enumerate(lines) if l.startswith("@@"))
    files.append({"filename": name, "status": "modified", "sha": sha, "patch": "\n".join(lines[at:]).rstrip("\n")})
json.dump(files, sys.stdout)
PY
printf '<!-- sagelint-diff -->\n### sagelint: +$0/month of always-on SageMaker spend\n' > "$work/comment.md"
export GITHUB_API_URL="http://127.0.0.1:$port" GITHUB_REPOSITORY=octo/ml GITHUB_TOKEN=test-token
export SAGELINT_HEAD_SHA=abcdef1234567890abcdef1234567890abcdef12 SAGELINT_FIX_REPORT="$fx/report.json"
comment_step() { python3 "$src/scripts/action-comment.py" "$work/comment.md"; }
# refused PR "METHOD CODE" WARNING: the step for PR while GitHub answers the next METHOD with CODE
# succeeds, warning WARNING.
refused() {
  local out
  echo "$2" > "$work/requests.log.fail"
  out=$(SAGELINT_PR=$1 comment_step) || { echo "FAIL: '$2' failed the step"; echo "$out"; exit 1; }
  grep -qF "::warning::sagelint: $3" <<<"$out" || { echo "FAIL: no warning"; echo "$out"; exit 1; }
}

out=$(SAGELINT_PR=7 comment_step)
grep -q "^sagelint: 4 fix suggestion(s) posted, 0 already there, 3 listed$" <<<"$out" || { echo "FAIL: $out"; exit 1; }
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
reviews = [r for r in reqs if r["method"] == "POST" and r["path"] == "/repos/octo/ml/pulls/7/comments"]
assert [(r["body"]["path"], r["body"]["line"], r["body"].get("start_line")) for r in reviews] == [
    ("infra/endpoint.yaml", 11, None), ("jobs.py", 8, None), ("tf/main.tf", 3, None), ("train.py", 10, None)], reviews
for r in reviews:
    b = r["body"]
    assert b["side"] == "RIGHT" and b["commit_id"] == "abcdef1234567890abcdef1234567890abcdef12", b
    assert b["body"].startswith("<!-- sagelint-fix ") and "```suggestion\n" in b["body"], b
assert "(safe fix): replace ml.m4.xlarge with ml.m5.xlarge\n\n```suggestion\n  instance_type = \"ml.m5.xlarge\"\n```\n" \
    in reviews[2]["body"]["body"], reviews[2]
assert all(r["auth"] == "Bearer test-token" for r in reqs), reqs
posts = [r for r in reqs if r["method"] == "POST" and r["path"] == "/repos/octo/ml/issues/7/comments"]
assert len(posts) == 1, reqs
body = posts[0]["body"]["body"]
assert body.startswith("<!-- sagelint-diff -->\n### sagelint: +$0/month"), body
assert "\n#### Fixes\n\n4 safe fixes are suggested in review comments on the changed lines. The others:\n" in body, body
assert "- `SM102` `infra/endpoint.yaml:9`: replace ml.p3.2xlarge with ml.g4dn.xlarge — unsafe: " in body, body
assert "- `SM104` `tf/main.tf:9`: replace ml.m4.xlarge with ml.m5.xlarge — safe (`sagelint scan --fix`), not " \
       "suggested: outside this pull request's changes" in body, body
PY
echo "ok: one suggestion review comment per safe fix on changed lines; the others listed in the comment"

# The next push: nothing is suggested twice, the comment is updated.
out=$(SAGELINT_PR=7 comment_step)
grep -q "^sagelint: 0 fix suggestion(s) posted, 4 already there, 3 listed$" <<<"$out" || { echo "FAIL: $out"; exit 1; }
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert len([r for r in reqs if r["method"] == "POST" and "/pulls/7/comments" in r["path"]]) == 4, reqs
patch = [r for r in reqs if r["method"] == "PATCH"]
assert len(patch) == 1 and "4 safe fixes are suggested" in patch[0]["body"]["body"], patch
PY
echo "ok: a suggestion is posted once however often the Action runs"

# A refused suggestion (a fork's read-only token) is a warning; the rest are not tried, and all are listed.
refused 8 "POST 403" "infra/endpoint.yaml:11: GitHub refused the suggestion (GitHub answered 403"
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
tried = [r for r in reqs if r["method"] == "POST" and r["path"] == "/repos/octo/ml/pulls/8/comments"]
assert len(tried) == 1, tried
# (The fake keeps one list of issue comments: the comment of PR 7 is updated.)
body = [r for r in reqs if r["method"] in ("POST", "PATCH") and "/issues/" in r["path"]][-1]["body"]["body"]
assert "sagelint can fix these" in body and body.count("not suggested: GitHub refused the suggestion") == 4, body
PY
echo "ok: a refused suggestion is a warning, and the fixes are listed instead"

# A diff GitHub does not give: every fix listed, the comment still posted.
refused 9 "GET 500" "the pull request's diff could not be read (GitHub answered 500"
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert not [r for r in reqs if r["method"] == "POST" and "/pulls/9/" in r["path"]], reqs
body = [r for r in reqs if r["method"] in ("POST", "PATCH") and "/issues/" in r["path"]][-1]["body"]["body"]
assert body.count("not suggested: the pull request's diff could not be read") == 6, body
PY
echo "ok: without the pull request's diff, the fixes are listed"

# comment: false with suggest-fixes: the suggestions only.
out=$(SAGELINT_PR=10 SAGELINT_POST_COMMENT=false comment_step)
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert len([r for r in reqs if r["method"] == "POST" and r["path"] == "/repos/octo/ml/pulls/10/comments"]) == 4
writes = [r for r in reqs if r["method"] in ("POST", "PATCH") and "/issues/" in r["path"]]
assert "/pulls/10/" in reqs[-1]["path"] and len(writes) == 4, reqs  # none since PR 9's
PY
echo "ok: with comment: false, only the suggestions are posted"

# action.yml: the input, off by default; the report reaches the comment step only when it is on.
python3 - "$src/action.yml" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
assert doc["inputs"]["suggest-fixes"]["default"] == "false"
steps = {s.get("name"): s for s in doc["runs"]["steps"]}
assert steps["Diff against the pull request's base"]["env"]["SAGELINT_SUGGEST_FIXES"] == "${{ inputs.suggest-fixes }}"
comment = steps["Comment on the pull request"]
assert comment["env"]["SAGELINT_FIX_REPORT"] == \
    "${{ inputs.suggest-fixes == 'true' && steps.diff.outputs.fix-report || '' }}", comment
assert "inputs.suggest-fixes == 'true'" in comment["if"] and "inputs.comment == 'true'" in comment["if"], comment
assert comment["env"]["SAGELINT_POST_COMMENT"] == "${{ inputs.comment }}"
PY
echo "ok: action.yml: suggest-fixes is off by default and feeds the comment step"
