#!/usr/bin/env bash
# The GitHub Action's pull-request step (scripts/action-diff.sh) against a
# local fake of the REST endpoints: a shallow clone fetches the base commit,
# the diff annotates and writes SARIF of new findings only, the first push
# creates one comment and the second push updates that comment in place.
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

export GITHUB_OUTPUT="$work/output" GITHUB_API_URL="http://127.0.0.1:$port" GITHUB_REPOSITORY=octo/ml
export GITHUB_TOKEN=test-token SAGELINT_PR=7 SAGELINT_BASE="$base" SAGELINT_SARIF="$work/out.sarif"
export SAGELINT_COMMENT_FILE="$work/comment.md" SAGELINT_FAIL_ON=warning SAGELINT_PATHS=.

out=$("$src/scripts/action-diff.sh" "$bin")
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: exit code not recorded"; cat "$GITHUB_OUTPUT"; exit 1; }
grep -q "^::warning file=infra/endpoint.yaml,line=10" <<<"$out" || { echo "FAIL: no annotation"; echo "$out"; exit 1; }
if grep -q "notebook.yaml" <<<"$out"; then echo "FAIL: an old finding was annotated"; echo "$out"; exit 1; fi
python3 - "$work/out.sarif" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert [r["ruleId"] for r in results] == ["SM211"], results
PY
echo "ok: the base was fetched; annotations and SARIF carry the new finding only"

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
echo "ok: the first push creates one comment"

# A second push: the endpoint gets a third instance. The same comment is updated.
: > "$GITHUB_OUTPUT"
sed -i 's/InitialInstanceCount: 2/InitialInstanceCount: 3/' infra/endpoint.yaml
"$src/scripts/action-diff.sh" "$bin" >/dev/null
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

# Comments off: nothing is sent.
before=$(wc -l < "$work/requests.log")
SAGELINT_COMMENT=false "$src/scripts/action-diff.sh" "$bin" >/dev/null
[ "$(wc -l < "$work/requests.log")" = "$before" ] || { echo "FAIL: comment sent although disabled"; exit 1; }
echo "ok: comment: false sends nothing"

# Paths and args are split as the scan step splits them: quotes group, nothing runs.
: > "$GITHUB_OUTPUT"
SAGELINT_COMMENT=false SAGELINT_PATHS='"infra"' SAGELINT_ARGS="--select 'SM211'" \
  "$src/scripts/action-diff.sh" "$bin" >/dev/null
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: quoted paths/args"; cat "$GITHUB_OUTPUT"; exit 1; }
: > "$GITHUB_OUTPUT"
if SAGELINT_COMMENT=false SAGELINT_PATHS='"infra' "$src/scripts/action-diff.sh" "$bin" >/dev/null 2>&1; then
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
