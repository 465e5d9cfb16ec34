#!/usr/bin/env bash
# The container image's name for a GitHub repository, as a step output:
# image=ghcr.io/owner/name (the registry wants lower case; GitHub names may not be).
# Usage: scripts/container-name.sh OWNER/NAME
set -euo pipefail
repo="${1:?usage: container-name.sh OWNER/NAME}"
[[ "$repo" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || { echo "container-name: not OWNER/NAME: $repo" >&2; exit 1; }
echo "image=ghcr.io/$(echo "$repo" | tr 'A-Z' 'a-z')"
