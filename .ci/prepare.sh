#!/usr/bin/env bash
# What the slow tier's scripts install, installed ahead of them: `.ci/run` starts this in the
# background at nice 19 while the fast tier builds and tests, so the downloads and the tools'
# compiles fill the time a core waits (the test binaries' process and network tests leave
# one idle much of the time). Each script is run with INSTALL_ONLY=1, which makes it install
# what it installs (nothing when it is there) and stop before its own work; a failure here is
# reported and left to the script itself, which installs what is missing again when it runs.
#
#   bash .ci/prepare.sh        # the same installs, in the foreground
set -uo pipefail
cd "$(dirname "$0")/.."
export INSTALL_ONLY=1
failed=0
started=$SECONDS
# Debian's packages first (one apt-get at a time), then npm's, then the cargo tools (compiles),
# then pip's packages and the Python wheel (its own target folder), then the fuzz targets'
# build (the largest, with the sanitizer, in fuzz/target), then the release binary the README's
# `cargo install` and `cargo run --release` build (target/release): none of them takes the
# build lock of target/debug, which the fast tier holds.
for script in slurm-test.sh browser.sh book.sh figrid.sh python-test.sh fuzz.sh; do
  if bash ".ci/$script" /dev/null; then
    echo "prepare: $script's installs done (at $((SECONDS - started)) s)"
  else
    echo "prepare: $script's installs FAILED (exit $?); the script tries again when it runs"
    failed=1
  fi
done
if cargo build --release --locked -p cli --bin arena; then
  echo "prepare: the release binary built (at $((SECONDS - started)) s)"
else
  echo "prepare: the release build FAILED; the README's cargo install builds it again"
  failed=1
fi
exit "$failed"
