#!/usr/bin/env bash
# Every C++ source of ours is in the layout of the repository's .clang-format,
# as clang-format 14 (Debian 12's, the version CI installs) writes it. Other
# versions lay some constructs out differently, so they skip (77) rather than
# fail. Usage: format_check.sh SOURCE_DIR
set -euo pipefail
src="$(realpath "$1")"
cd "$src"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "SKIP: clang-format is not installed"; exit 77
fi
version=$(clang-format --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "SKIP: clang-format $version; the layout is checked with clang-format 14"; exit 77
fi
files=()
if [ -e .git ] && command -v git >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do files+=("$f"); done < <(git ls-files -z -- '*.cc' '*.h' ':!:third_party/*')
else
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find linter parsers rules tests \( -name '*.cc' -o -name '*.h' \) -print0)
fi
bad=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run: clang-format -i $f)"; bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then echo "FAIL: $bad of ${#files[@]} files differ from .clang-format"; exit 1; fi
echo "ok: ${#files[@]} files formatted"
