#!/usr/bin/env bash
# Compiles every source of sagelint (library, binary and tests) with clang and
# libc++ as far as syntax and semantics go (-fsyntax-only), with the flags the
# build uses: libc++ is the C++ library on macOS, and what libstdc++ accepts but
# libc++ lacks (floating-point std::from_chars before libc++ 17, headers
# included only transitively) shows up here on Linux. Linking against libc++
# cannot be tried on Debian (yaml-cpp and RE2 are built against libstdc++); the
# macOS release job links it.
#
# Usage: scripts/check-libcxx.sh BUILD_DIR
#   BUILD_DIR   a configured build (its compile_commands.json names the sources and flags)
# Exit 77 (skipped) where clang++ or libc++'s headers are missing (Debian: clang, libc++-dev).
set -euo pipefail
build="${1:?usage: check-libcxx.sh BUILD_DIR}"
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "check-libcxx: no $db (configure the build first)" >&2; exit 1; }
cxx="${CLANGXX:-clang++}"
command -v "$cxx" >/dev/null 2>&1 || { echo "SKIP: $cxx is not installed"; exit 77; }
if ! echo '#include <string>' | "$cxx" -x c++ -std=c++20 -stdlib=libc++ -fsyntax-only - 2>/dev/null; then
  echo "SKIP: libc++'s headers are not installed (Debian: apt-get install libc++-dev libc++abi-dev)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One command per C++ source: the build's own, with clang++ and libc++, syntax only.
python3 - "$db" "$cxx" "$work/commands" <<'PY'
import json, shlex, sys
db, cxx, out = sys.argv[1:]
with open(out, "w") as f:
    for e in json.load(open(db)):
        src = e["file"]
        if not src.endswith(".cc") or "/third_party/" in src or "/_deps/" in src:
            continue
        args = e.get("arguments") or shlex.split(e["command"])
        # Drop a compiler launcher (ccache) and the compiler, the output and -c.
        while args and not args[0].startswith("-") and ("ccache" in args[0] or args[0].endswith(("c++", "g++", "clang++"))):
            args = args[1:]
        kept, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD") or a == src:
                continue
            kept.append(a)
        cmd = [cxx, "-stdlib=libc++", "-fsyntax-only", "-Wno-unused-command-line-argument"] + kept + [src]
        f.write(json.dumps({"dir": e["directory"], "cmd": cmd, "file": src}) + "\n")
PY
n=$(wc -l < "$work/commands")
[ "$n" -gt 0 ] || { echo "check-libcxx: no C++ source in $db" >&2; exit 1; }
export work
# Each command in its directory; a failure leaves its diagnostics in a file.
python3 - "$work/commands" "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" <<'PY'
import json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
entries = [json.loads(l) for l in open(sys.argv[1])]
def run(e):
    r = subprocess.run(e["cmd"], cwd=e["dir"], capture_output=True, text=True)
    return e["file"], r.returncode, r.stderr
failed = 0
with ThreadPoolExecutor(int(sys.argv[2])) as pool:
    for path, rc, err in pool.map(run, entries):
        if rc != 0:
            failed += 1
            print("FAIL: %s\n%s" % (path, "\n".join(err.splitlines()[:30])))
print("libc++ syntax check: %d of %d sources failed" % (failed, len(entries)))
sys.exit(1 if failed else 0)
PY
