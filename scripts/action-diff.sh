#!/usr/bin/env bash
# The pull-request step of action.yml: `sagelint diff` against the PR's base
# commit — GitHub annotations and SARIF for the new findings, and the PR
# comment's text in a file for the comment step (action-comment.py), which
# alone gets the GitHub token. With SAGELINT_SUGGEST_FIXES=true, the JSON report
# too, whose fixes the comment step suggests or lists. Records the exit status
# for the later steps (so the SARIF upload happens first).
# Usage: action-diff.sh SAGELINT_BINARY   (inputs in SAGELINT_* variables)
#
# The base comes from the workflow (the PR's base commit, or the `base`
# input): it is never read as an option by git — a value starting with '-' is
# refused, and every git argument comes after --end-of-options — nor as a
# refspec: only a commit id or a ref name git accepts is taken (no ':', no
# leading '+'), and a base the checkout lacks is fetched into a ref of our own
# (refs/sagelint/base), so no branch or remote-tracking ref is ever moved. It is
# escaped wherever it is echoed into a workflow command.
set -uo pipefail
# Whatever tokens the workflow put in the job's environment, sagelint and git run without them.
unset GITHUB_TOKEN GH_TOKEN SAGELINT_TOKEN ACTIONS_RUNTIME_TOKEN ACTIONS_ID_TOKEN_REQUEST_TOKEN ACTIONS_ID_TOKEN_REQUEST_URL
bin="$1"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/action-words.sh"  # split_words, fail_usage, action_words, wf_escape
# The comment and the fix report are outputs later steps read: by default in a
# directory of this run's own (two runs at once never share them).
if [ -z "${SAGELINT_COMMENT_FILE:-}" ] || [ -z "${SAGELINT_FIX_REPORT:-}" ]; then
  out_dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/sagelint-diff.XXXXXX") || exit 2
fi
comment_file="${SAGELINT_COMMENT_FILE:-$out_dir/sagelint-comment.md}"
fix_report="${SAGELINT_FIX_REPORT:-$out_dir/sagelint-fixes.json}"
# A file already there (committed, or a link) must never be what is posted or uploaded.
rm -f "$comment_file" "$fix_report" "${SAGELINT_SARIF:-sagelint.sarif}"
base="${SAGELINT_BASE:-}"
if [ -z "$base" ]; then
  echo "::error::sagelint: no base commit (SAGELINT_BASE) for diff"
  fail_usage
fi
not_a_revision() {
  echo "::error::sagelint: the base '$(wf_escape "$base")' is not a commit or a branch name"
  fail_usage
}
case "$base" in
  -* | +* | *:* | *[[:space:]]* | *[[:cntrl:]]*) not_a_revision ;;
esac
if ! [[ "$base" =~ ^[0-9a-fA-F]{7,64}$ ]] && ! git check-ref-format --allow-onelevel "$base"; then
  not_a_revision
fi
# A shallow checkout may lack the base commit: fetch just that commit, into our own ref.
if ! git cat-file -e --end-of-options "${base}^{commit}" 2>/dev/null; then
  if ! git fetch --no-tags --quiet --depth=1 --end-of-options origin "+$base:refs/sagelint/base"; then
    echo "::error::sagelint: cannot fetch the base commit $(wf_escape "$base")"
    fail_usage
  fi
  base=refs/sagelint/base
fi
action_words
# The JSON report feeds the step's outputs (action-outputs.py) and, with
# suggest-fixes, the comment step's suggestions.
"$bin" diff --base "$base" --format github --format "sarif=${SAGELINT_SARIF:-sagelint.sarif}" \
  --format "markdown=$comment_file" --format "json=$fix_report" --fail-on "${SAGELINT_FAIL_ON:-warning}" \
  ${extra[@]+"${extra[@]}"} -- "${paths[@]}"
rc=$?
echo "exit-code=$rc" >> "${GITHUB_OUTPUT:-/dev/null}"
[ "$rc" -eq 2 ] || python3 "$here/action-outputs.py" "$fix_report" >> "${GITHUB_OUTPUT:-/dev/null}"
# The comment step posts it (with the token this step never sees).
if [ -s "$comment_file" ]; then echo "comment-file=$comment_file" >> "${GITHUB_OUTPUT:-/dev/null}"; fi
if [ "${SAGELINT_SUGGEST_FIXES:-false}" = true ] && [ -s "$fix_report" ]; then
  echo "fix-report=$fix_report" >> "${GITHUB_OUTPUT:-/dev/null}"
fi
# A usage or configuration error fails here; findings fail after the upload.
[ "$rc" -eq 2 ] && exit 2
exit 0
