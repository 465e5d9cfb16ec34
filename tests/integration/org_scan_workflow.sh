#!/usr/bin/env bash
# The reusable organisation workflow (.github/workflows/org-scan.yml) is a valid
# workflow for @action-validator/cli (pinned in tests/integration/node), and
# the validator is awake: the same file with a misspelt key fails.
set -euo pipefail
src="${1:?usage: org_scan_workflow.sh SOURCE_DIR}"
. "$(dirname "$0")/node_tools.sh"
validator="$node_tools/node_modules/.bin/action-validator"
workflow="$src/.github/workflows/org-scan.yml"
"$validator" "$workflow"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^      max-parallel:/      max-paralel:/' "$workflow" > "$tmp/org-scan.yml"
if "$validator" "$tmp/org-scan.yml" >/dev/null 2>&1; then
  echo "FAIL: the validator accepted an unknown strategy key"
  exit 1
fi
# What docs/organisation.md promises of it.
for want in 'workflow_call:' 'max-parallel: ${{ inputs.max-parallel }}' 'fetch-depth: 1' 'secrets.token' \
  'merge reports --repos repos.txt' '--format "html=out/$REPORT.html"' 'sha256sum --check'; do
  grep -qF -- "$want" "$workflow" || { echo "FAIL: org-scan.yml lacks: $want"; exit 1; }
done
echo "1 passed, 0 failed"
