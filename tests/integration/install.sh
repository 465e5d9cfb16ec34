#!/usr/bin/env bash
# `cmake --install BUILD --prefix DIR` installs DIR/bin/sagelint, the man page
# DIR/share/man/man1/sagelint.1 and the bash, zsh and fish completions, all
# rendered at build time from the help text and the rule table. The completions
# complete: bash through its completion function, fish through `complete -C`,
# zsh is checked for syntax and loads into compinit.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(realpath "$1")" src="$(realpath "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
bin="$prefix/bin/sagelint"
man="$prefix/share/man/man1/sagelint.1"
bash_c="$prefix/share/bash-completion/completions/sagelint"
zsh_c="$prefix/share/zsh/site-functions/_sagelint"
fish_c="$prefix/share/fish/vendor_completions.d/sagelint.fish"
for f in "$bin" "$man" "$bash_c" "$zsh_c" "$fish_c"; do
  [ -s "$f" ] || { cat "$work/install.log"; fail "not installed: ${f#"$prefix"/}"; }
done
[ -x "$bin" ] || fail "bin/sagelint is not executable"
"$bin" --version | grep -qx "sagelint [0-9.]*\( (commit [0-9a-z.-]*)\)\?" || fail "the installed binary does not run"
if command -v readelf >/dev/null 2>&1; then
  readelf -S "$bin" | grep -qE '\.(debug_info|symtab)' && fail "bin/sagelint is not stripped ($(du -h "$bin" | cut -f1))"
fi
echo "ok: bin/sagelint (stripped, $(du -h "$bin" | cut -f1)), share/man/man1/sagelint.1 and three completion files installed"

# The completion files are what `sagelint completion SHELL` prints.
for sh in bash zsh fish; do
  case "$sh" in bash) f="$bash_c" ;; zsh) f="$zsh_c" ;; fish) f="$fish_c" ;; esac
  "$bin" completion "$sh" | cmp -s - "$f" || fail "$f differs from sagelint completion $sh"
done
rc=0; "$bin" completion tcsh > /dev/null 2> "$work/err" || rc=$?
[ "$rc" = 2 ] && grep -q "unknown shell 'tcsh' (bash|zsh|fish)" "$work/err" || fail "an unknown shell: exit $rc, $(cat "$work/err")"
echo "ok: installed completions equal sagelint completion bash|zsh|fish"

# The man page: every command and option of the help, every rule; valid roff.
help=$("$bin" --help)
options=$(echo "$help" | sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p')
[ -n "$options" ] || fail "no options read from --help"
for o in $options; do
  grep -qF -- "${o//-/\\-}" "$man" || fail "the man page lacks $o"
done
for id in $("$bin" rules --format json | python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)["rules"]))'); do
  grep -q "^\.B $id " "$man" || fail "the man page lacks rule $id"
done
if command -v groff > /dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1 || true)
  [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
  # Rendered whole first: grep -q leaving a pipe early would SIGPIPE groff (pipefail).
  rendered=$(groff -man -Tutf8 -P -cbou "$man" 2>/dev/null)
  grep -q "^SYNOPSIS" <<<"$rendered" || fail "the man page does not render"
  echo "ok: the man page lists every option and rule and renders without warnings"
else
  echo "ok: the man page lists every option and rule (groff not installed: not rendered)"
fi

# bash: the completion function, as readline would call it.
complete_bash() {  # complete_bash WORD... (the last word is the one being completed)
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _sagelint
    printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_c" sagelint "$@"
}
expect_bash() {  # expect_bash "EXPECTED (space-separated)" WORD...
  local want="$1"; shift
  local got; got=$(complete_bash "$@" | sort | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "bash: sagelint $* -> '$got', expected '$want'"
}
expect_bash "explain" ex
expect_bash "SM401 SM402 SM403" explain SM4
expect_bash "csv json table" inventory --format ""
expect_bash "csv json table" --config x.yaml inventory --format ""
expect_bash "github gitlab" --format gi
expect_bash "error" scan --fail-on e
expect_bash "SM211 SM212 SM213" --select SM21
expect_bash "bash" completion ba
expect_bash "--fail-on --fix --format" scan --f
expect_bash "" --config ""     # a file: left to readline's file name completion
echo "ok: bash completes commands, options, formats per command, levels and rule IDs"

# fish: its own completion engine.
if command -v fish > /dev/null; then
  expect_fish() {  # expect_fish "EXPECTED" "COMMAND LINE"
    local got
    got=$(fish --no-config -c "source $fish_c; complete -C '$2'" | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$1" ] || fail "fish: '$2' -> '$got', expected '$1'"
  }
  expect_fish "explain" "sagelint expl"
  expect_fish "SM401 SM402 SM403" "sagelint explain SM4"
  expect_fish "csv json table" "sagelint --config x.yaml inventory --format "
  expect_fish "error none note warning" "sagelint scan --fail-on "
  expect_fish "bash fish zsh" "sagelint completion "
  echo "ok: fish completes commands, formats per command, levels and rule IDs"
else
  fail "fish is not installed (scripts/test.sh installs it)"
fi

# zsh: valid syntax, and compinit picks the function up for `sagelint`.
if command -v zsh > /dev/null; then
  zsh -n "$zsh_c" || fail "zsh: syntax error in _sagelint"
  got=$(zsh -f -c "fpath=(${zsh_c%/*} \$fpath); autoload -U compinit; compinit -u -d $work/zcompdump; print -r -- \${_comps[sagelint]}")
  [ "$got" = "_sagelint" ] || fail "zsh: compinit does not bind _sagelint to sagelint (got '$got')"
  echo "ok: zsh loads _sagelint for sagelint"
else
  fail "zsh is not installed (scripts/test.sh installs it)"
fi
