#!/usr/bin/env bash
# The merge report in a real browser (tests/integration/merge_html_browser.js):
# three fixture repositories scanned and merged into HTML, opened in Debian's
# Chromium through playwright-core (pinned in tests/integration/node). Exit 77
# (skipped) without Chromium, node or the pinned package.
set -euo pipefail
bin="${1:?usage: merge_html_browser.sh SAGELINT SOURCE_DIR}"
src="${2:?usage: merge_html_browser.sh SAGELINT SOURCE_DIR}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || { echo "SKIP: no $chromium (apt-get install chromium)"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 77; }
. "$(dirname "$0")/node_tools.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$src/fixtures/merge/." "$tmp/"
cd "$tmp"
"$bin" scan --fail-on none --format json=alpha.json alpha
"$bin" scan --fail-on none --format json=beta.json --report-name acme/beta beta
"$bin" scan --fail-on none --format json=gamma.json --report-name 'acme/gamma <b>&"' gamma
"$bin" merge alpha.json beta.json gamma.json --format html=report.html
CHROMIUM="$chromium" NODE_PATH="$node_tools/node_modules" node "$src/tests/integration/merge_html_browser.js" report.html
