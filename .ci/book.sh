#!/usr/bin/env bash
# Builds the book (docs/, an mdBook) into target/book and checks every link of it: each
# relative link of every page must name a file of the book, and each #fragment an id on that
# page (.ci/check_links.py). mdbook comes from crates.io at a pinned version, installed into
# target/ci-tools (never system-wide), without its server and file watcher.
#
#   bash .ci/book.sh            # then open target/book/index.html
set -euo pipefail
cd "$(dirname "$0")/.."
MDBOOK_VERSION=0.5.4
tools="$PWD/target/ci-tools"
mdbook="$tools/bin/mdbook"
if ! "$mdbook" --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
  echo "book: installing mdbook $MDBOOK_VERSION into target/ci-tools"
  # --debug: a third of the compile time of a release build; the book renders as fast.
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --root "$tools" --debug \
    --no-default-features --features search
fi
[ -z "${INSTALL_ONLY:-}" ] || exit 0
rm -rf target/book
"$mdbook" build docs
python3 .ci/check_links.py target/book
