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
present=()
for f in "${files[@]}"; do [ -f "$f" ] && present+=("$f"); done
# One clang-format for all files (xargs splits only a too long command line); it
# reports every place that differs as FILE:LINE:COL: error: … and goes on.
rc=0
out=$(printf '%s\0' "${present[@]}" | xargs -0 clang-format --dry-run --Werror 2>&1) || rc=$?
bad=0
while IFS= read -r f; do
  echo "not formatted: $f (run: clang-format -i $f)"; bad=$((bad + 1))
done < <(sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: error: .*/\1/p' <<<"$out" | sort -u)
if [ "$bad" -gt 0 ]; then echo "FAIL: $bad of ${#present[@]} files differ from .clang-format"; exit 1; fi
if [ "$rc" -ne 0 ]; then echo "FAIL: clang-format exited with $rc"; echo "$out" | head -n 20; exit 1; fi
echo "ok: ${#present[@]} files formatted"
