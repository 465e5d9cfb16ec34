#!/usr/bin/env bash
# The scan step of action.yml: runs sagelint with GitHub annotations on stdout
# and SARIF to a file, and records the exit status for the later steps (so the
# SARIF upload happens before the job fails).
# Usage: action-scan.sh SAGELINT_BINARY   (inputs in SAGELINT_* variables)
#
# SAGELINT_ARGS (options) and SAGELINT_PATHS are split into words as a shell
# splits them, without running anything: blanks separate words, '…' and "…"
# quote (a path with spaces: "my dir"), a backslash escapes one character. No
# expansion, substitution or globbing happens. The paths follow `--`, so a file
# or directory named like an option is scanned, never obeyed.
set -uo pipefail
bin="$1"

# split_words TEXT: sets WORDS to the words of TEXT; returns 2 on an unmatched quote.
# (Plain bash 3.2, the version macOS runners have: no namerefs, no mapfile.)
split_words() {
  local text="$1" word="" have=0 quote="" c next i
  WORDS=()
  for ((i = 0; i < ${#text}; i++)); do
    c="${text:i:1}"
    next="${text:i+1:1}"
    if [ "$quote" = "'" ]; then
      if [ "$c" = "'" ]; then quote=""; else word+="$c"; fi
    elif [ "$quote" = '"' ]; then
      if [ "$c" = '"' ]; then
        quote=""
      elif [ "$c" = '\' ] && { [ "$next" = '"' ] || [ "$next" = '\' ] || [ "$next" = '$' ] || [ "$next" = '`' ]; }; then
        word+="$next"
        i=$((i + 1))
      else
        word+="$c"
      fi
    elif [ "$c" = "'" ] || [ "$c" = '"' ]; then
      quote="$c"
      have=1
    elif [ "$c" = '\' ]; then
      word+="$next"
      have=1
      i=$((i + 1))
    elif [ "$c" = ' ' ] || [ "$c" = $'\t' ] || [ "$c" = $'\n' ] || [ "$c" = $'\r' ]; then
      if [ "$have" = 1 ]; then WORDS+=("$word"); fi
      word="" have=0
    else
      word+="$c"
      have=1
    fi
  done
  if [ -n "$quote" ]; then
    echo "sagelint action: unmatched $quote in: $text" >&2
    return 2
  fi
  if [ "$have" = 1 ]; then WORDS+=("$word"); fi
  return 0
}

fail_usage() {
  echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit 2
}

split_words "${SAGELINT_PATHS:-.}" || fail_usage
paths=(${WORDS[@]+"${WORDS[@]}"})
[ ${#paths[@]} -gt 0 ] || paths=(.)
split_words "${SAGELINT_ARGS:-}" || fail_usage
extra=(${WORDS[@]+"${WORDS[@]}"})

"$bin" scan --format github --format "sarif=${SAGELINT_SARIF:-sagelint.sarif}" \
  --fail-on "${SAGELINT_FAIL_ON:-warning}" ${extra[@]+"${extra[@]}"} -- "${paths[@]}"
rc=$?
echo "exit-code=$rc" >> "${GITHUB_OUTPUT:-/dev/null}"
# A usage or configuration error fails here; findings fail after the upload.
[ "$rc" -eq 2 ] && exit 2
exit 0
