# Sourced by the integration tests that use the pinned npm tools of
# tests/integration/node (package.json, package-lock.json): installs them
# once with `npm ci`, or exits 77 (skipped) where npm or the registry is missing.
node_tools="$(cd "$(dirname "${BASH_SOURCE[0]}")/node" && pwd)"
if [ ! -d "$node_tools/node_modules/playwright-core" ] || [ ! -d "$node_tools/node_modules/@action-validator/cli" ]; then
  command -v npm >/dev/null 2>&1 || { echo "SKIP: npm is not installed"; exit 77; }
  (cd "$node_tools" && npm ci --no-audit --no-fund --ignore-scripts >/dev/null 2>&1) ||
    { echo "SKIP: npm ci in $node_tools failed (no registry?)"; exit 77; }
fi
