#!/usr/bin/env bash
# The scan step of action.yml: runs sagelint with GitHub annotations on stdout
# and SARIF to a file, and records the exit status for the later steps (so the
# SARIF upload happens before the job fails).
# Usage: action-scan.sh SAGELINT_BINARY   (inputs in SAGELINT_* variables)
#
# SAGELINT_ARGS and SAGELINT_PATHS are split as a shell splits words, without
# running anything (action-words.sh). The paths follow `--`, so a file or
# directory named like an option is scanned, never obeyed.
set -uo pipefail
# Whatever tokens the workflow put in the job's environment, sagelint and git run without them.
unset GITHUB_TOKEN GH_TOKEN SAGELINT_TOKEN ACTIONS_RUNTIME_TOKEN ACTIONS_ID_TOKEN_REQUEST_TOKEN ACTIONS_ID_TOKEN_REQUEST_URL
bin="$1"

# Splitting SAGELINT_ARGS / SAGELINT_PATHS: see action-words.sh.
. "$(cd "$(dirname "$0")" && pwd)/action-words.sh"
action_words

# The JSON report feeds the step's outputs (action-outputs.py). It is kept in a
# directory of this run's own (two scans at once never share it), removed at the end.
tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/sagelint-scan.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
report="$tmp/report.json"
# A SARIF file already there (committed, or a link) must never be what is uploaded.
rm -f "${SAGELINT_SARIF:-sagelint.sarif}" "$report"
"$bin" scan --format github --format "sarif=${SAGELINT_SARIF:-sagelint.sarif}" --format "json=$report" \
  --fail-on "${SAGELINT_FAIL_ON:-warning}" ${extra[@]+"${extra[@]}"} -- "${paths[@]}"
rc=$?
echo "exit-code=$rc" >> "${GITHUB_OUTPUT:-/dev/null}"
[ "$rc" -eq 2 ] || python3 "$(dirname "$0")/action-outputs.py" "$report" >> "${GITHUB_OUTPUT:-/dev/null}"
# A usage or configuration error fails here; findings fail after the upload.
[ "$rc" -eq 2 ] && exit 2
exit 0
