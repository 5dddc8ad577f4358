#!/bin/bash
# benches/instructions.sh BIN: instructions (valgrind callgrind, load-independent) of fixed-work
# commands over the four older families (m,n,k, O An Quan, Connect Four, Oware), with the move each
# chose: run it on two builds for an A/B that a busy machine cannot blur.
BIN=$1
trap 'rm -f /tmp/cg.$$ /tmp/ab.out.$$' EXIT
run() { valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$$ "$BIN" "$@" 2>&1 >/tmp/ab.out.$$ | grep Collected | awk '{printf "%s", $4}'; printf " | %s | %s\n" "$*" "$(grep -m1 -E '^move|^[0-9]+ +[0-9]+|best' /tmp/ab.out.$$ | tr -s ' ' | cut -c1-60)"; }
run perft mnk-9x9k5 3
run perft oanquan 5
run analyze caro --moves "h8 h9" --agent alphabeta:nodes=20000
run analyze gomoku --moves "h8 k9 e4 i9 j9 j8 g10 i10" --agent threat:nodes=20000
run analyze oanquan --moves "3P 7P" --agent mcts:iterations=3000
run analyze oanquan --moves "3P 7P" --agent alphabeta:nodes=50000
run analyze tictactoe --moves "b2" --agent mcts:iterations=5000
run perft connect4 8
run perft oware 9
run analyze connect4 --moves "d d" --agent alphabeta:nodes=50000
run analyze connect4 --moves "d d" --agent mcts:iterations=5000
run analyze oware --moves "" --agent alphabeta:nodes=50000
