#!/usr/bin/env bash
# Debian packages the test suites need. Idempotent: skips apt entirely when everything is present.
# chromium: the UI tests; libkrb5-dev, ripgrep: code-server; python3, pyflakes3: the checks of the
# REPL's Python sources (test/unit/worker/pythonSources.test.ts).
set -euo pipefail
packages=(chromium libkrb5-dev ripgrep python3 pyflakes3)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages present: ${packages[*]}"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${missing[*]} — install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
