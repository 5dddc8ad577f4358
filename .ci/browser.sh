#!/usr/bin/env bash
# The browser test of `arena serve`: Debian's Chromium (installed here with apt-get if it is
# missing, as are Node.js and npm), driven by playwright-core from npm, with axe-core checking
# every page's accessibility (both installed into target/browser-node), against a server on 127.0.0.1 that the test starts and stops.
# Screenshots of every page, at a laptop's and a phone's width, are left in
# target/browser-screenshots/ as CI artifacts.
#
#   bash .ci/browser.sh [ARENA_BINARY]      # default target/debug/arena
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-target/debug/arena}

# Everything the test needs, installed here when missing: Debian's Chromium (and its driver),
# and Node.js with npm for playwright-core.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
chromium --version
node --version

mkdir -p target/browser-node
cp crates/web/browser/package.json target/browser-node/package.json
# The version is pinned in package.json; no lock file, so no registry address is committed.
# npm's cache stays under target/ too (nothing is installed outside the checkout).
(cd target/browser-node && npm_config_cache="${npm_config_cache:-$PWD/../npm-cache}" \
  npm install --no-audit --no-fund --no-package-lock --loglevel=error)
[ -z "${INSTALL_ONLY:-}" ] || exit 0
[ -x "$binary" ] || cargo build --locked --bin arena

rm -rf target/browser-screenshots
ARENA_BIN="$binary" PLAYWRIGHT_DIR=target/browser-node SHOTS=target/browser-screenshots \
  node --test crates/web/browser/
ls target/browser-screenshots
