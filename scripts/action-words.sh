# Shared by the Action's steps (action-scan.sh, action-diff.sh); sourced, not run.
#
# SAGELINT_ARGS (options) and SAGELINT_PATHS are split into words as a shell
# splits them, without running anything: blanks separate words, '…' and "…"
# quote (a path with spaces: "my dir"), a backslash escapes one character. No
# expansion, substitution or globbing happens.

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
    echo "sagelint action: unmatched $quote in: $(wf_escape "$text")" >&2
    return 2
  fi
  if [ "$have" = 1 ]; then WORDS+=("$word"); fi
  return 0
}

# wf_escape TEXT: TEXT as the message of a workflow command (`::error::…`),
# escaped as the runner reads it: a value with a newline cannot start a
# command of its own, and % stays a percent sign.
wf_escape() {
  local s="$1"
  s="${s//'%'/%25}"
  s="${s//$'\r'/%0D}"
  s="${s//$'\n'/%0A}"
  printf '%s' "$s"
}

fail_usage() {
  echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit 2
}

# action_words: sets `paths` (default `.`) and `extra` from SAGELINT_PATHS and
# SAGELINT_ARGS, or records a usage error and exits.
action_words() {
  split_words "${SAGELINT_PATHS:-.}" || fail_usage
  paths=(${WORDS[@]+"${WORDS[@]}"})
  [ ${#paths[@]} -gt 0 ] || paths=(.)
  split_words "${SAGELINT_ARGS:-}" || fail_usage
  extra=(${WORDS[@]+"${WORDS[@]}"})
}
