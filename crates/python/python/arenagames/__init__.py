"""The arena's games, agents and seeded tournaments, from Python.

The rules, the agents and the tournaments are the Rust crates of the `arena` workspace, called
as they are through PyO3; this package adds what Python wants on top: moves as small ints,
positions as NumPy arrays, rows as a list of dicts (or a pandas DataFrame on request), Python
functions as agents, and
a PettingZoo environment (`arenagames.pettingzoo`).

    >>> import arenagames as ag
    >>> game = ag.Game("tictactoe")
    >>> for move in ["b2", "a1", "a2", "c1", "c2"]:
    ...     game.push(move)
    >>> game.outcome().winner      # the seat that won: 0, the first player (None for a draw)
    0
    >>> game.outcome().winner is not None   # "did someone win?" (`if outcome.winner:` is wrong)
    True
    >>> move, stats = ag.Agent("alphabeta", seed=1).choose(ag.Game("tictactoe", "b2 a1"))

**Actions.** A move is an int, the action, or its text in the game's notation (`b3`, `3P`):

- m,n,k: `row * cols + col` (0-based, row-major; `a1` is 0), `rows * cols` actions;
- O An Quan: from the view of the player to move, `2 * k + d`, with `k` (0-4) the rank of the
  square among that player's five in label order and `d` 0 for `P`, 1 for `T`: 10 actions
  whatever the number of players (player 1's `3P` is 4, and so is player 2's `8P`).

**Observations** (`Game.observation(seat=None)`, `float32`, from the view of `seat`, by default
the player to move):

- m,n,k: shape `(3, rows, cols)`: the seat's stones, the other player's, and a plane of ones
  when the seat is the first player (X);
- O An Quan: shape `(players, 8)`: one row per seat from the viewer round the table, each with
  the seat's five squares, the mandarin cell after them, whether that cell still holds its
  piece, and the seat's captures; cells in the order the viewer's `P` sows.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import json
import os
import random
import warnings
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

from ._arenagames import (
    CSV_COLUMNS,
    CSV_COLUMNS_SEATS,
    TIMING_COLUMNS,
    Agent,
    Game,
    Moves,
    Outcome,
    _run_experiment,
    canonical_variant,
    kinds,
)

__all__ = [
    "Agent",
    "CSV_COLUMNS",
    "CSV_COLUMNS_SEATS",
    "Game",
    "Moves",
    "Outcome",
    "TIMING_COLUMNS",
    "canonical_variant",
    "kinds",
    "POSITIONS_FORMAT",
    "Positions",
    "Rows",
    "load_positions",
    "play_match",
    "run_experiment",
]

try:
    __version__ = _version("arenagames")
except PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0.0.0"

# `Moves` is an immutable sequence: `isinstance(game.legal_moves(), Sequence)` holds.
collections.abc.Sequence.register(Moves)

if TYPE_CHECKING:
    import pandas

#: What `run_experiment` and `play_match` return: one dict per game, with the CSV's columns
#: (`as_frame=True` gives a pandas DataFrame instead).
Rows = List[Dict[str, Any]]

#: A seat at a match: an agent spec (`"mcts:iterations=1000"`), or a Python agent: a function
#: `choose(game)` or `choose(game, rng)` returning a move, or an object with such a `choose`.
Seat = Union[str, Callable[..., Any], Any]


def _python_agent(agent: Any, name: str) -> Callable[[Game, int], Any]:
    """`agent` as the arena calls Python agents: `function(game, seed)`. `agent` is a function
    `choose(game)` or `choose(game, rng)` (then given a `random.Random` seeded from the arena's
    generator, so that the game stays reproducible), or an object with such a `choose`."""
    choose = agent if callable(agent) else getattr(agent, "choose", None)
    if not callable(choose):
        raise TypeError(
            f"the Python agent `{name}` is neither a function nor an object with a "
            f"`choose(game)` method: {agent!r}"
        )
    try:
        parameters = list(inspect.signature(choose).parameters.values())
    except (TypeError, ValueError):  # builtins without a signature: game only
        parameters = []
    positional = [
        p
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    takes_rng = len(positional) >= 2 or any(
        p.kind == inspect.Parameter.VAR_POSITIONAL for p in parameters
    )
    if takes_rng:
        return lambda game, seed: choose(game, random.Random(seed))
    return lambda game, seed: choose(game)


def _frame(
    rows: Rows, columns: Sequence[str], as_frame: bool
) -> Union[Rows, "pandas.DataFrame"]:
    if not isinstance(as_frame, bool):
        raise TypeError(f"as_frame is True or False, not {as_frame!r}")
    if not as_frame:
        return rows
    try:
        import pandas  # noqa: F811 (the real import; the one above is for type checkers)
    except ImportError as error:
        raise ImportError(
            "as_frame=True needs pandas: pip install pandas (or leave as_frame out for a list "
            "of dicts)"
        ) from error
    return pandas.DataFrame(rows, columns=list(columns))


@overload
def run_experiment(
    experiment: Union[str, "os.PathLike[str]"],
    out: Union[str, "os.PathLike[str]", None] = ...,
    *,
    threads: Optional[int] = ...,
    fresh: bool = ...,
    agents: Optional[Mapping[str, Any]] = ...,
    as_frame: Literal[False] = ...,
) -> Rows: ...


@overload
def run_experiment(
    experiment: Union[str, "os.PathLike[str]"],
    out: Union[str, "os.PathLike[str]", None] = ...,
    *,
    threads: Optional[int] = ...,
    fresh: bool = ...,
    agents: Optional[Mapping[str, Any]] = ...,
    as_frame: Literal[True],
) -> "pandas.DataFrame": ...


def run_experiment(
    experiment: Union[str, "os.PathLike[str]"],
    out: Union[str, "os.PathLike[str]", None] = None,
    *,
    threads: Optional[int] = None,
    fresh: bool = False,
    agents: Optional[Mapping[str, Any]] = None,
    as_frame: bool = False,
) -> Union[Rows, "pandas.DataFrame"]:
    """Runs an experiment and returns its rows, one per game in schedule order.

    `experiment` is the path of an experiment file, or its TOML text (a text holding a newline
    or `=`). With `out` (a folder) the run is `arena run EXPERIMENT --out OUT`: the CSV and its
    meta file are written there, an interrupted run resumes, a changed experiment is refused
    unless `fresh`; without it the games are played in memory and nothing is written. Either
    way the rows are those `arena run` records, byte for byte outside the timing columns.

    `agents` maps names to Python agents (functions `choose(game)` or `choose(game, rng)`, or
    objects with such a `choose`), seated by specs `py:name=NAME` in the file. `threads`
    defaults as in `arena run` (the experiment's `threads`, else all cores). The GIL is released
    while games are played; Python agents take it when they move.

It returns a list of dicts, one per game, with the CSV's columns (`CSV_COLUMNS`, and
    `CSV_COLUMNS_SEATS` for an experiment with 3-4 player variants), empty cells `None`;
    `as_frame=True` returns a pandas DataFrame instead (pandas must be installed): the same
    type whatever is installed. A bad experiment raises
    `ValueError` with the CLI's message; faults (an agent that crashed, timed out or played an
    illegal move, and lost that game) are reported as `RuntimeWarning`s.
    """
    if isinstance(experiment, os.PathLike) or not (
        "\n" in experiment or "=" in experiment
    ):
        path = os.fspath(experiment)
        with open(path, encoding="utf-8") as file:
            text, source = file.read(), path
    else:
        text, source = experiment, "<experiment text>"
    functions = {
        str(name): _python_agent(agent, str(name)) for name, agent in (agents or {}).items()
    }
    schema, rows, faults, _csv = _run_experiment(
        text,
        source,
        None if out is None else os.fspath(out),
        threads,
        fresh,
        functions,
    )
    for fault in faults:
        warnings.warn(f"arena: {fault}", RuntimeWarning, stacklevel=2)
    return _frame(rows, CSV_COLUMNS if schema == 1 else CSV_COLUMNS_SEATS, as_frame)


def _seat_name(seat: Any) -> str:
    if isinstance(seat, str):
        # Names hold no comma (the CSV's display names); a spec's commas become spaces.
        return seat.strip().replace(",", " ")
    function = seat if callable(seat) else getattr(seat, "choose", seat)
    name = getattr(function, "__name__", None) or type(seat).__name__
    return "py-" + name if name == "<lambda>" else name


@overload
def play_match(
    first: Union[Seat, Sequence[Seat]],
    second: Optional[Seat] = ...,
    variant: str = ...,
    games: int = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
    *,
    names: Optional[Sequence[str]] = ...,
    max_plies: int = ...,
    opening_plies: int = ...,
    move_time_ms: int = ...,
    name: str = ...,
    out: Union[str, "os.PathLike[str]", None] = ...,
    as_frame: Literal[False] = ...,
) -> Rows: ...


@overload
def play_match(
    first: Union[Seat, Sequence[Seat]],
    second: Optional[Seat] = ...,
    variant: str = ...,
    games: int = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
    *,
    names: Optional[Sequence[str]] = ...,
    max_plies: int = ...,
    opening_plies: int = ...,
    move_time_ms: int = ...,
    name: str = ...,
    out: Union[str, "os.PathLike[str]", None] = ...,
    as_frame: Literal[True],
) -> "pandas.DataFrame": ...


def play_match(
    first: Union[Seat, Sequence[Seat]],
    second: Optional[Seat] = None,
    variant: str = "tictactoe",
    games: int = 2,
    seed: int = 0,
    threads: Optional[int] = None,
    *,
    names: Optional[Sequence[str]] = None,
    max_plies: int = 0,
    opening_plies: int = 0,
    move_time_ms: int = 0,
    name: str = "match",
    out: Union[str, "os.PathLike[str]", None] = None,
    as_frame: bool = False,
) -> Union[Rows, "pandas.DataFrame"]:
    """Plays a seeded match and returns its rows: a list of dicts, one per game, or a pandas
    DataFrame with `as_frame=True` (see `run_experiment`).

    `play_match("mcts:iterations=1000", "alphabeta:depth=4", "tictactoe", games=10, seed=1)`;
    for three or four players give the seats as a list as first argument:
    `play_match(["greedy", "mcts", "random"], variant="oanquan-3p", games=4)`. A seat is an
    agent spec or a Python agent (a function `choose(game)` or `choose(game, rng)`).

    It is the experiment of one variant with these agents (named by `names`, by default by
    their specs with commas as spaces, or by the functions' names), `games_per_pair = games`:
    with two agents `games` games, the colours alternating; with three or four, `games` games
    in each of the cyclic seat orders. `arena run` of that experiment gives the same rows.
    """
    if isinstance(first, (list, tuple)):
        if second is not None:
            raise TypeError("give the seats either as a list or as first and second, not both")
        seats = list(first)
    else:
        if second is None:
            raise TypeError("play_match needs a second agent (or a list of seats as first)")
        seats = [first, second]
    players = Game(variant).num_players
    if len(seats) != players:
        raise ValueError(
            f"{canonical_variant(variant)} seats {players} players; {len(seats)} agents were given"
        )
    if names is None:
        names = []
        for seat in seats:
            base = _seat_name(seat)
            candidate, n = base, 2
            while candidate in names:
                candidate, n = f"{base} ({n})", n + 1
            names.append(candidate)
    elif len(names) != len(seats):
        raise ValueError(f"{len(names)} names for {len(seats)} agents")
    functions = {}
    lines = [
        f"name = {json.dumps(name)}",
        f"seed = {int(seed)}",
        f"games_per_pair = {int(games)}",
        f"max_plies = {int(max_plies)}",
        f"opening_plies = {int(opening_plies)}",
        f"move_time_ms = {int(move_time_ms)}",
        f"variants = [{json.dumps(variant)}]",
    ]
    for seat, seat_name in zip(seats, names):
        if isinstance(seat, str):
            spec = seat
        else:
            functions[seat_name] = seat
            spec = f"py:name={seat_name}"
        lines += ["", "[[agents]]", f"name = {json.dumps(seat_name)}", f"spec = {json.dumps(spec)}"]
    text = "\n".join(lines) + "\n"
    if as_frame is True:
        return run_experiment(text, out, threads=threads, agents=functions, as_frame=True)
    rows = run_experiment(text, out, threads=threads, agents=functions)
    return _frame(rows, CSV_COLUMNS, as_frame)


#: The version of the layout of the files `arena positions` writes (their `version` array)
#: that `load_positions` reads.
POSITIONS_FORMAT = 1


@dataclasses.dataclass(frozen=True)
class Positions:
    """The positions of recorded games, as `arena positions` exports them: one entry per
    position in each array (docs/src/reference/positions.md is the reference).

    `observation[i]` is `Game.observation()` of the position (from the side to move's view);
    `move[i]` and `action[i]` the move played there; `result[i]` the final score of the side
    to move (1 win, 0.5 draw, 0 loss; with 3-4 players the share of the others it placed
    above), `outcome[i, seat]` every seat's; `game[i]` numbers the games from 0.
    """

    variant: str
    observation: npt.NDArray[Any]
    side_to_move: npt.NDArray[np.uint8]
    ply: npt.NDArray[np.uint32]
    action: npt.NDArray[np.int32]
    move: npt.NDArray[np.str_]
    result: npt.NDArray[np.float32]
    outcome: npt.NDArray[np.float32]
    game: npt.NDArray[np.uint32]

    def __len__(self) -> int:
        return int(self.result.shape[0])


def load_positions(path: Union[str, "os.PathLike[str]"]) -> Positions:
    """The positions file `path` (`arena positions --out PATH`), read in one call into NumPy
    arrays. `ValueError` for a file of another layout version or with an array missing."""
    with np.load(path, allow_pickle=False) as arrays:
        version = int(arrays["version"]) if "version" in arrays else None
        if version != POSITIONS_FORMAT:
            raise ValueError(
                f"{os.fspath(path)}: positions file of layout version {version}; this "
                f"arenagames reads version {POSITIONS_FORMAT} (export it again with this "
                f"version's `arena positions`)"
            )
        fields = [f.name for f in dataclasses.fields(Positions)]
        missing = [name for name in fields if name not in arrays]
        if missing:
            raise ValueError(f"{os.fspath(path)}: no array {', '.join(missing)}")
        values = {name: arrays[name] for name in fields}
    values["variant"] = str(values["variant"])
    return Positions(**values)
