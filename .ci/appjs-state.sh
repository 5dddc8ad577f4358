#!/usr/bin/env bash
# The Play page's state module (crates/web/assets/js/play-state.js) under plain `node --test`,
# no browser; then the same tests against deliberately broken copies of the module, one broken
# transition each, every one of which must fail (a case that cannot fail is caught here).
# Needs Node.js 20 or later; a second or two.
#
#   bash .ci/appjs-state.sh
set -euo pipefail
cd "$(dirname "$0")/.."
module=crates/web/assets/js/play-state.js
tests=crates/web/browser/state.test.mjs
node --test "$tests" >/dev/null || { node --test "$tests"; exit 1; }

# Each line: what the break does @@ the exact text replaced @@ its replacement (\n: a new line).
breaks=(
  "a stale reply changes the game @@     if (!this.#answered(ticket)) return false;\n    const played @@     this.#answered(ticket);\n    const played"
  "a second request while one is pending @@     if (!this.#game || this.busy) return null; @@     if (!this.#game) return null;"
  "a move while one is drawn @@ kind === \"hint\" ? !this.personToMove() : this.#animating @@ kind === \"hint\" ? !this.personToMove() : false"
  "undo while the agent thinks @@ if (!game || !game.can_undo || this.busy) return null; @@ if (!game || !game.can_undo) return null;"
  "an old request's answer ends a new one's wait @@     if (this.#pending === ticket) this.#pending = null; @@     this.#pending = null;"
  "leave keeps the generation @@     const game = this.#game;\n    this.#begin(); @@     const game = this.#game;"
  "undo keeps the generation @@     if (!game || !game.can_undo || this.busy) return null;\n    return this.#begin(); @@     if (!game || !game.can_undo || this.busy) return null;\n    return this.ticket();"
  "a game over keeps its hint @@     if (game \&\& game.over) this.#hint = null; @@ "
  "a look back of an earlier game is shown @@     if (ticket.asked !== this.#lookAsked || ticket.game !== this.#game) return false; @@     if (ticket.asked !== this.#lookAsked) return false;"
  "a skip does not stop the drawing @@     return this.current(ticket) \&\& !this.#skipping; @@     return this.current(ticket);"
  "a stale undo answer is taken @@   undone(ticket, game) {\n    if (!this.current(ticket)) return false; @@   undone(ticket, game) {"
  "a fresh start stays busy @@     this.#pending = null;\n    this.#selected = null; @@     this.#selected = null;"
)
scratch=target/appjs-state
rm -rf "$scratch" && mkdir -p "$scratch"
cp crates/web/assets/js/*.js "$scratch/"
failed=0
for entry in "${breaks[@]}"; do
  what=${entry%% @@ *}; rest=${entry#* @@ }; from=${rest%% @@ *}; to=${rest#* @@ }
  broken="$scratch/play-state.js"
  FROM="$from" TO="$to" node -e '
    const fs = require("fs");
    const unescape = (s) => s.replace(/\\n/g, "\n").replace(/\\&/g, "&");
    const [src, out] = process.argv.slice(1);
    const text = fs.readFileSync(src, "utf8");
    const from = unescape(process.env.FROM), to = unescape(process.env.TO);
    if (text.split(from).length !== 2) { console.error(`the break "${from}" is not once in ${src}`); process.exit(2); }
    fs.writeFileSync(out, text.replace(from, to));
  ' "$module" "$broken" || { echo "appjs-state: cannot break: $what"; failed=1; continue; }
  if STATE_MODULE="$broken" node --test "$tests" >/dev/null 2>&1; then
    echo "appjs-state: no test fails when $what"
    failed=1
  else
    echo "caught: $what"
  fi
done
rm -rf "$scratch"
exit $failed
