#!/usr/bin/env bash
# The SARIF step of action.yml: whether this repository's code scanning can take
# the upload. Prints `upload=true` or `upload=false` for $GITHUB_OUTPUT. Where it
# cannot — code scanning not enabled (a private repository without GitHub Code
# Security / Advanced Security), a token without `security-events` permission, a
# pull request from a fork (read-only token) — it says so in a notice and the
# upload is skipped: the findings are still annotated and still decide the job.
# Anything else (a network error, an unexpected answer) lets the upload try.
#
#   GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_NAME   set by the runner
#   SAGELINT_TOKEN               the token the upload uses
#   SAGELINT_HEAD_REPOSITORY     a pull request's head repository (owner/name)
set -uo pipefail
notice() {
  echo "::notice title=sagelint::SARIF not uploaded to code scanning: $*" >&2
  echo "upload=false"
  exit 0
}
repo="${GITHUB_REPOSITORY:-}"
if [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -n "${SAGELINT_HEAD_REPOSITORY:-}" ] &&
   [ "${SAGELINT_HEAD_REPOSITORY}" != "$repo" ]; then
  notice "a pull request from a fork ($SAGELINT_HEAD_REPOSITORY) runs with a read-only token. The findings are in the annotations."
fi
if [ -z "$repo" ] || ! command -v curl >/dev/null 2>&1; then
  echo "upload=true"
  exit 0
fi
body=$(mktemp)
trap 'rm -f "$body"' EXIT
status=$(curl -sS -o "$body" -w '%{http_code}' --connect-timeout 20 \
           -H "Accept: application/vnd.github+json" -H "Authorization: Bearer ${SAGELINT_TOKEN:-}" \
           "${GITHUB_API_URL:-https://api.github.com}/repos/$repo/code-scanning/analyses?per_page=1" 2>/dev/null) || status=000
message=$(sed -n 's/.*"message"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$body" | head -n 1)
case "$status" in
  403)
    case "$message" in
      *"must be enabled"* | *"not enabled"*)
        notice "code scanning is not enabled for $repo ($message). The findings are in the annotations." ;;
      *"not accessible by integration"*)
        notice "the workflow's token may not use code scanning: give the job \`permissions: security-events: write\`. The findings are in the annotations." ;;
    esac
    ;;
esac
echo "upload=true"
