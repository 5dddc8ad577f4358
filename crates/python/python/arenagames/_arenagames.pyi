"""Type stubs of the Rust extension `arenagames._arenagames` (PyO3)."""

from __future__ import annotations

import os
from typing import (Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple,
                    Union, final, overload)

import numpy as np
import numpy.typing as npt

__all__ = ["Game", "Outcome", "Moves", "Agent", "kinds", "canonical_variant", "_run_experiment",
           "CSV_COLUMNS", "CSV_COLUMNS_SEATS", "TIMING_COLUMNS"]

#: A move: an action number, or its text in the game's notation (`"b3"`, `"2,1"`, `"3P"`).
_Move = Union[int, str]

CSV_COLUMNS: List[str]
CSV_COLUMNS_SEATS: List[str]
TIMING_COLUMNS: List[str]

@final
class Outcome:
    """How a game ended."""

    @property
    def result(self) -> str:
        """`1-0`, `0-1`, `1/2-1/2`; for 3-4 players the seats' places, like `1-3-2`."""
    @property
    def places(self) -> List[int]:
        """The place of each seat, from 1 (a draw: 1 and 1)."""
    @property
    def scores(self) -> List[float]:
        """Each seat's score in [0, 1]: the share of the others it finished above."""
    @property
    def returns(self) -> List[float]:
        """Each seat's return in [-1, 1], `2 * score - 1`."""
    @property
    def winner(self) -> Optional[int]:
        """The seat (0-based) that took the first place alone; None for a draw, or when 3-4
        players share the first place. Seat 0 is a winner too: test `winner is not None`, never
        `if outcome.winner:`."""
    @property
    def is_draw(self) -> bool:
        """Whether every seat shares the first place."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Moves(Sequence[int]):
    """The legal moves of a position as actions, in `legal_moves` order: an immutable
    sequence (`list(moves)` for a list). A `Moves` never changes once handed out."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> int: ...
    @overload
    def __getitem__(self, index: slice, /) -> List[int]: ...
    def __iter__(self) -> Iterator[int]: ...
    def __reversed__(self) -> Iterator[int]: ...
    def __contains__(self, action: object, /) -> bool: ...
    def index(self, action: int) -> int: ...  # type: ignore[override]
    def count(self, action: int) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Game:
    """A position of a variant, with the moves pushed to reach it."""

    def __new__(cls, variant: str, moves: Union[str, Sequence[_Move], None] = None) -> Game:
        """`Game("tictactoe")`, `Game("oanquan-3p")`, `Game("mnk-5x5k4", "b3 c3 c2")`.
        `ValueError` with the CLI's message for a bad variant id or move."""
    @property
    def variant(self) -> str:
        """The canonical variant id."""
    @property
    def family(self) -> str:
        """The game's family id, as `arena list` names the registry's games (`mnk`, ...)."""
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int:
        """The number of distinct actions: every action is below it (`rows * cols` for m,n,k)."""
    @property
    def ply(self) -> int: ...
    @property
    def observation_shape(self) -> Tuple[int, ...]: ...
    @property
    def observation_bounds(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The least and greatest value of each entry of `observation()`."""
    @property
    def default_max_plies(self) -> int:
        """The arena's ply cap for this variant (the board's cells for m,n,k), as the game says."""
    def to_move(self) -> int:
        """The seat to move, from 0."""
    def legal_moves(self) -> Moves:
        """The legal actions, in a fixed order; empty exactly when the game is over."""
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """One flag per action."""
    def is_legal(self, move: _Move) -> bool: ...
    def push(self, move: _Move) -> None:
        """Plays a move in place; `ValueError` if it is not legal."""
    def pop(self) -> int:
        """Takes back the last move pushed; returns its action. `IndexError` if none."""
    def play(self, move: _Move) -> Game:
        """The game after a move, as a new `Game`."""
    def is_over(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]: ...
    def adjudicate(self) -> Outcome:
        """The outcome the rules give if a ply cap stopped the game now."""
    def totals(self) -> Optional[List[int]]:
        """The totals per seat as if the game ended now, for a game that keeps a score; None
        for one that does not (m,n,k)."""
    def parse_move(self, text: str) -> int:
        """The action of a move text; `ValueError` with the CLI's message if not legal."""
    def format_move(self, move: _Move) -> str: ...
    def history(self) -> List[int]:
        """The actions pushed."""
    def moves_text(self) -> str:
        """The moves pushed, as `arena replay` reads them."""
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def hash(self) -> int:
        """A 64-bit hash of the position."""
    def observation(self, seat: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The position as numbers from the view of `seat` (default: the player to move)."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of exactly `depth` plies (`arena perft`)."""
    def random_playouts(self, count: int, seed: int = 0) -> Dict[str, Any]:
        """`count` random games to the end from here, in one call:
        `{"playouts", "plies", "wins", "draws"}`."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Agent:
    """One of the arena's agents (`arenagames.kinds()` lists them but `py`), seeded; an outside
    program (`proc:cmd=...`, `engine:cmd=...`) plays games whose moves are known from the start."""

    def __new__(cls, spec: str, seed: int = 0) -> Agent:
        """`ValueError` with the CLI's message for a bad spec."""
    @property
    def spec(self) -> str: ...
    @property
    def seed(self) -> int: ...
    def choose(self, game: Game, time_ms: Optional[float] = None) -> Tuple[int, Dict[str, Any]]:
        """The move the agent plays in `game` (an action) and its statistics:
        `{"nodes", "depth", "score", "reason", "pv", "time_ms"}`; `pv` is the line the agent
        expects (actions, each read where it is played, its move first; empty if none)."""

def kinds() -> List[Dict[str, Any]]:
    """The agent kinds with their games and parameters (`arena list`)."""

def canonical_variant(variant: str) -> str:
    """The canonical form of a variant id; `ValueError` for a bad one."""

def _run_experiment(
    text: str,
    source: str,
    out: Union[str, os.PathLike[str], None] = None,
    threads: Optional[int] = None,
    fresh: bool = False,
    agents: Optional[Mapping[str, Callable[[Game, int], Any]]] = None,
) -> Tuple[int, List[Dict[str, Any]], List[str], Optional[os.PathLike[str]]]: ...
