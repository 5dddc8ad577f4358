"""Flat Monte Carlo, the TD4 exercise's algo1, as an arena agent.

For every empty cell: play it, then finish the game N times with uniformly random moves; the
cell's score H is wins minus losses of those N games for the player to move. Play the cell with
the largest H (ties at random). The arena's `mc-flat:rollouts=N` is the same algorithm.

    proc:cmd=python3,args=clients/python/examples/algo1.py 200     (N = 200; default 1000)
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arena_agent  # noqa: E402

ROLLOUTS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000


def lines_through(rows, cols):
    """For each cell, the four lines through it as lists of cells in both directions."""
    table = []
    for row in range(rows):
        for col in range(cols):
            lines = []
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                both = []
                for sign in (1, -1):
                    ray, r, c = [], row + sign * dr, col + sign * dc
                    while 0 <= r < rows and 0 <= c < cols:
                        ray.append(r * cols + c)
                        r, c = r + sign * dr, c + sign * dc
                    both.append(ray)
                lines.append(both)
            table.append(lines)
    return table


def wins(cells, at, lines, k, rule):
    """Whether the stone just put at `at` wins under `rule`."""
    stone = cells[at]
    for forward, backward in lines[at]:
        count, ends = 1, []
        for ray in (forward, backward):
            end = None
            for index in ray:
                if cells[index] != stone:
                    end = cells[index]
                    break
                count += 1
            ends.append(end)
        if rule == "exact":
            if count == k:
                return True
        elif count >= k:
            if rule != "caro" or not all(e not in (None, 0) for e in ends):
                return True
    return False


def random_game(cells, empty, mover, lines, k, rule, rng):
    """Plays random moves from here to the end: the winner (1 or 2), or 0 for a draw."""
    empty = empty[:]
    while empty:
        i = rng.randrange(len(empty))
        at = empty[i]
        empty[i] = empty[-1]
        empty.pop()
        cells[at] = mover
        if wins(cells, at, lines, k, rule):
            return mover
        mover = 3 - mover
    return 0


def choose(position):
    rows, cols, k, rule = position.rows, position.cols, position.k, position.rule
    lines = lines_through(rows, cols)
    symbols = {".": 0, "X": 1, "O": 2}
    start = [symbols[c] for row in position.board for c in row]
    me = 1 if position.me == "X" else 2
    best, best_moves, playouts = None, [], 0
    for move in position.legal:
        row, col = position.cell(move)
        at = row * cols + col
        score = 0
        for _ in range(ROLLOUTS):
            cells = start[:]
            cells[at] = me
            if wins(cells, at, lines, k, rule):
                winner = me
            else:
                empty = [i for i, c in enumerate(cells) if c == 0]
                winner = random_game(cells, empty, 3 - me, lines, k, rule, position.rng)
            score += 1 if winner == me else (-1 if winner else 0)
        playouts += ROLLOUTS
        if best is None or score > best:
            best, best_moves = score, [move]
        elif score == best:
            best_moves.append(move)
    move = position.rng.choice(best_moves)
    position.info(nodes=playouts, score=best / ROLLOUTS, text="H = %d" % best)
    return move


if __name__ == "__main__":
    arena_agent.play(
        choose,
        name="algo1 flat Monte Carlo (TD4), %d rollouts" % ROLLOUTS,
        accepts=lambda variant: variant.startswith("mnk-"),
    )
