#!/usr/bin/env bash
# The README's install commands and CI snippets work as written, against a
# release served by a local stand-in for GitHub (its /releases/latest redirect
# and download URLs) made from this tree's static binary and wheel:
#  - the README names no tag, version or URL that does not exist (only the
#    declared OWNER placeholder);
#  - Install: the shared variables, then `pip install` (in a fresh virtual
#    environment) and the binary download with its checksum check, each ending
#    with a working `sagelint --version`;
#  - pre-commit: the snippet, `pre-commit autoupdate` pins the release tag, and
#    the sagelint-build hook then takes that release's binary;
#  - GitLab CI: the job's image, its install step (before_script) and its script,
#    run as a runner would against a merge request and a stand-in for GitLab's API;
#  - GitHub Actions: the snippets use only the action's inputs.
# (The from-source commands are the ones scripts/test.sh itself runs, and
# cmake --install has its own test.)
# Usage: readme_install.sh STATIC_SAGELINT SOURCE_DIR
set -euo pipefail
static="$(realpath "$1")" src="$(realpath "$2")"
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
git() { command git -c user.email=t@t -c user.name=t -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }
readme="$src/README.md"
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(uname -m)
case "$arch" in x86_64 | aarch64) ;; *) echo "SKIP: no release for $arch"; exit 77 ;; esac
placeholder=https://github.com/OWNER/sagelint

# Nothing that does not exist: no version or tag, URLs only the placeholder's.
if grep -nE '(@|rev: |/)v?[0-9]+\.[0-9]+\.[0-9]+\b' "$readme" | grep -v 'X\.Y\.Z'; then fail "the README names a version or tag"; fi
if grep -noE 'https?://[^ )`"]+' "$readme" | grep -vE ":$placeholder\b|:https://github.com/\}?$"; then
  fail "the README names a URL other than the $placeholder placeholder"
fi
grep -qF "\`OWNER\` is a placeholder" "$readme" || fail "the placeholder is not explained"
echo "ok: the README names no version, tag or URL but the OWNER placeholder"

# The README's code blocks: python3 blocks.py LANG INDEX (INDEX-th block of LANG after a marker).
blocks() {
  python3 - "$readme" "$@" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
after, lang, index = sys.argv[2], sys.argv[3], int(sys.argv[4])
text = text[text.index(after):]
found = re.findall(r"```" + lang + r"\n(.*?)```", text, re.S)
sys.stdout.write(found[index])
PY
}

# The release: static binary, its wheel, SHA256SUMS, COMMIT; and a stand-in for GitHub and GitLab.
hooks="$work/hooks"
git init -q "$hooks"
(cd "$src" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$hooks"
git -C "$hooks" add -A && git -C "$hooks" commit -qm sagelint
git -C "$hooks" tag -a "v$version" -m "v$version"
tagged=$(git -C "$hooks" rev-parse HEAD)
rel="$work/www/v$version"
mkdir -p "$rel"
cp "$static" "$rel/sagelint-linux-$arch"
wheel=$(python3 "$src/scripts/build-wheel.py" "$static" "$rel")
echo "$tagged" > "$rel/COMMIT"
(cd "$rel" && sha256sum "sagelint-linux-$arch" "$(basename "$wheel")" COMMIT > SHA256SUMS)
cat > "$work/server.py" <<'PY'
import http.server, json, os, sys
www, version, log = sys.argv[1], sys.argv[2], sys.argv[3]
class H(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers: self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD": self.wfile.write(body)
    def do_GET(self):
        p = self.path
        if p == "/OWNER/sagelint/releases/latest":
            return self.answer(302, headers=[("Location", "/OWNER/sagelint/releases/tag/v" + version)])
        if p == "/OWNER/sagelint/releases/tag/v" + version:
            return self.answer(200, b"release page")
        prefix = "/OWNER/sagelint/releases/download/"
        if p.startswith(prefix) and ".." not in p and os.path.isfile(os.path.join(www, p[len(prefix):])):
            return self.answer(200, open(os.path.join(www, p[len(prefix):]), "rb").read())
        if p.startswith("/api/v4/projects/1/merge_requests/5/notes"):
            with open(log, "a") as f: f.write(json.dumps({"method": "GET", "token": self.headers["PRIVATE-TOKEN"]}) + "\n")
            return self.answer(200, b"[]", [("Content-Type", "application/json")])
        self.answer(404, b"not found")
    do_HEAD = do_GET
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(log, "a") as f:
            f.write(json.dumps({"method": "POST", "path": self.path, "token": self.headers["PRIVATE-TOKEN"],
                                "body": json.loads(body)}) + "\n")
        self.answer(201, b"{}", [("Content-Type", "application/json")])
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_port, flush=True)
s.serve_forever()
PY
python3 "$work/server.py" "$work/www" "$version" "$work/api.log" > "$work/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/OWNER/sagelint"
as_written() { sed "s|$placeholder|$url|g"; }   # the README's text, pointed at the stand-in
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

vars=$(blocks "## Install" sh 0 | as_written)
# pip, in a fresh virtual environment.
python3 -m venv "$work/venv"
out=$(cd "$work" && PATH="$work/venv/bin:$PATH" HOME="$work/home-pip" bash -euo pipefail -c "$vars
$(blocks "## Install" sh 1)" 2>&1) || fail "the pip commands failed: $out"
last=$(echo "$out" | tail -n 1)
[ "${last% (commit *)}" = "sagelint $version" ] || fail "pip: $out"
echo "ok: Install/pip: the newest release's wheel installs and sagelint --version prints sagelint $version"

# The binary, checked against SHA256SUMS; gh is a stand-in that records the attestation check.
mkdir -p "$work/fakegh" "$work/home-bin"
printf '#!/bin/sh\necho "gh $*" >> "%s/gh.log"\n' "$work" > "$work/fakegh/gh"
chmod +x "$work/fakegh/gh"
out=$(cd "$work/home-bin" && PATH="$work/home-bin/.local/bin:$work/fakegh:$PATH" HOME="$work/home-bin" \
      bash -euo pipefail -c "$vars
$(blocks "## Install" sh 4)" 2>&1) || fail "the binary commands failed: $out"
grep -qx "sagelint-linux-$arch: OK" <<<"$out" || fail "the checksum was not checked: $out"
grep -qE "^sagelint $version( \(commit [^)]*\))?$" <<<"$out" || fail "the installed binary does not run: $out"
cmp -s "$rel/sagelint-linux-$arch" "$work/home-bin/.local/bin/sagelint" || fail "another binary was installed"
grep -q "^gh attestation verify $work/home-bin/.local/bin/sagelint --repo " "$work/gh.log" || fail "no attestation check"
echo "ok: Install/binary: downloaded, checked against SHA256SUMS (shasum: OK), installed, runs"

# Homebrew and the container cannot run here: their commands are checked as text
# against what the release workflow publishes (the tap's formula, the image's name and entrypoint).
brew_block=$(blocks "## Install" sh 2)
grep -qx "brew install OWNER/tap/sagelint" <<<"$brew_block" || fail "Install/Homebrew: $brew_block"
grep -q "HOMEBREW_TAP" "$src/.github/workflows/release.yml" || fail "the release workflow publishes no formula to a tap"
docker_block=$(blocks "## Install" sh 3)
grep -qxF 'docker run --rm -v "$PWD:/src" "ghcr.io/OWNER/sagelint:$tag" scan /src' <<<"$docker_block" ||
  fail "Install/container: $docker_block"
grep -qx 'ENTRYPOINT \["/sagelint"\]' "$src/packaging/container/Dockerfile" || fail "the image's entrypoint is not sagelint"
grep -qF '${{ steps.name.outputs.image }}:${{ github.ref_name }}' "$src/.github/workflows/release.yml" ||
  fail "the release workflow does not tag the image with the release tag"
echo "ok: Install/Homebrew and container: the commands name the tap formula and the image the release publishes"

# pre-commit: the snippet, autoupdate to the release tag, the hook takes the release binary.
command -v pre-commit >/dev/null || fail "pre-commit is not installed (scripts/test.sh installs it)"
export PRE_COMMIT_HOME="$work/pre-commit" HOME="$work/home-pc"
mkdir -p "$HOME" "$work/repo/infra"
cd "$work/repo"
git init -q .
blocks "**pre-commit.**" yaml 0 | sed "s|$placeholder|$hooks|" > .pre-commit-config.yaml
pre-commit autoupdate > "$work/autoupdate.log" 2>&1 || { cat "$work/autoupdate.log"; fail "pre-commit autoupdate"; }
grep -qE "rev: v$version( |$)" .pre-commit-config.yaml || fail "autoupdate did not pin v$version: $(cat .pre-commit-config.yaml)"
git add .pre-commit-config.yaml && git commit -qm config --no-verify
pre-commit install > /dev/null
cp "$src/examples/infra/endpoint.yaml" infra/ 2>/dev/null || fail "examples/infra/endpoint.yaml is missing"
git add infra
rc=0; out=$(SAGELINT_RELEASE_URL="${url%/OWNER/sagelint}/OWNER/sagelint/releases/download" git commit -qm costly 2>&1) || rc=$?
[ "$rc" != 0 ] || fail "the hook let a costly change through: $out"
grep -qF "using the release binary v$version" <<<"$out" || fail "the hook did not take the release: $out"
grep -qE "(error|warning)\[SM[0-9]+\]" <<<"$out" || fail "no finding shown: $out"
echo "ok: pre-commit: the snippet, autoupdate pins v$version, sagelint-build takes its release binary and blocks the commit"
unset PRE_COMMIT_HOME

# GitLab CI: the job as a runner runs it, on a merge request that adds an endpoint.
python3 - "$readme" "$work/gitlab.sh" "$work/gitlab.env" <<'PY'
import re, sys, yaml
text = open(sys.argv[1]).read()
block = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "CI_MERGE_REQUEST_DIFF_BASE_SHA" in b][0]
job = yaml.safe_load(block)["sagelint"]
assert job["image"].startswith("python:"), job["image"]   # python3, pip, git and curl
lines = job["before_script"] + job["script"]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
open(sys.argv[3], "w").write("".join("export %s=%s\n" % (k, v) for k, v in job.get("variables", {}).items()))
PY
origin="$work/gl-origin"
mkdir -p "$origin/infra"
git init -q "$origin"
git -C "$origin" config uploadpack.allowAnySHA1InWant true
cp "$src/examples/infra/notebook.yaml" "$origin/infra/" 2>/dev/null || printf 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n' > "$origin/infra/notebook.yaml"
git -C "$origin" add -A && git -C "$origin" commit -qm base
base=$(git -C "$origin" rev-parse HEAD)
cp "$src/examples/infra/endpoint.yaml" "$origin/infra/"
git -C "$origin" add -A && git -C "$origin" commit -qm "add an endpoint"
git clone -q --depth 1 "file://$origin" "$work/gl-checkout"
python3 -m venv "$work/gl-venv"   # the image's python
rc=0
(cd "$work/gl-checkout" && env PATH="$work/gl-venv/bin:$PATH" HOME="$work/home-gl" \
   CI_PIPELINE_SOURCE=merge_request_event CI_MERGE_REQUEST_DIFF_BASE_SHA="$base" CI_MERGE_REQUEST_IID=5 CI_PROJECT_ID=1 \
   CI_API_V4_URL="${url%/OWNER/sagelint}/api/v4" SAGELINT_GITLAB_TOKEN=gl-token \
   bash -eo pipefail -c "$(as_written < "$work/gitlab.env")
$(cat "$work/gitlab.sh")") > "$work/gl.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/gl.out"; fail "the GitLab job exited $rc, expected 1 (a new finding)"; }
python3 - "$work/gl-checkout/gl-code-quality.json" "$work/api.log" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report and all(r["location"]["path"] == "infra/endpoint.yaml" for r in report), report
calls = [json.loads(l) for l in open(sys.argv[2])]
posts = [c for c in calls if c["method"] == "POST"]
assert len(posts) == 1 and posts[0]["path"] == "/api/v4/projects/1/merge_requests/5/notes", calls
assert posts[0]["body"]["body"].startswith("<!-- sagelint-diff -->"), posts[0]
assert all(c["token"] == "gl-token" for c in calls), calls
PY
echo "ok: GitLab CI: the image has what the job needs; before_script installs the release wheel; the job reports the new finding and posts the note"

# GitHub Actions: the snippets' inputs are the action's.
python3 - "$readme" "$src/action.yml" <<'PY'
import re, sys, yaml
inputs = set(yaml.safe_load(open(sys.argv[2]))["inputs"])
n = 0
for block in re.findall(r"```yaml\n(.*?)```", open(sys.argv[1]).read(), re.S):
    doc = yaml.safe_load(block)
    if not isinstance(doc, dict) or "jobs" not in doc:
        continue
    for job in doc["jobs"].values():
        for step in job["steps"]:
            if step.get("uses", "").startswith("OWNER/sagelint@"):
                n += 1
                assert set(step.get("with", {})) <= inputs, (set(step.get("with", {})) - inputs)
    perms = doc.get("permissions", {})
    assert perms.get("security-events") == "write", perms
assert n >= 2, n
PY
echo "ok: GitHub Actions: the snippets use only the action's inputs and grant security-events: write"
