#!/usr/bin/env bash
# Validates every GitHub workflow (.github/workflows/*.yml) and the Action
# (action.yml) with action-validator (npm @action-validator/cli, pinned in
# tests/integration/node): each file against the schema of its kind, and every
# `needs:` and glob it names. A YAML parse alone would pass a misspelt key.
#
# action-validator 0.6.0's schema predates the `attestations` job permission
# (which actions/attest-build-provenance needs), so that one key is taken out
# of a copy before validation; its value is checked here instead.
# Usage: workflows_valid.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src="$(realpath "$1")" work="$2"
mkdir -p "$work"
. "$(dirname "$0")/node_tools.sh"
tool="$node_tools/node_modules/.bin/action-validator"
failed=0 n=0
for f in "$src"/.github/workflows/*.yml "$src/action.yml"; do
  n=$((n + 1))
  name=${f#"$src/"}
  bad=$(grep -nE '^[[:space:]]+attestations:' "$f" | grep -vE 'attestations:[[:space:]]+write([[:space:]]|#|$)' || true)
  [ -z "$bad" ] || { echo "FAIL: $name: attestations permission other than write: $bad"; failed=1; }
  mkdir -p "$work/copy/$(dirname "$name")"
  # Keep the file's name and folder: the validator tells a workflow from an action by them.
  sed -E '/^[[:space:]]+attestations:[[:space:]]+write/d' "$f" > "$work/copy/$name"
  if out=$(cd "$work/copy" && "$tool" "$name" 2>&1); then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    echo "$out" | grep -E '"(detail|path|title)"' | head -40
    failed=1
  fi
done
# The validator itself must refuse a misspelt key (else every file above "passes").
mkdir -p "$work/copy/.github/workflows"
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    stepz: []\n' > "$work/copy/.github/workflows/zz-misspelt.yml"
if (cd "$work/copy" && "$tool" .github/workflows/zz-misspelt.yml >/dev/null 2>&1); then
  echo "FAIL: action-validator accepted a workflow with 'stepz'"
  failed=1
fi
rm -f "$work/copy/.github/workflows/zz-misspelt.yml"
[ "$failed" = 0 ] || exit 1
echo "$n workflow and action files valid"
