#!/usr/bin/env bash
# The Action's binary and SARIF steps (action.yml, scripts/action-build.sh,
# scripts/action-sarif.sh). action.yml is valid YAML whose steps run scripts that
# exist. The binary: the release binary for the action's ref is preferred —
# the ref's commit from the action's repository (a fake "server" of git
# repositories), the release from a directory, `gh attestation verify` through a
# stand-in — then the cache, then a build (observed through a `cmake` that only
# records). SARIF: a repository whose code scanning cannot take it gets a notice
# and no upload; one that can gets the upload (a fake REST API answers).
# Usage: action_release.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$(realpath "$1")" src="$(realpath "$2")"
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$work/err" ] && echo "--- stderr" && cat "$work/err"; exit 1; }
git() { command git -c user.email=t@t -c user.name=t -c commit.gpgsign=false "$@"; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
case "$(uname -m)" in x86_64 | amd64) asset=sagelint-linux-x86_64 ;; aarch64 | arm64) asset=sagelint-linux-aarch64 ;;
  *) echo "SKIP: no release binary name for $(uname -m)"; exit 77 ;; esac

python3 - "$src/action.yml" "$src" <<'PY'
import os, re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
steps = action["runs"]["steps"]
for s in steps:
    for script in re.findall(r"github\.action_path \}\}/(scripts/[\w.-]+)", s.get("run", "")):
        assert os.access(os.path.join(sys.argv[2], script), os.X_OK), script
names = [s.get("id") for s in steps]
upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
assert "steps.sarif.outputs.upload == 'true'" in upload["if"], upload["if"]
assert names.index("sarif") < steps.index(upload), names
PY
echo "ok: action.yml is valid YAML; its steps run scripts that exist; the upload waits for the SARIF check"

# The action as the runner unpacks it: .../_actions/OWNER/REPO/REF (no git).
unpack() {  # unpack REF: prints the action's directory
  local dir="$work/runner/_actions/octo/sagelint/$1"
  mkdir -p "$dir"
  (cd "$src" && tar -cf - --exclude=node_modules CMakeLists.txt cmake linter parsers rules third_party scripts action.yml) |
    tar -xf - -C "$dir"
  echo "$dir"
}
# The action's repository on the "server", with the tag v$version on commit $tagged.
export GITHUB_SERVER_URL="file://$work/server"
origin="$work/server/octo/sagelint"
git init -q "$origin"
echo one > "$origin/f" && git -C "$origin" add f && git -C "$origin" commit -qm one
git -C "$origin" tag -a "v$version" -m "v$version"
tagged=$(git -C "$origin" rev-parse HEAD)
release() {  # release DIR COMMIT
  mkdir -p "$1/v$version"
  cp "$bin" "$1/v$version/$asset"
  echo "$2" > "$1/v$version/COMMIT"
  (cd "$1/v$version" && sha256sum "$asset" COMMIT > SHA256SUMS)
}
release "$work/rel" "$tagged"
export SAGELINT_RELEASE_URL="file://$work/rel"

# Stand-ins: cmake records a build (and fails); gh records and answers $FAKE_GH_RC.
mkdir -p "$work/fake"
printf '#!/bin/sh\necho "cmake $*" >> "%s/built"\nexit 1\n' "$work" > "$work/fake/cmake"
printf '#!/bin/sh\necho "gh $*" >> "%s/gh.log"\necho "gh: verification failed" >&2\nexit ${FAKE_GH_RC:-0}\n' "$work" > "$work/fake/gh"
chmod +x "$work/fake/cmake" "$work/fake/gh"
export PATH="$work/fake:$PATH"
install() {  # install ACTION_DIR CACHE_DIR: exit status in $rc, stderr in $work/err
  rm -f "$work/built" "$work/gh.log"
  rc=0
  "$1/scripts/action-build.sh" install "$2" > /dev/null 2> "$work/err" || rc=$?
}

# 1. A tag ref with its release: taken, attestation checked, nothing built.
act=$(unpack "v$version")
install "$act" "$work/bin1"
[ "$rc" = 0 ] || fail "the release was not installed (exit $rc)"
grep -qF "sagelint: using the release binary v$version ($asset, SHA-256 verified, built from ${tagged:0:12})" "$work/err" ||
  fail "the release binary was not taken"
grep -q "^gh attestation verify .*/$asset --repo octo/sagelint$" "$work/gh.log" || fail "gh attestation verify not run: $(cat "$work/gh.log" 2>&1)"
cmp -s "$bin" "$work/bin1/sagelint" || fail "another binary was installed"
[ ! -e "$work/built" ] || fail "something was built"
[ "$(cat "$work/bin1/.key")" = "$("$act/scripts/action-build.sh" key | cut -d= -f2)" ] || fail "the binary is not recorded under the cache key"
echo "ok: the release binary for the action's tag is taken, checksum and attestation verified, nothing built"

# 2. The attestation refused: not taken; with no cache, a build.
FAKE_GH_RC=1 install "$act" "$work/bin2"
grep -qF "sagelint: release v$version refused: gh attestation verify --repo octo/sagelint failed: gh: verification failed" "$work/err" ||
  fail "a refused attestation was not reported"
[ -s "$work/built" ] && [ "$rc" != 0 ] && [ ! -e "$work/bin2/sagelint" ] || fail "after a refused attestation: exit $rc"
echo "ok: a binary whose attestation gh refuses is not used; the Action goes on to build"

# 3. A ref whose commit is not the release's: refused; a cache entry under the key is used.
git -C "$origin" checkout -q -b main
echo two > "$origin/f" && git -C "$origin" commit -qam two
act_main=$(unpack main)
mkdir -p "$work/bin3"
cp "$bin" "$work/bin3/sagelint"
"$act_main/scripts/action-build.sh" key | cut -d= -f2 > "$work/bin3/.key"
install "$act_main" "$work/bin3"
[ "$rc" = 0 ] || fail "the cache was not used after the release was refused (exit $rc)"
grep -qF "release v$version refused: it was built from commit ${tagged:0:12}, this is $(git -C "$origin" rev-parse HEAD | cut -c1-12)" "$work/err" ||
  fail "a release of another commit was not refused"
grep -q "cached binary" "$work/err" && [ ! -e "$work/built" ] || fail "the cache entry was not used"
echo "ok: a release built from another commit than the ref's is refused; the cache is used"

# 3b. The same ref with a container image published for its commit of main
# (main-image.yml): the binary comes out of the image, nothing is built. A
# stand-in docker serves the images in $work/images (one directory per name).
main_commit=$(git -C "$origin" rev-parse HEAD)
mkdir -p "$work/images/ghcr.io/octo/sagelint:sha-$main_commit"
cp "$bin" "$work/images/ghcr.io/octo/sagelint:sha-$main_commit/sagelint"
cat > "$work/fake/docker" <<SH
#!/bin/sh
echo "docker \$*" >> "$work/docker.log"
case "\$1" in
  pull) for a; do img=\$a; done; [ -d "$work/images/\$img" ] ;;
  create) for a; do img=\$a; done; echo "\$img" > "$work/container"; echo cid123 ;;
  cp) cp "$work/images/\$(cat "$work/container")/sagelint" "\$3" ;;
  rm) exit 0 ;;
  *) exit 1 ;;
esac
SH
chmod +x "$work/fake/docker"
install "$act_main" "$work/bin3b"
[ "$rc" = 0 ] || fail "the image's binary was not installed (exit $rc)"
grep -qF "sagelint: using the binary of the container image ghcr.io/octo/sagelint:sha-$main_commit" "$work/err" ||
  fail "the image was not used"
grep -q "^docker pull --quiet --platform linux/" "$work/docker.log" || fail "docker pull not run: $(cat "$work/docker.log")"
cmp -s "$bin" "$work/bin3b/sagelint" && [ ! -e "$work/built" ] || fail "the image's binary was not the one installed, or something was built"
# No image for the commit: said, then the cache or a build as before.
rm -rf "$work/images/ghcr.io/octo/sagelint:sha-$main_commit"
install "$act_main" "$work/bin3c"
grep -qF "sagelint: no container image ghcr.io/octo/sagelint:sha-$main_commit" "$work/err" && [ -s "$work/built" ] ||
  fail "without an image: exit $rc"
rm "$work/fake/docker"
echo "ok: a ref without a release takes the binary of its commit's container image; without one, it builds"

# 4. A full SHA as the ref, named by SAGELINT_ACTION_REPOSITORY/REF; no gh: checksum only.
act_path="$work/elsewhere"
mkdir -p "$act_path" && cp -R "$act/." "$act_path/"
rm "$work/fake/gh"
if command -v gh >/dev/null 2>&1; then
  echo "note: a gh is installed here; the no-gh case is not run"
else
  SAGELINT_ACTION_REPOSITORY=octo/sagelint SAGELINT_ACTION_REF="$tagged" install "$act_path" "$work/bin4"
  [ "$rc" = 0 ] || fail "a SHA ref with its release was not installed (exit $rc)"
  grep -qF "gh is not installed: the attestation of $asset is not checked (its checksum is)" "$work/err" ||
    fail "no word that the attestation is not checked"
  echo "ok: a SHA ref from SAGELINT_ACTION_REPOSITORY/REF; without gh the checksum alone decides"
fi

# 5. Used from a path in the workspace (uses: ./): no release is looked for.
install "$act_path" "$work/bin5"
grep -qF "the action is not used from a repository ref: no release binary" "$work/err" || fail "a local action looked for a release"
[ -s "$work/built" ] || fail "a local action without a cache did not build"
echo "ok: an action used from a path builds (or uses its cache)"

# SARIF: a fake REST API answering the code-scanning probe as $MODE says.
cat > "$work/api.py" <<'PY'
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        mode = open(sys.argv[1]).read().strip()
        status, message = {
            "disabled": (403, "Advanced Security must be enabled for this repository to use code scanning."),
            "permission": (403, "Resource not accessible by integration"),
            "none-yet": (404, "no analysis found"),
            "ok": (200, None)}[mode]
        assert self.path == "/repos/octo/ml/code-scanning/analyses?per_page=1", self.path
        assert self.headers["Authorization"] == "Bearer test-token", self.headers
        body = json.dumps({"message": message} if message else []).encode()
        self.send_response(status); self.send_header("Content-Type", "application/json"); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_port, flush=True)
s.serve_forever()
PY
echo ok > "$work/mode"
python3 "$work/api.py" "$work/mode" > "$work/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
export GITHUB_API_URL="http://127.0.0.1:$(cat "$work/port")" GITHUB_REPOSITORY=octo/ml SAGELINT_TOKEN=test-token GITHUB_EVENT_NAME=push
sarif() {  # sarif MODE EXPECTED_OUTPUT [NOTICE]
  echo "$1" > "$work/mode"
  local out
  out=$("$src/scripts/action-sarif.sh" 2> "$work/err") || fail "action-sarif.sh failed in mode $1"
  [ "$out" = "$2" ] || fail "mode $1: printed '$out', expected '$2'"
  if [ -n "${3:-}" ]; then grep -qF "::notice title=sagelint::SARIF not uploaded to code scanning: $3" "$work/err" || fail "mode $1: no notice"
  else [ ! -s "$work/err" ] || fail "mode $1: unexpected output"; fi
}
sarif ok upload=true
sarif none-yet upload=true
sarif disabled upload=false "code scanning is not enabled for octo/ml (Advanced Security must be enabled"
sarif permission upload=false "the workflow's token may not use code scanning: give the job \`permissions: security-events: write\`"
GITHUB_EVENT_NAME=pull_request SAGELINT_HEAD_REPOSITORY=someone/ml sarif ok upload=false \
  "a pull request from a fork (someone/ml) runs with a read-only token"
GITHUB_EVENT_NAME=pull_request SAGELINT_HEAD_REPOSITORY=octo/ml sarif ok upload=true
echo "ok: SARIF is uploaded where code scanning can take it; otherwise a notice, not a failure"
