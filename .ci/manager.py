"""Our `arena engine` driven by a Gomocup manager that is not ours: pygomo-lib (PyPI, pinned in
.ci/manager.sh), as its users drive Rapfi or Yixin. Two games against pbrain-figrid, colours
swapped: every move is legal on pygomo's own board, each game ends in a five or a full board,
and `arena replay` agrees with pygomo on who made the five.

    python .ci/manager.py ARENA FIGRID
"""
import subprocess
import sys

from pygomo import EngineClient
from pygomo.board.bitboard import BitBoard
from pygomo.protocol.models import Move

arena, figrid = sys.argv[1], sys.argv[2]
SIZE = 15
TURN_MS = 300


def engine(path, args=None):
    client = EngineClient(path, args=args or [])
    client.connect()
    return client


ours = engine(arena, ["engine", "--agent", "threat"])
theirs = engine(figrid)
about = ours.about(timeout=10)
assert about and "arena" in about.lower(), f"ABOUT: {about!r}"
print(f"ABOUT: {about}")
try:
    for game, (black, white) in enumerate([(ours, theirs), (theirs, ours)], start=1):
        names = {id(ours): "arena engine (threat)", id(theirs): "pbrain-figrid"}
        for client in (black, white):
            assert client.start(SIZE, timeout=30), "START refused"
            # The protocol's keys are lower case (pygomo's set_time writes them in capitals,
            # which figrid does not read: it then thinks for its own default time).
            for key, value in [("rule", 0), ("timeout_turn", TURN_MS),
                               ("timeout_match", 100_000), ("time_left", 100_000)]:
                client.execute("INFO", key, value)
        board = BitBoard(_size=SIZE)
        played = []
        mover, other = black, white
        result = mover.begin(timeout=30)
        winner = None
        while True:
            assert result is not None, f"game {game}: {names[id(mover)]} gave no move"
            move = result.move
            assert board.is_valid(move) and board.is_empty(move), \
                f"game {game}: {names[id(mover)]} played {move} (taken or off the board) after {played}"
            board.place(move)
            played.append(move)
            if board.check_win(move):
                winner = mover
                break
            if board.is_full():
                break
            mover, other = other, mover
            result = mover.turn(move, timeout=30)
        text = " ".join(m.to_algebraic() for m in played)
        said = "draw" if winner is None else f"{names[id(winner)]} wins"
        print(f"game {game}: {names[id(black)]} (black) against {names[id(white)]}: "
              f"{len(played)} moves, {said}")
        # The arena's rules say the same of the same moves.
        replay = subprocess.run([arena, "replay", "mnk-15x15k5", text],
                                capture_output=True, text=True, check=True).stdout
        last = replay.strip().splitlines()[-1]
        expected = "draw" if winner is None else ("X wins" if winner is black else "O wins")
        assert expected in last, f"game {game}: pygomo says {said}; arena: {last}\n{text}"
finally:
    for client in (ours, theirs):
        try:
            client.quit()
        except Exception:
            pass
        client.disconnect()
print("a manager that is not ours played both games to their end with every move legal")
