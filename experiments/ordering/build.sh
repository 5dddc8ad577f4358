#!/bin/sh
# Rebuilds the move-ordering tables of `threat` (crates/agents/src/games/mnk/policy-*.txt)
# from the recorded runs of `threat` below: the positions of their games from ply 5 (after
# every opening of the suites), then `arena fit --ordering` on them (seed 1, a tenth of the
# games held out). From the repository root, with a release build:
#   sh experiments/ordering/build.sh            # ARENA=path/to/arena to use another binary
# About 3 minutes a variant on one core; the positions files (300-500 MB) go to target/ordering/.
set -eu
ARENA=${ARENA:-target/release/arena}
mkdir -p target/ordering
S=results/strength
CARO=" $S/asp-caro-live-stc $S/caroq-caro-live-stc $S/caroqw-caro-live-stc $S/carowide-caro-live-stc $S/carowide-caroq-caro-live-stc $S/evalcombo-caro-live-stc $S/fastdef-caro-live-stc $S/fh-caro-live-stc $S/hcaro-caro-live-stc $S/history-caro-live-stc $S/iir-caro-live-stc $S/main-caro-stc $S/nmp-caro-live-stc $S/nmp2-caro-live-stc $S/novct-caro-live-stc $S/pf-caro-live-stc $S/qc3-caro-live-stc $S/qc6-caro-live-stc $S/qnarrow-caro-live-stc $S/time-caro-live-stc $S/tm-caro-live-tc $S/tm2-caro-live-tc $S/tm3-caro-live-tc $S/wide16-caro-live-stc results/strength-threat-f7ca693-caro $S/f7ca693-caro-008b5a5 $S/f7ca693-caro-4253899 $S/f7ca693-caro-561ea3f $S/f7ca693-caro-74cc04b $S/f7ca693-caro-d417f06 $S/f7ca693-caro-d99226e"
GOMOKU=" $S/asp-gomoku-live-stc $S/cells-gomoku-stc $S/combo-gomoku-stc $S/dw2-gomoku-live-stc $S/evalcombo-gomoku-live-stc $S/fastundo-gomoku-live-stc $S/fit8-gomoku-stc $S/history-gomoku-live-stc $S/iir-gomoku-live-stc $S/keep-gomoku-live-stc $S/keep-gomoku-stc $S/lmp-gomoku-live-stc $S/lmp2-gomoku-live-stc $S/lmr-gomoku-live-stc $S/narrow-gomoku-stc $S/novct-gomoku-live-stc $S/null-gomoku-live-stc $S/pf-gomoku-live-stc $S/q12-gomoku-live-stc $S/qdef-gomoku-live-stc $S/qdelta-gomoku-live-stc $S/qnarrow-gomoku-live-stc $S/qstack-gomoku-live-stc $S/qtt-gomoku-live-stc $S/qtt2-gomoku-live-stc $S/qvcf-gomoku-live-stc $S/qw5-gomoku-live-stc $S/stack-gomoku-live-stc $S/stack-gomoku-stc $S/three-gomoku-stc $S/tm-gomoku-live-tc $S/tm2-gomoku-live-tc $S/tm3-gomoku-live-tc $S/wide16-gomoku-live-stc results/strength-threat-f7ca693-gomoku $S/f7ca693-gomoku-008b5a5 $S/f7ca693-gomoku-4253899 $S/f7ca693-gomoku-561ea3f $S/f7ca693-gomoku-74cc04b $S/f7ca693-gomoku-d417f06"
# shellcheck disable=SC2086 # the folder lists split on spaces
"$ARENA" positions $CARO --variant caro --min-ply 5 --out target/ordering/caro.npz --force
"$ARENA" fit target/ordering/caro.npz --ordering --seed 1 --validation 0.1 \
  --out crates/agents/src/games/mnk/policy-caro.txt --force
# shellcheck disable=SC2086
"$ARENA" positions $GOMOKU --variant gomoku --min-ply 5 --out target/ordering/gomoku.npz --force
"$ARENA" fit target/ordering/gomoku.npz --ordering --seed 1 --validation 0.1 \
  --out crates/agents/src/games/mnk/policy-freestyle.txt --force
