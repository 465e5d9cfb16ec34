#!/usr/bin/env python3
"""The release workflow (.github/workflows/release.yml) is valid and does what it
says: it is parsed as YAML, its shape is checked (a v* tag triggers it; x86-64
and arm64 are each built on a runner of their own architecture; the publish job
has the permissions the release and the attestation need; the attestation is
GitHub's action), and then its jobs are run here for x86-64 the way a runner
would: every `run:` step's script for real, in order, with the expressions of
its `env:` filled in; checkout, artifact upload and download simulated by
copying; the attestation's subjects checked to exist; `gh` replaced by a stand-in
that records the release. The other platforms' build jobs (Linux arm64, macOS)
cannot run here: their artifacts are stand-in binaries with real wheels made by
scripts/build-wheel.py. The published files are then used as a release by
scripts/release-fetch.sh, as the pre-commit hook and the Action use them. The
jobs after publishing (container image, Homebrew tap, PyPI) are checked for
their shape only.

Usage: release_workflow.py SOURCE_DIR STATIC_BUILD_DIR
The static build directory is the test fixture's (scripts/build-static.sh has
built it), handed to the build step as BUILD_DIR so the binary is not built twice.
"""
import fnmatch
import glob
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

KNOWN_ACTIONS = ("actions/checkout@", "actions/upload-artifact@", "actions/download-artifact@",
                 "actions/attest-build-provenance@")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(cond, message):
    if not cond:
        fail(message)


class Runner:
    def __init__(self, src, static_build, work):
        self.src, self.static_build, self.work = src, static_build, work
        with open(os.path.join(src, "CMakeLists.txt")) as f:
            self.version = re.search(r"project\(sagelint VERSION ([0-9.]+)", f.read()).group(1)
        self.sha = subprocess.check_output(["git", "-C", src, "rev-parse", "HEAD"], text=True).strip()
        self.artifacts = os.path.join(work, "artifacts")
        self.subjects = []
        # A stand-in for the GitHub CLI: `release view` finds nothing, `release create` is recorded.
        self.bin = os.path.join(work, "bin")
        self.published = os.path.join(work, "published")
        os.makedirs(self.bin)
        with open(os.path.join(self.bin, "gh"), "w") as f:
            f.write("""#!/bin/sh
echo "$*" >> "%s/gh.log"
case "$1 $2" in
  "release view") exit 1 ;;
  "release create")
    mkdir -p "%s"
    for a in "$@"; do [ -f "$a" ] && cp "$a" "%s/"; done
    exit 0 ;;
esac
exit 2
""" % (work, self.published, self.published))
        os.chmod(os.path.join(self.bin, "gh"), 0o755)

    def context(self, job_env, matrix):
        return {
            "github": {"ref_name": "v" + self.version, "sha": self.sha, "repository": "octo/sagelint",
                       "server_url": "https://github.com", "token": "test-token", "workspace": self.src},
            "matrix": matrix, "env": job_env, "runner": {"temp": os.path.join(self.work, "runner-temp")},
        }

    def expand(self, text, ctx):
        def one(m):
            value = ctx
            for part in m.group(1).strip().split("."):
                check(isinstance(value, dict) and part in value, "unknown expression ${{ %s }}" % m.group(1))
                value = value[part]
            return str(value)
        return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

    def run_job(self, name, job, matrix, dist):
        # DIST is where the job's files go: here, a directory of the test's own.
        job_env = {k: str(v) for k, v in (job.get("env") or {}).items()}
        job_env["DIST"] = dist
        for i, step in enumerate(job["steps"]):
            ctx = self.context(job_env, matrix)
            label = "%s step %d (%s)" % (name, i + 1, step.get("name") or step.get("uses"))
            if "run" in step:
                env = dict(os.environ)
                env.update(job_env)
                env.update({k: self.expand(v, ctx) for k, v in (step.get("env") or {}).items()})
                env["PATH"] = self.bin + os.pathsep + env["PATH"]
                env["BUILD_DIR"] = self.static_build
                print("-- %s: %s" % (label, step["run"].strip()), flush=True)
                r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                   cwd=self.src, env=env)
                check(r.returncode == 0, "%s exited %d" % (label, r.returncode))
                continue
            uses, args = step["uses"], {k: self.expand(v, ctx) for k, v in (step.get("with") or {}).items()}
            print("-- %s: %s (simulated)" % (label, uses), flush=True)
            if uses.startswith("actions/checkout@"):
                pass  # the workspace is the source tree
            elif uses.startswith("actions/upload-artifact@"):
                files = [p for p in glob.glob(os.path.join(args["path"], "*")) if os.path.isfile(p)]
                check(files or args.get("if-no-files-found") != "error", "%s: nothing to upload" % label)
                dest = os.path.join(self.artifacts, args["name"])
                os.makedirs(dest)
                for p in files:
                    shutil.copy2(p, dest)
            elif uses.startswith("actions/download-artifact@"):
                check(args.get("merge-multiple") == "True", "%s: artifacts not merged into one directory" % label)
                os.makedirs(args["path"], exist_ok=True)
                names = [n for n in os.listdir(self.artifacts) if fnmatch.fnmatch(n, args["pattern"])]
                check(names, "%s: no artifact matches %s" % (label, args["pattern"]))
                for n in names:
                    for p in glob.glob(os.path.join(self.artifacts, n, "*")):
                        shutil.copy2(p, args["path"])
            elif uses.startswith("actions/attest-build-provenance@"):
                for pattern in args["subject-path"].split("\n"):
                    if pattern.strip():
                        matched = glob.glob(os.path.join(self.src, pattern.strip()))
                        check(matched, "%s: no subject matches %s" % (label, pattern))
                        self.subjects += [os.path.basename(p) for p in matched]
            else:
                fail("%s: the test cannot run %s" % (label, uses))


def stand_in_artifacts(src, artifacts, work):
    """The artifacts of the build jobs that cannot run here (Linux arm64, macOS
    arm64 and x86-64): a stand-in binary of each platform's format, and its real
    wheel from scripts/build-wheel.py. Returns the file names."""
    import struct
    names = []
    for artifact, binary, header in [
            ("sagelint-aarch64", "sagelint-linux-aarch64",
             b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HH", 2, 0xB7) + bytes(44)),
            ("sagelint-macos-arm64", "sagelint-macos-arm64", struct.pack("<IiiIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 0, 0, 0)),
            ("sagelint-macos-x86_64", "sagelint-macos-x86_64", struct.pack("<IiiIIII", 0xFEEDFACF, 0x01000007, 3, 2, 0, 0, 0))]:
        dest = os.path.join(artifacts, artifact)
        os.makedirs(dest)
        path = os.path.join(dest, binary)
        with open(path, "wb") as f:
            f.write(header + b"stand-in for " + binary.encode())
        os.chmod(path, 0o755)
        wheel = subprocess.run([sys.executable, os.path.join(src, "scripts/build-wheel.py"), path, dest],
                               capture_output=True, text=True)
        check(wheel.returncode == 0, "build-wheel.py for the %s stand-in: %s" % (binary, wheel.stderr))
        names += [binary, os.path.basename(wheel.stdout.strip())]
    return names


def main(argv):
    src, static_build = os.path.realpath(argv[1]), os.path.realpath(argv[2])
    with open(os.path.join(src, ".github/workflows/release.yml")) as f:
        wf = yaml.safe_load(f)

    # The shape. (YAML 1.1 reads the key `on` as true.)
    on = wf.get("on", wf.get(True))
    check(on == {"push": {"tags": ["v*"]}}, "the workflow runs on %r, not on v* tags" % on)
    check(wf.get("permissions") == {"contents": "read"}, "the default token is not read-only")
    build, publish = wf["jobs"]["build"], wf["jobs"]["publish"]
    matrix = build["strategy"]["matrix"]["include"]
    arches = {m["arch"]: m["runner"] for m in matrix}
    check(set(arches) == {"x86_64", "aarch64"}, "the matrix builds %s" % sorted(arches))
    check("arm" in arches["aarch64"] and "arm" not in arches["x86_64"],
          "arm64 is not built on an arm64 runner: %r" % arches)
    check(build["runs-on"] == "${{ matrix.runner }}", "the build job does not run on the matrix's runner")
    check(sorted(publish.get("needs") or []) == ["build", "build-macos"], "publish does not wait for every build")
    macos = wf["jobs"]["build-macos"]
    mac_arches = {m["arch"]: m["runner"] for m in macos["strategy"]["matrix"]["include"]}
    check(set(mac_arches) == {"arm64", "x86_64"} and all(r.startswith("macos-") for r in mac_arches.values()),
          "the macOS matrix: %r" % mac_arches)
    check(any("scripts/build-macos.sh" in s.get("run", "") for s in macos["steps"]), "the macOS job runs no build-macos.sh")
    jobs = wf["jobs"]
    check(jobs["container"]["permissions"].get("packages") == "write", "the container job cannot push the image")
    check(jobs["homebrew-tap"].get("if") == "vars.HOMEBREW_TAP != ''", "the tap job is not guarded by HOMEBREW_TAP")
    check(jobs["pypi"].get("if") == "vars.PYPI_PUBLISH == 'true'", "PyPI publishing is not guarded by PYPI_PUBLISH")
    check(jobs["pypi"]["permissions"] == {"id-token": "write"}, "PyPI publishing is not trusted publishing")
    check(publish.get("permissions") == {"contents": "write", "id-token": "write", "attestations": "write"},
          "publish permissions: %r" % publish.get("permissions"))
    uses = [s["uses"] for j in (build, publish) for s in j["steps"] if "uses" in s]
    check(any(u.startswith("actions/attest-build-provenance@") for u in uses), "no build-provenance attestation")
    for u in uses:
        check(u.startswith(KNOWN_ACTIONS), "an action the test cannot run: %s" % u)
    scripts = [s["run"] for j in (build, publish) for s in j["steps"] if "run" in s]
    for run in scripts:
        m = re.match(r"(scripts/[\w.-]+)", run.strip())
        check(m and os.access(os.path.join(src, m.group(1)), os.X_OK), "a step runs no script of ours: %r" % run)
    print("ok: v* tags; x86_64 on %s, aarch64 on %s; attested; every run step calls a script of ours"
          % (arches["x86_64"], arches["aarch64"]))

    if platform.machine() not in ("x86_64", "AMD64"):
        print("SKIP: the jobs are run here for x86-64 only")
        return 77
    work = tempfile.mkdtemp()
    try:
        r = Runner(src, static_build, work)
        x86 = next(m for m in matrix if m["arch"] == "x86_64")
        r.run_job("build", build, x86, os.path.join(work, "build-dist"))
        others = stand_in_artifacts(src, r.artifacts, work)
        r.run_job("publish", publish, {}, os.path.join(work, "publish-dist"))

        v = r.version
        wheel = "sagelint-%s-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64.whl" % v
        built = ["sagelint-linux-x86_64", wheel] + others
        want = sorted(built + ["COMMIT", "SHA256SUMS", "sagelint.rb"])
        got = sorted(os.listdir(r.published)) if os.path.isdir(r.published) else []
        check(got == want, "published %s, expected %s" % (got, want))
        check(sorted(r.subjects) == sorted(built), "attested %s" % r.subjects)
        with open(os.path.join(r.published, "sagelint.rb")) as f:
            formula = f.read()
        check('url "https://github.com/octo/sagelint/releases/download/v%s/sagelint-macos-arm64"' % v in formula,
              "the formula does not download the release's macOS arm64 binary")
        with open(os.path.join(work, "gh.log")) as f:
            calls = f.read().splitlines()
        check(any(c.startswith("release create v%s --verify-tag --title sagelint %s " % (v, v)) for c in calls),
              "gh calls: %s" % calls)
        with open(os.path.join(r.published, "COMMIT")) as f:
            check(f.read().strip() == r.sha, "COMMIT does not name the built commit")
        with open(os.path.join(r.published, "SHA256SUMS")) as f:
            sums = dict(reversed(l.split()) for l in f.read().splitlines())
        check(sorted(sums) == sorted(built + ["COMMIT"]), "SHA256SUMS lists %s" % sorted(sums))
        for name, digest in sums.items():
            with open(os.path.join(r.published, name), "rb") as f:
                check(hashlib.sha256(f.read()).hexdigest() == digest, "SHA256SUMS is wrong for " + name)
        print("ok: published %s with SHA256SUMS and COMMIT %s" % (", ".join(want), r.sha[:12]))

        # The release as its users take it: the pre-commit hook's and the Action's fetch.
        rel = os.path.join(work, "releases", "v" + v)
        shutil.copytree(r.published, rel)
        dest = os.path.join(work, "fetched")
        p = subprocess.run([os.path.join(src, "scripts/release-fetch.sh"), "file://" + os.path.dirname(rel), r.sha,
                            dest], capture_output=True, text=True)
        check(p.returncode == 0, "release-fetch.sh refused the release: " + p.stderr)
        with open(os.path.join(dest, "sagelint"), "rb") as a, open(os.path.join(rel, "sagelint-linux-x86_64"), "rb") as b:
            check(a.read() == b.read(), "release-fetch.sh installed another binary")
        print("ok: scripts/release-fetch.sh takes the published release: " + p.stderr.strip())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
