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
# Debian's packages first (one apt-get at a time), then npm and pip (network), then the cargo
# tools (compiles), then the fuzz targets' build (the largest, with the sanitizer).
for script in slurm-test.sh browser.sh python-test.sh book.sh figrid.sh fuzz.sh; do
  if bash ".ci/$script" /dev/null; then
    echo "prepare: $script's installs done (at $((SECONDS - started)) s)"
  else
    echo "prepare: $script's installs FAILED (exit $?); the script tries again when it runs"
    failed=1
  fi
done
exit "$failed"
