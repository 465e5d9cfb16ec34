#!/usr/bin/env python3
"""Writes the Homebrew formula of a release from its SHA256SUMS.

Usage: scripts/homebrew-formula.py DIST REPOSITORY_URL [OUT]

DIST holds the release's files (SHA256SUMS among them; the binaries need not be
there); REPOSITORY_URL is the GitHub repository the release is published in
(https://github.com/OWNER/NAME): the formula downloads each platform's binary
from REPOSITORY_URL/releases/download/vX.Y.Z/ and checks it against the SHA-256
SHA256SUMS gives. X.Y.Z is the tree's version (CMakeLists.txt). The template is
packaging/homebrew/sagelint.rb.in. Writes OUT (default: standard output).
Standard library only.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Template key → the release file it downloads.
ASSETS = {
    "MACOS_ARM64": "sagelint-macos-arm64",
    "MACOS_X86_64": "sagelint-macos-x86_64",
    "LINUX_AARCH64": "sagelint-linux-aarch64",
    "LINUX_X86_64": "sagelint-linux-x86_64",
}


def fail(message):
    sys.stderr.write("homebrew-formula: %s\n" % message)
    sys.exit(1)


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    dist, repo = argv[1], argv[2].rstrip("/")
    if not re.fullmatch(r"https://[A-Za-z0-9.-]+/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
        fail("not a repository URL: %r (https://github.com/OWNER/NAME)" % repo)
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(\s*sagelint\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", f.read())
    if not m:
        fail("no project version in CMakeLists.txt")
    version = m.group(1)
    sums = {}
    try:
        with open(os.path.join(dist, "SHA256SUMS"), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                parts = line.split()
                if len(parts) != 2 or not re.fullmatch(r"[0-9a-fA-F]{64}", parts[0]):
                    fail("SHA256SUMS line %d is not 'SHA256  FILE': %r" % (n, line.rstrip("\n")))
                sums[parts[1].lstrip("*")] = parts[0].lower()
    except OSError as e:
        fail("cannot read %s: %s" % (os.path.join(dist, "SHA256SUMS"), e.strerror))
    values = {"VERSION": version, "HOMEPAGE": repo}
    for key, asset in ASSETS.items():
        if asset not in sums:
            fail("SHA256SUMS has no %s: the formula needs every platform's binary" % asset)
        values["URL_" + key] = "%s/releases/download/v%s/%s" % (repo, version, asset)
        values["SHA256_" + key] = sums[asset]
    with open(os.path.join(ROOT, "packaging", "homebrew", "sagelint.rb.in"), encoding="utf-8") as f:
        template = f.read()
    text = re.sub(r"@([A-Z0-9_]+)@", lambda k: values[k.group(1)], template)
    if len(argv) == 4:
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
