"""arena_agent: an agent for the arena in a few lines of Python (standard library only).

Write a function that takes a position and returns one of its legal moves, and hand it to
`play`:

    import arena_agent

    def choose(position):
        return position.rng.choice(position.legal)

    arena_agent.play(choose, name="random, in Python")

Then enter it in an experiment file as
`spec = "proc:cmd=python3,args=path/to/my_agent.py"`. The arena starts the program, talks to it
over stdin/stdout with the arena protocol (docs/src/reference/protocol.md) and keeps it for many games. Print
debugging output to stderr (`print(..., file=sys.stderr)`): it goes to the agent's log file;
anything else printed to stdout is a protocol error that loses the game.

What `position` holds (see `Position`): the variant id, your seat, the moves so far, the legal
moves, the time left, a seeded `random.Random`, and a view of the board: the cells of an m,n,k
board or of any other grid game (Connect Four), the squares of O An Quan, the houses of Oware.
"""

import random
import re
import sys
import time
import traceback

__all__ = ["Position", "play", "mnk_winner"]

PROTOCOL_VERSION = 1


class Position:
    """A position to move in.

    Every game:
      variant     the variant id, like "mnk-5x5k4", "oanquan" or "oware"
      family      the game: the id up to its first "-" ("mnk", "oanquan", "oware", "connect4")
      fields      the `board` line's fields as text, by name (every game: see docs/protocol.md)
      seat        your seat, 1 (moves first) or 2 (up to 4 in games of more players)
      players     the number of seats
      moves       the moves from the start, in the game's notation (a random opening included)
      legal       the legal moves; return one of them
      rng         a random.Random seeded by the arena for this game: draw from it, and the same
                  experiment seed replays the same games
      time_ms     the time budget of this move, in milliseconds: the arena's limit, or under a
                  game clock a share of it (what is left / moves to go, 30 without periods,
                  plus the increment), 80% of either, so that an answer at the end of it is
                  in time
      time_left() seconds left of the budget
      clock       under a game clock: {"time_left": ms, "inc_ms": ms, "moves_to_go": n or None,
                  "limit_ms": the hard limit of this move}; None otherwise
      info(...)   report what you searched: info(nodes=..., depth=..., score=..., text=...)

    m,n,k games (family "mnk"):
      rows, cols, k    the board and the line length that wins
      rule             "freestyle" (k or more), "exact" (exactly k) or "caro" (k or more, not
                       blocked at both ends)
      board            rows x cols lists of "X", "O" or "." (board[row][col], row 0 at the top)
      me, opponent     "X" or "O"
      cell(move)       (row, col) of a move like "b3"
      name(row, col)   the move of a cell: column letter + 1-based row, "a1" top-left

    O An Quan (family "oanquan"):
      seeds       the small seeds of the 12 cells of the ring in sowing order: indices 0-4 are
                  player 1's squares (labels 1-5), 5 is mandarin cell A, 6-10 player 2's squares
                  (labels 10, 9, 8, 7, 6), 11 mandarin cell B
      pieces      [A, B]: whether each mandarin cell still holds its mandarin piece
      mandarin    the value of a mandarin piece (10 in the canonical rules)
      captures    what each seat has captured so far, in seat order
      my_squares  the ring indices of your five squares, in label order
      index(label) the ring index of a square's label (1-10)

    Any other game drawn on a grid (Connect Four, family "connect4"; Othello; Breakthrough):
      rows, cols       the board's size, from the board line
      board            rows x cols lists of "X", "O" or "." (board[row][col], row 0 at the top):
                       whose stone or piece stands there
      kinds            for a game of pieces that move (Breakthrough's pawns): rows x cols lists
                       of each piece's kind letter ("p") or "."; None for a game of stones
      me, opponent     "X" or "O"
      cell(name)       (row, col) of a cell name like "a7" (column letter, 1-based row)
    Its moves are the legal words as the game writes them (Connect Four: a column letter;
    Breakthrough: the pawn's cell and its target, "a7a6", a capture "a7b6*").
    Oware (family "oware", docs/oware.md):
      seeds       the seeds of the 12 houses in sowing order: indices 0-5 are South's houses
                  (seat 1, letters A-F), 6-11 North's (seat 2, letters a-f)
      captures    each seat's store, in seat order
      my_houses   the ring indices of your six houses, A-F (or a-f) in order
      index(letter)  the ring index of a house's letter ("C" is 2, "c" is 8)
      letter(index)  the letter of a house (the move that sows it)
    """

    def __init__(self, game, moves, legal, board, time_ms, out, clock=None):
        self.variant = game["variant"]
        self.family = self.variant.split("-")[0]
        self.fields = dict(board)
        self.seat = game["seat"]
        self.players = game["players"]
        self.rng = game["rng"]
        self.moves = moves
        self.legal = legal
        self.time_ms = time_ms
        self.clock = clock
        self._asked = time.monotonic()
        self._out = out
        if self.family == "mnk":
            self._read_mnk(board)
        elif self.family == "oanquan":
            self._read_oanquan(board)
        elif self.family == "oware":
            self._read_oware(board)
        elif "cells" in board:
            self._read_grid(board)

    def time_left(self):
        """Seconds left of this move's budget (negative when it is spent)."""
        return self.time_ms / 1000.0 - (time.monotonic() - self._asked)

    def info(self, nodes=None, depth=None, score=None, text=None):
        """Reports what the search did; the arena logs it and counts `nodes` in its CSV."""
        fields = []
        if depth is not None:
            fields.append("depth=%d" % int(depth))
        if nodes is not None:
            fields.append("nodes=%d" % int(nodes))
        if score is not None:
            fields.append("score=%s" % repr(float(score)))
        if text is not None:
            fields.append("text=" + " ".join(str(text).split()))
        self._out("info " + " ".join(fields))

    # m,n,k -----------------------------------------------------------------------------------

    def _read_mnk(self, board):
        match = re.match(r"^mnk-(\d+)x(\d+)k(\d+)(-exact|-caro)?(-center)?$", self.variant)
        if not match:
            raise ValueError("not an m,n,k variant id: " + self.variant)
        self.rows, self.cols, self.k = (int(match.group(i)) for i in (1, 2, 3))
        self.rule = (match.group(4) or "-freestyle")[1:]
        self.center = bool(match.group(5))
        self.me = "X" if self.seat == 1 else "O"
        self.opponent = "O" if self.seat == 1 else "X"
        cells = board.get("cells")
        if cells:
            self.board = [list(row) for row in cells.split("/")]
        else:
            self.board = [["."] * self.cols for _ in range(self.rows)]
            for i, move in enumerate(self.moves):
                row, col = self.cell(move)
                self.board[row][col] = "X" if i % 2 == 0 else "O"

    def cell(self, move):
        """(row, col) of a move like "b3" (column letter, 1-based row)."""
        return int(move[1:]) - 1, ord(move[0].lower()) - ord("a")

    def name(self, row, col):
        """The move of cell (row, col): "a1" is row 0, column 0."""
        return "%s%d" % (chr(ord("a") + col), row + 1)

    # Any other grid game (Connect Four) ---------------------------------------------------------

    def _read_grid(self, board):
        self.rows, self.cols = int(board["rows"]), int(board["cols"])
        self.board = [list(row) for row in board["cells"].split("/")]
        kinds = board.get("kinds")
        self.kinds = [list(row) for row in kinds.split("/")] if kinds else None
        self.me = "X" if self.seat == 1 else "O"
        self.opponent = "O" if self.seat == 1 else "X"

    # O An Quan -------------------------------------------------------------------------------

    def _read_oanquan(self, board):
        numbers = lambda key: [int(v) for v in board.get(key, "").split(",") if v != ""]
        self.seeds = numbers("seeds")
        self.pieces = [bool(v) for v in numbers("pieces")]
        self.captures = numbers("captures")
        self.mandarin = int(board.get("mandarin", "10"))
        self.my_squares = [self.index(label) for label in self._labels()]

    def _labels(self):
        if self.players == 2:
            return range(1, 6) if self.seat == 1 else range(6, 11)
        first = 5 * (self.seat - 1) + 1
        return range(first, first + 5)

    def index(self, label):
        """The ring index of a square's label (O An Quan), or of a house's letter (Oware)."""
        if self.family == "oware":
            return "ABCDEFabcdef".index(label)
        if self.players == 2:
            return label - 1 if label <= 5 else 16 - label
        return (label - 1) // 5 * 6 + (label - 1) % 5

    # Oware -----------------------------------------------------------------------------------

    def _read_oware(self, board):
        self.seeds = [int(v) for v in board.get("seeds", "").split(",") if v != ""]
        self.captures = [int(v) for v in board.get("captures", "").split(",") if v != ""]
        self.my_houses = list(range(6 * (self.seat - 1), 6 * self.seat))

    def letter(self, index):
        """The letter of the Oware house at ring index `index`: the move that sows it."""
        return "ABCDEFabcdef"[index]


def mnk_winner(board, row, col, k, rule="freestyle"):
    """Whether the stone at (row, col) makes a winning line on `board` under `rule`."""
    stone = board[row][col]
    rows, cols = len(board), len(board[0])
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        ends = []
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < rows and 0 <= c < cols and board[r][c] == stone:
                count += 1
                r, c = r + sign * dr, c + sign * dc
            ends.append(board[r][c] if 0 <= r < rows and 0 <= c < cols else None)
        if rule == "exact":
            if count == k:
                return True
        elif count >= k:
            blocked = all(end not in (None, ".", stone) for end in ends)
            if rule != "caro" or not blocked:
                return True
    return False


def _where(function):
    """`name` (file:line) of a function, for messages about what it returned."""
    name = getattr(function, "__name__", None) or type(function).__name__
    code = getattr(function, "__code__", None)
    if code is None:
        return name
    return "%s (%s:%d)" % (name, code.co_filename, code.co_firstlineno)


def _not_a_move(choose, move):
    """Why `move`, what `choose` returned, cannot be sent as a move; None when it can."""
    if isinstance(move, str) and move.strip() and len(move.split()) == 1:
        return None
    if isinstance(move, str):
        shown = "an empty text" if not move.strip() else "several words, %r" % move
    else:
        shown = "a %s, %r" % (type(move).__name__, move)
    return (
        "%s returned %s: it must return one of position.legal, a text like %r"
        % (_where(choose), shown, "b3")
    )


def _fields(text):
    fields = {}
    for token in text.split():
        key, _, value = token.partition("=")
        fields[key] = value
    return fields


def budget(limit_ms, clock):
    """The time to spend on a move: 80% of the limit, and under a game clock a share of what is
    left (divided by the moves to go, 30 without periods) plus the increment, within that."""
    cap = int(limit_ms * 0.8)
    if clock is None:
        return cap
    share = clock["time_left"] // (clock["moves_to_go"] or 30) + clock["inc_ms"]
    return min(cap, share)


def play(choose, name=None, author=None, accepts=None, stdin=None, stdout=None):
    """Plays games for the arena until it says `quit`: calls `choose(position)` for every move.

    name, author: how the agent introduces itself (shown in logs).
    accepts: a function of a variant id that says whether the agent plays it (default: every
             variant); the arena is told which variants it refuses before the first game.
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def out(line):
        stdout.write(line + "\n")
        stdout.flush()

    game = None
    moves, legal, board = [], [], {}
    for raw in stdin:
        words = raw.split()
        if not words:
            continue
        word, rest = words[0], raw.strip()[len(words[0]):].strip()
        if word == "arena":
            if name:
                out("id name " + name)
            if author:
                out("id author " + author)
            out("feature reuse")
            out("feature clock")
            out("ready")
        elif word == "game":
            fields = _fields(rest)
            if accepts is not None and not accepts(fields.get("variant", "")):
                out("error this agent does not play " + fields.get("variant", "?"))
                game = None
                continue
            game = {
                "variant": fields.get("variant", ""),
                "seat": int(fields.get("seat", "1")),
                "players": int(fields.get("players", "2")),
                "rng": random.Random(int(fields.get("seed", "0"))),
            }
            out("ok")
        elif word == "position":
            moves = words[1:]
        elif word == "legal":
            legal = words[1:]
        elif word == "board":
            board = _fields(rest)
        elif word == "go":
            fields = _fields(rest)
            limit = int(fields.get("time_ms", "0"))
            clock = None
            if "time_left" in fields:
                to_go = fields.get("moves_to_go")
                clock = {
                    "time_left": int(fields["time_left"]),
                    "inc_ms": int(fields.get("inc_ms", "0")),
                    "moves_to_go": int(to_go) if to_go else None,
                    "limit_ms": limit,
                }
            time_ms = budget(limit, clock)
            if game is None:
                out("error no game was set up")
                continue
            try:
                position = Position(game, moves, legal, board, time_ms, out, clock)
                move = choose(position)
            except Exception as error:  # the arena scores it as a crash; the log has the trace
                traceback.print_exc(file=sys.stderr)
                out("error " + " ".join(("%s: %s" % (type(error).__name__, error)).split()))
                continue
            wrong = _not_a_move(choose, move)
            if wrong:  # said here, in the words of the student's function, not as a traceback
                print(wrong, file=sys.stderr)
                out("error " + wrong)
                continue
            out("move " + move)
        elif word == "end":
            game = None
        elif word == "quit":
            break
