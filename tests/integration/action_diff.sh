#!/usr/bin/env bash
# The GitHub Action's pull-request steps (scripts/action-diff.sh, then
# scripts/action-comment.py as action.yml runs them) against a local fake of
# the REST endpoints: a shallow clone fetches the base commit, the diff
# annotates and writes SARIF of new findings only, the first push creates one
# comment and the second push updates that comment in place. The token reaches
# the comment step only; a base that looks like an option is refused; a
# refused post is a warning, any other failure fails and marks the comment stale.
# Usage: action_diff.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$1" src="$2"
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
git() { command git -c user.email=test@example.invalid -c user.name=test -c commit.gpgsign=false "$@"; }

# The repository on the "server": a base commit with a notebook, a head that adds an endpoint.
origin="$work/origin"
mkdir -p "$origin/infra"
git -C "$origin" init -q
git -C "$origin" config uploadpack.allowAnySHA1InWant true
cat > "$origin/infra/notebook.yaml" <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
YAML
git -C "$origin" add -A && git -C "$origin" commit -q -m base
base=$(git -C "$origin" rev-parse HEAD)
cat > "$origin/infra/endpoint.yaml" <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: scoring
          InstanceType: ml.g5.2xlarge
          InitialInstanceCount: 2
  Endpoint:
    Type: AWS::SageMaker::Endpoint
    Properties:
      EndpointConfigName: !GetAtt Config.EndpointConfigName
YAML
git -C "$origin" add -A && git -C "$origin" commit -q -m "add an endpoint"

# The runner's checkout: one commit deep, as actions/checkout makes it.
git clone -q --depth 1 "file://$origin" "$work/checkout"
cd "$work/checkout"
if git cat-file -e "${base}^{commit}" 2>/dev/null; then echo "FAIL: the shallow clone already has the base"; exit 1; fi

python3 "$src/tests/integration/fake_github.py" "$work/requests.log" > "$work/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")

export RUNNER_TEMP="$work" GITHUB_OUTPUT="$work/output" GITHUB_API_URL="http://127.0.0.1:$port" GITHUB_REPOSITORY=octo/ml
export SAGELINT_PR=7 SAGELINT_BASE="$base" SAGELINT_SARIF="$work/out.sarif"
export SAGELINT_COMMENT_FILE="$work/comment.md" SAGELINT_FAIL_ON=warning SAGELINT_PATHS=.

# The steps as action.yml runs them: the diff without the token (sagelint and
# every git it starts record their environment here), then the comment step
# with it, when the diff left a comment.
mkdir -p "$work/spy"
cat > "$work/spy/sagelint" <<SH
#!/bin/sh
env > "$work/env-sagelint"
exec "$bin" "\$@"
SH
real_git=$(type -P git)
cat > "$work/spy/git" <<SH
#!/bin/sh
env >> "$work/env-git"
exec "$real_git" "\$@"
SH
chmod +x "$work/spy/sagelint" "$work/spy/git"
diff_step() { env -u GITHUB_TOKEN PATH="$work/spy:$PATH" "$src/scripts/action-diff.sh" "$work/spy/sagelint"; }
comment_step() {
  local file
  file=$(sed -n 's/^comment-file=//p' "$GITHUB_OUTPUT" | tail -1)
  [ -n "$file" ] || return 0
  GITHUB_TOKEN=test-token SAGELINT_HEAD_SHA=abcdef1234567890 python3 "$src/scripts/action-comment.py" "$file"
}

out=$(diff_step)
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: exit code not recorded"; cat "$GITHUB_OUTPUT"; exit 1; }
grep -q "^::warning file=infra/endpoint.yaml,line=10" <<<"$out" || { echo "FAIL: no annotation"; echo "$out"; exit 1; }
if grep -q "notebook.yaml" <<<"$out"; then echo "FAIL: an old finding was annotated"; echo "$out"; exit 1; fi
python3 - "$work/out.sarif" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert [r["ruleId"] for r in results] == ["SM211"], results
PY
echo "ok: the base was fetched; annotations and SARIF carry the new finding only"
comment_step >/dev/null
python3 - "$src/action.yml" <<'PY'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]
with_token = [s["name"] for s in steps if "GITHUB_TOKEN" in (s.get("env") or {})]
assert with_token == ["Comment on the pull request"], with_token
diff = [s for s in steps if s.get("id") == "diff"][0]
assert "github-token" not in str(diff), diff
PY
if grep -q test-token "$work/env-sagelint" "$work/env-git"; then echo "FAIL: the token reached sagelint or git"; exit 1; fi
echo "ok: the token is given to the comment step only, never to sagelint or git"

python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
posts = [r for r in reqs if r["method"] == "POST"]
assert len(posts) == 1 and posts[0]["path"] == "/repos/octo/ml/issues/7/comments", reqs
assert all(r["auth"] == "Bearer test-token" for r in reqs), reqs
body = posts[0]["body"]["body"]
assert body.startswith("<!-- sagelint-diff -->\n### sagelint: +$"), body
assert "1 new finding" in body, body
assert not any(r["method"] == "PATCH" for r in reqs), reqs
PY
echo "ok: the first push creates one comment (not adopting another user's comment that starts with the marker)"

# suggest-fixes: the diff step also writes the JSON report whose fixes the
# comment step suggests; without it, none.
if grep -q "^fix-report=" "$GITHUB_OUTPUT"; then echo "FAIL: a fix report without suggest-fixes"; exit 1; fi
: > "$GITHUB_OUTPUT"
SAGELINT_SUGGEST_FIXES=true SAGELINT_FIX_REPORT="$work/fixes.json" diff_step >/dev/null
grep -q "^fix-report=$work/fixes.json$" "$GITHUB_OUTPUT" || { echo "FAIL: no fix report"; cat "$GITHUB_OUTPUT"; exit 1; }
python3 - "$work/fixes.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [f["rule"] for f in d["new"]] == ["SM211"], d["new"]
PY
echo "ok: with suggest-fixes, the diff step writes the JSON report for the comment step"
# The step's outputs, from the same report.
grep -q "^new-findings=1$" "$GITHUB_OUTPUT" && grep -qE "^spend-delta-monthly-usd=[0-9]+\.[0-9]{2}$" "$GITHUB_OUTPUT" &&
  grep -qE "^findings=[0-9]+$" "$GITHUB_OUTPUT" && grep -q "^avoidable-monthly-usd=$" "$GITHUB_OUTPUT" &&
  grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: the diff step's outputs"; cat "$GITHUB_OUTPUT"; exit 1; }
echo "ok: the diff step's outputs: findings, new-findings, spend-delta-monthly-usd, exit-code"

# A second push: the endpoint gets a third instance. The same comment is updated.
: > "$GITHUB_OUTPUT"
sed -i 's/InitialInstanceCount: 2/InitialInstanceCount: 3/' infra/endpoint.yaml
diff_step >/dev/null
comment_step >/dev/null
python3 - "$work/requests.log" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
posts = [r for r in reqs if r["method"] == "POST"]
patches = [r for r in reqs if r["method"] == "PATCH"]
assert len(posts) == 1, reqs
assert len(patches) == 1 and patches[0]["path"] == "/repos/octo/ml/issues/comments/1000", reqs
assert "3 × ml.g5.2xlarge" in patches[0]["body"]["body"], patches[0]
PY
echo "ok: the second push updates the same comment"

# A post GitHub refuses for lack of permission (a fork's read-only token) is a warning.
echo "PATCH 403" > "$work/requests.log.fail"
out=$(comment_step) || { echo "FAIL: a refused post failed the step"; echo "$out"; exit 1; }
echo "$out" | grep -q "^::warning::sagelint: the token may not comment" || { echo "FAIL: no warning"; echo "$out"; exit 1; }
echo "ok: a post refused for lack of permission is a warning"

# Any other failure fails the step and marks the previous comment out of date.
echo "PATCH 422" > "$work/requests.log.fail"
if out=$(comment_step); then echo "FAIL: a failed post did not fail the step"; exit 1; fi
echo "$out" | grep -q "^::error::sagelint: could not create or update the pull-request comment: GitHub answered 422" ||
  { echo "FAIL: no error"; echo "$out"; exit 1; }
echo "$out" | grep -q "^sagelint: marked comment 1000 out of date" || { echo "FAIL: not marked"; echo "$out"; exit 1; }
python3 - "$work/requests.log" <<'PY'
import json, sys
patches = [json.loads(l) for l in open(sys.argv[1]) if '"PATCH"' in l]
stale = patches[-1]["body"]["body"]
assert stale.startswith("<!-- sagelint-diff -->\n> ⚠️ **Out of date.** sagelint could not update this comment for "
                        "abcdef123456: GitHub answered 422"), stale
assert "3 × ml.g5.2xlarge" in stale, stale
PY
echo "ok: any other failure fails the step and marks the previous comment out of date"

# A body over GitHub's limit is cut at a line, never refused.
printf '<!-- sagelint-diff -->\n' > "$work/long.md"
python3 -c "import sys; sys.stdout.write(('x' * 99 + '\n') * 1000)" >> "$work/long.md"
: > "$GITHUB_OUTPUT"
echo "comment-file=$work/long.md" >> "$GITHUB_OUTPUT"
comment_step >/dev/null
python3 - "$work/requests.log" <<'PY'
import json, sys
last = [json.loads(l) for l in open(sys.argv[1]) if '"PATCH"' in l][-1]["body"]["body"]
assert len(last) <= 65536 and last.endswith("see the SARIF results.\n"), len(last)
PY
echo "ok: a comment over the limit is cut to fit"

# Paths and args are split as the scan step splits them: quotes group, nothing runs.
: > "$GITHUB_OUTPUT"
SAGELINT_PATHS='"infra"' SAGELINT_ARGS="--select 'SM211'" "$src/scripts/action-diff.sh" "$bin" >/dev/null
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: quoted paths/args"; cat "$GITHUB_OUTPUT"; exit 1; }
: > "$GITHUB_OUTPUT"
if SAGELINT_PATHS='"infra' "$src/scripts/action-diff.sh" "$bin" >/dev/null 2>&1; then
  echo "FAIL: an unmatched quote did not fail the step"; exit 1
fi
grep -q "^exit-code=2$" "$GITHUB_OUTPUT" || { echo "FAIL: unmatched quote exit code"; exit 1; }
echo "ok: paths and args are split like the scan step's"

# A base that does not exist fails the step at once.
: > "$GITHUB_OUTPUT"
if SAGELINT_BASE=0000000000000000000000000000000000000000 "$src/scripts/action-diff.sh" "$bin" >/dev/null 2>&1; then
  echo "FAIL: a missing base did not fail the step"; exit 1
fi
grep -q "^exit-code=2$" "$GITHUB_OUTPUT" || { echo "FAIL: missing base exit code"; exit 1; }
echo "ok: a missing base fails the step"

# A base that looks like an option is refused before git sees it (before:
# `git fetch origin --upload-pack=…` ran the command), and a base with a
# newline cannot forge a workflow command.
: > "$GITHUB_OUTPUT"
if out=$(SAGELINT_BASE="--upload-pack=touch $work/pwned" "$src/scripts/action-diff.sh" "$bin" 2>&1); then
  echo "FAIL: an option-like base did not fail the step"; exit 1
fi
[ ! -e "$work/pwned" ] || { echo "FAIL: the base ran a command"; exit 1; }
grep -q "^exit-code=2$" "$GITHUB_OUTPUT" || { echo "FAIL: option-like base exit code"; exit 1; }
out=$(SAGELINT_BASE=$'nosuch\n::warning::forged' "$src/scripts/action-diff.sh" "$bin" 2>&1) && exit 1
if echo "$out" | grep -q "^::warning::forged"; then echo "FAIL: a forged workflow command"; echo "$out"; exit 1; fi
echo "$out" | grep -q "^::error::sagelint: the base 'nosuch%0A::warning::forged' is not a commit" ||
  { echo "FAIL: the base not escaped"; echo "$out"; exit 1; }
# A branch name is still a base (fetched after --end-of-options).
: > "$GITHUB_OUTPUT"
git -C "$origin" branch -q base-branch "$base"
SAGELINT_BASE=base-branch "$src/scripts/action-diff.sh" "$bin" >/dev/null 2>&1 || true
echo "ok: the base is never an option, and never forges a workflow command"

# A base is a revision name, never a refspec: `+base-branch:refs/remotes/origin/main`
# would move the checkout's remote-tracking ref. Refused before git sees it; a
# base fetched is kept in refs/sagelint/base, and no other ref moves.
refs_before=$(git for-each-ref --format='%(refname) %(objectname)' | grep -v '^refs/sagelint/')
for evil in "+base-branch:refs/remotes/origin/main" "base-branch:refs/heads/x" "refs/heads/*" "a..b"; do
  : > "$GITHUB_OUTPUT"
  if out=$(SAGELINT_BASE="$evil" "$src/scripts/action-diff.sh" "$bin" 2>&1); then
    echo "FAIL: the base '$evil' was taken"; exit 1
  fi
  grep -q "^exit-code=2$" "$GITHUB_OUTPUT" || { echo "FAIL: '$evil': exit code"; exit 1; }
  echo "$out" | grep -qF "is not a commit or a branch name" || { echo "FAIL: '$evil' not refused as a revision"; echo "$out"; exit 1; }
done
[ "$(git for-each-ref --format='%(refname) %(objectname)' | grep -v '^refs/sagelint/')" = "$refs_before" ] ||
  { echo "FAIL: a ref was moved"; git for-each-ref; exit 1; }
git cat-file -e refs/sagelint/base 2>/dev/null || { echo "FAIL: the fetched base is not in refs/sagelint/base"; exit 1; }
echo "ok: a base is a revision name, never a refspec; a fetched base goes to refs/sagelint/base and no ref moves"

# A SARIF or comment file already in the checkout (committed, or a link) is
# removed before sagelint writes: it is never what is uploaded or posted.
printf '{"planted": true}\n' > planted.sarif
ln -sf planted.sarif linked.sarif
: > "$GITHUB_OUTPUT"
SAGELINT_BASE=nosuch-branch SAGELINT_SARIF=linked.sarif "$src/scripts/action-diff.sh" "$bin" >/dev/null 2>&1 && exit 1
[ ! -e linked.sarif ] && [ ! -L linked.sarif ] || { echo "FAIL: a SARIF link was left for the upload"; exit 1; }
: > "$GITHUB_OUTPUT"
SAGELINT_SARIF=planted.sarif SAGELINT_PATHS=nosuch-path "$src/scripts/action-scan.sh" "$bin" >/dev/null 2>&1 || true
if grep -q planted planted.sarif 2>/dev/null; then echo "FAIL: a planted SARIF file was left for the upload"; exit 1; fi
echo "ok: a SARIF file already in the checkout is removed before the scan, however it got there"
