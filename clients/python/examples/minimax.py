"""The tic-tac-toe tutorial's minimax AI as an arena agent.

Plain minimax to the end of the game, a win worth 100 minus its depth (sooner is better), a loss
-100 plus its depth, a draw 0; on the empty board a random corner or the centre, as the
tutorial does. It plays tic-tac-toe only (`mnk-3x3k3`) and says so before the first game.

    proc:cmd=python3,args=clients/python/examples/minimax.py
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arena_agent  # noqa: E402

LINES = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
]


def winner(board):
    for line in LINES:
        a, b, c = (board[r][col] for r, col in line)
        if a != "." and a == b == c:
            return a
    return None


def empty_cells(board):
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == "."]


class Search:
    def __init__(self, me, opponent):
        self.me, self.opponent, self.nodes = me, opponent, 0

    def minimax(self, board, depth, maximizing):
        self.nodes += 1
        won = winner(board)
        if won == self.me:
            return 100 - depth
        if won == self.opponent:
            return -100 + depth
        cells = empty_cells(board)
        if not cells:
            return 0
        scores = []
        for r, c in cells:
            board[r][c] = self.me if maximizing else self.opponent
            scores.append(self.minimax(board, depth + 1, not maximizing))
            board[r][c] = "."
        return max(scores) if maximizing else min(scores)


def choose(position):
    board = [row[:] for row in position.board]
    cells = empty_cells(board)
    if len(cells) == 9:
        r, c = position.rng.choice([(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)])
        return position.name(r, c)
    search = Search(position.me, position.opponent)
    best_score, best = None, None
    for r, c in cells:
        board[r][c] = position.me
        score = search.minimax(board, 0, False)
        board[r][c] = "."
        if best_score is None or score > best_score:
            best_score, best = score, (r, c)
    position.info(nodes=search.nodes, score=best_score)
    return position.name(*best)


if __name__ == "__main__":
    arena_agent.play(
        choose,
        name="tutorial minimax",
        accepts=lambda variant: variant == "mnk-3x3k3",
    )
