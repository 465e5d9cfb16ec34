#!/usr/bin/env bash
# The VS Code extension (editors/vscode): installed from its lock file, compiled
# with tsc and packaged as a .vsix with vsce; the package holds the compiled
# extension and its runtime dependency, and the binary path is a machine setting.
# Usage: vscode_extension.sh SOURCE_DIR WORK_DIR   (exit 77: no npm)
set -euo pipefail
src=$1/editors/vscode
work=$2
command -v npm >/dev/null 2>&1 || { echo "npm not found: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
# A copy without what a developer's own install left there; LICENSE is a link to the project's.
tar -C "$src" --exclude=node_modules --exclude=out --exclude='*.vsix' -ch . | tar -C "$work" -x
cd "$work"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
npx tsc -p .
npx vsce package -o sagelint.vsix </dev/null
python3 - sagelint.vsix <<'PY'
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
for need in ("extension/out/extension.js", "extension/package.json", "extension/readme.md",
             "extension/node_modules/vscode-languageclient/package.json"):
    assert need in names, need
assert not any(n.startswith("extension/src/") or n.startswith("extension/out/test/") for n in names), names
manifest = json.loads(z.read("extension/package.json"))
props = manifest["contributes"]["configuration"]["properties"]
assert props["sagelint.path"]["scope"] == "machine", props["sagelint.path"]
assert props["sagelint.severity"]["enum"] == ["note", "warning", "error"]
js = z.read("extension/out/extension.js").decode()
assert '"server"' in js and "globalValue" in js, "starts `sagelint server` from the global setting only"
print("sagelint.vsix: %d files" % len(names))
PY
