#!/usr/bin/env bash
# Runs clang-tidy with the repository's .clang-tidy over the given files (default:
# every .cc under linter/, parsers/ and rules/) against build/compile_commands.json.
# Prints the warnings and exits 1 when there is one. Slow (seconds per file): a
# maintainer's check, not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "tidy.sh: clang-tidy is not installed (apt-get install clang-tidy)" >&2; exit 2; }
[ -f build/compile_commands.json ] || { echo "tidy.sh: no build/compile_commands.json; run scripts/setup.sh first" >&2; exit 2; }
if (($#)); then files=("$@"); else mapfile -t files < <(git ls-files 'linter/*.cc' 'parsers/*.cc' 'rules/*.cc'); fi
warnings=0
for f in "${files[@]}"; do
  out=$(clang-tidy -p build --quiet "$f" 2>/dev/null | grep -E "warning:|error:" || true)
  if [ -n "$out" ]; then
    echo "$out"
    warnings=1
  fi
done
exit "$warnings"
