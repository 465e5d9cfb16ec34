#!/usr/bin/env bash
# The pull-request step of action.yml: `sagelint diff` against the PR's base
# commit — GitHub annotations and SARIF for the new findings, and one PR
# comment with the spend delta that every push updates in place. Records the
# exit status for the later steps (so the SARIF upload happens first).
# Usage: action-diff.sh SAGELINT_BINARY   (inputs in SAGELINT_* variables)
set -uo pipefail
bin="$1"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/action-words.sh"  # split_words, fail_usage, action_words
base="${SAGELINT_BASE:-}"
if [ -z "$base" ]; then
  echo "::error::sagelint: no base commit (SAGELINT_BASE) for diff"
  fail_usage
fi
# A shallow checkout may lack the base commit: fetch just that commit.
if ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
  if ! git fetch --no-tags --quiet --depth=1 origin "$base"; then
    echo "::error::sagelint: cannot fetch the base commit $base"
    fail_usage
  fi
fi
comment_file="${SAGELINT_COMMENT_FILE:-${RUNNER_TEMP:-/tmp}/sagelint-comment.md}"
action_words
"$bin" diff --base "$base" --format github --format "sarif=${SAGELINT_SARIF:-sagelint.sarif}" \
  --format "markdown=$comment_file" --fail-on "${SAGELINT_FAIL_ON:-warning}" ${extra[@]+"${extra[@]}"} -- "${paths[@]}"
rc=$?
echo "exit-code=$rc" >> "${GITHUB_OUTPUT:-/dev/null}"
# A usage or configuration error fails here; findings fail after the upload.
[ "$rc" -eq 2 ] && exit 2
if [ "${SAGELINT_COMMENT:-true}" = "true" ] && [ -s "$comment_file" ]; then
  # A pull request from a fork gets a read-only token: say so, do not fail.
  python3 "$here/action-comment.py" "$comment_file" ||
    echo "::warning::sagelint: could not create or update the pull-request comment"
fi
exit 0
