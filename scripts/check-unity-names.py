#!/usr/bin/env python3
"""Every unity batching of the library compiles: no two files share a file-local name.

The library is a unity build (docs/maintaining.md "Building and testing"): CMake joins
its sources eight to a unit in the order of the source list, so adding or
removing one file moves every later file into another batch. Two files that
each define a file-local name (an anonymous-namespace or `static` function,
type or constant) in the same namespace compile today only while they fall into
different batches. This check compiles all batched sources as ONE unit with
-fsyntax-only, so any such pair is reported now, whichever batches they would
meet in later.

Usage: check-unity-names.py BUILD_DIR
Exit 0: no clash; 1: clashes (listed); 77: the build is not a unity build.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def batches(build_dir):
    """The library's unity batch files and the compile command of one of them."""
    with open(os.path.join(build_dir, "compile_commands.json")) as f:
        commands = json.load(f)
    files, command = [], None
    for entry in commands:
        path = entry["file"]
        if "/sagelint_lib.dir/Unity/unity_" in path:
            files.append(path)
            command = entry.get("command") or " ".join(shlex.quote(a) for a in entry["arguments"])
    return sorted(files, key=lambda p: int(re.search(r"unity_(\d+)_", p).group(1))), command


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    build_dir = os.path.realpath(argv[1])
    files, command = batches(build_dir)
    if not files:
        print("SKIP: %s is not a unity build (SAGELINT_UNITY_BUILD=OFF)" % build_dir)
        return 77
    sources = []
    for path in files:
        with open(path) as f:
            sources += [line for line in f if line.startswith("#include")]
    args = shlex.split(command)
    # The compiler and its flags, without the output and the input.
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-MD", "-MMD") or a.endswith(".cxx") or a.startswith("-g") or a.startswith("-O"):
            continue
        kept.append(a)
    with tempfile.TemporaryDirectory() as tmp:
        unit = os.path.join(tmp, "all_sources.cxx")
        with open(unit, "w") as f:
            f.writelines(sources)
        r = subprocess.run(kept + ["-fsyntax-only", "-fmax-errors=0", unit], cwd=build_dir,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode == 0:
        print("ok: the library's %d batched sources compile as one unit" % len(sources))
        return 0
    clashes = sorted(set(re.findall(r"^(\S+?:\d+:\d+): error: ((?:redefinition of|conflicting declaration|"
                                    r"reference to .* is ambiguous|.* redeclared as different kind).*)$",
                                    r.stdout, re.M)))
    print("FAIL: the library's sources do not compile as one unit; a later unity batch may join these:")
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    earlier = dict(re.findall(r"^(\S+?:\d+:\d+): error: .*\n(?:.*\n){0,4}?(\S+?:\d+:\d+): note: "
                              r"(?:previous|.*previously)", r.stdout, re.M))
    for where, what in clashes:
        line = "  %s: %s" % (os.path.relpath(where, root), what)
        if where in earlier:
            line += " (first at %s)" % os.path.relpath(earlier[where], root)
        print(line)
    if not clashes:
        print(r.stdout[:4000])
    print("Give one of each pair another name, or put a file's internals in a namespace of its own "
          "(docs/maintaining.md \"Building and testing\").")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
