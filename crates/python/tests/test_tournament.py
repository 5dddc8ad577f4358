"""`run_experiment` and `play_match` against `arena run`, and Python agents in tournaments."""

import csv
import threading
import time

import pytest

import arenagames as ag

EXPERIMENT = """\
name = "py-check"
seed = 20261123
games_per_pair = 4
opening_plies = 2
variants = ["tictactoe", "mnk-5x5k4", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "mcts-300"
spec = "mcts:iterations=300"

[[agents]]
name = "alphabeta-2"
spec = "alphabeta:depth=2"

[[agents]]
name = "greedy"
spec = "greedy"
"""

MULTI = """\
name = "py-multi"
seed = 7
games_per_pair = 2
variants = ["oanquan", "oanquan-3p", "oanquan-4p"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "mcts-200"
spec = "mcts:iterations=200"

[[agents]]
name = "greedy2"
spec = "greedy2"
"""


def as_csv_text(row, columns):
    """A row dict as the CSV writes its fields (timing columns left out)."""
    out = []
    for column in columns:
        if column in ag.TIMING_COLUMNS:
            continue
        value = row[column]
        out.append("" if value is None else str(value))
    return out


def arena_rows(cli, tmp_path, text, name="exp"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    out = tmp_path / f"{name}-cli"
    code, _, err = cli("run", path, "--out", out, "--threads", 2)
    assert code == 0, err
    with open(out / "games.csv", newline="") as file:
        reader = csv.reader(file)
        header = next(reader)
        rows = list(reader)
    keep = [i for i, column in enumerate(header) if column not in ag.TIMING_COLUMNS]
    return header, [[row[i] for i in keep] for row in rows]


@pytest.mark.parametrize("text", [EXPERIMENT, MULTI], ids=["two-players", "three-four"])
def test_a_run_gives_the_rows_of_arena_run(cli, tmp_path, text):
    header, expected = arena_rows(cli, tmp_path, text)
    for threads in (1, 2):
        rows = ag.run_experiment(text, threads=threads, as_frame=False)
        assert list(rows[0]) == header
        assert [as_csv_text(row, header) for row in rows] == expected
    # Into a folder, as `arena run --out`: the same CSV, and a second run plays nothing new.
    path = tmp_path / "exp.toml"
    out = tmp_path / "from-python"
    rows = ag.run_experiment(path, out, threads=2, as_frame=False)
    assert [as_csv_text(row, header) for row in rows] == expected
    assert (out / "games.csv").exists() and (out / "games.meta.toml").exists()
    again = ag.run_experiment(str(path), out, as_frame=False)
    assert [as_csv_text(row, header) for row in again] == expected
    with open(out / "games.csv", newline="") as file:
        written = list(csv.reader(file))
    keep = [i for i, column in enumerate(written[0]) if column not in ag.TIMING_COLUMNS]
    assert [[row[i] for i in keep] for row in written[1:]] == expected


def test_play_match_is_the_experiment_of_its_agents(cli, tmp_path):
    rows = ag.play_match("mcts:iterations=200,c=1.4", "alphabeta:depth=2", "mnk-5x5k4",
                         games=4, seed=99, as_frame=False)
    assert [row["first"] for row in rows] == ["mcts:iterations=200 c=1.4", "alphabeta:depth=2"] * 2
    text = "\n".join([
        'name = "match"', "seed = 99", "games_per_pair = 4", 'variants = ["mnk-5x5k4"]', "",
        "[[agents]]", 'name = "mcts:iterations=200 c=1.4"', 'spec = "mcts:iterations=200,c=1.4"',
        "", "[[agents]]", 'name = "alphabeta:depth=2"', 'spec = "alphabeta:depth=2"', ""])
    header, expected = arena_rows(cli, tmp_path, text)
    assert [as_csv_text(row, header) for row in rows] == expected
    four = ag.play_match(["greedy", "random", "mcts:iterations=100", "greedy2"],
                         variant="oanquan-4p", games=1, seed=5, as_frame=False)
    assert len(four) == 4 and all(row["players"] == 4 for row in four)
    # Every cyclic seating once: each agent sits in each seat.
    assert sorted(row["first"] for row in four) == sorted(["greedy", "random",
                                                           "mcts:iterations=100", "greedy2"])
    with pytest.raises(ValueError, match="seats 3 players; 2 agents were given"):
        ag.play_match("random", "random", "oanquan-3p")
    with pytest.raises(TypeError):
        ag.play_match("random")


def first_legal(game):
    return game.legal_moves()[0]


def test_python_agents_sit_next_to_ours():
    def last_legal(game, rng):
        moves = game.legal_moves()
        assert game.num_players == 3 or game.family == "mnk"
        return game.format_move(rng.choice(list(moves)))  # a text works as well as an action

    rows = ag.play_match(first_legal, "random", "tictactoe", games=2, seed=1, as_frame=False)
    assert rows[0]["first"] == "first_legal" and rows[0]["first_spec"] == "py:name=first_legal"
    assert rows[0]["moves"].split()[0] == "a1"  # the first legal move of the empty board
    assert all(row["termination"] in ("win", "draw") for row in rows)
    # Reproducible: the function's generator comes from the game's seed.
    seats = [last_legal, "greedy", "mcts:iterations=100"]
    one = ag.play_match(seats, variant="oanquan-3p", games=2, seed=3, as_frame=False)
    two = ag.play_match(seats, variant="oanquan-3p", games=2, seed=3, threads=2, as_frame=False)
    assert [r["moves"] for r in one] == [r["moves"] for r in two]
    assert all(r["termination"] in ("win", "draw", "ply-cap") for r in one)

    class Bot:
        def choose(self, game):
            return game.legal_moves()[-1]

    text = EXPERIMENT.replace('spec = "random"', 'spec = "py:name=bot"')
    rows = ag.run_experiment(text, agents={"bot": Bot()}, as_frame=False)
    assert {row["first_spec"] for row in rows} >= {"py:name=bot"}
    assert all(row["termination"] != "crash" for row in rows)


def test_faults_of_python_agents_lose_the_game_and_are_reported():
    def raises(game):
        raise RuntimeError("no idea")

    def illegal(game):
        return 99

    def nonsense(game):
        return {"a": 1}

    for function, termination, words in [(raises, "crash", "RuntimeError: no idea"),
                                         (illegal, "illegal-move", "99 is not an action"),
                                         (nonsense, "illegal-move", "not a move")]:
        with pytest.warns(RuntimeWarning, match=words):
            rows = ag.play_match(function, "random", "tictactoe", games=2, as_frame=False)
        assert [row["termination"] for row in rows] == [termination] * 2
        assert [row["result"] for row in rows] == ["0-1", "1-0"]


def test_bad_experiments_raise_the_cli_s_message(cli_error, tmp_path):
    for bad, words in [
        (EXPERIMENT.replace("games_per_pair = 4", "games_per_pair = 0"), "1 or more"),
        (EXPERIMENT.replace('spec = "greedy"', 'spec = "gredy"'), "unknown agent kind"),
        (EXPERIMENT.replace('"oanquan"]', '"oanquan", "chess"]'), "unknown game"),
        (EXPERIMENT + "\nsurprise = 1\n", "unknown field"),
    ]:
        path = tmp_path / "bad.toml"
        path.write_text(bad)
        with pytest.raises(ValueError) as raised:
            ag.run_experiment(path)
        expected = cli_error("run", path, "--dry-run")
        if words == "unknown agent kind":
            # From Python the registry knows one more kind, listed last: `py`.
            assert expected.endswith(", proc")
            expected += ", py"
        assert str(raised.value) == expected
        assert words in str(raised.value)
    with pytest.raises(ValueError, match="no Python agent named `mine`"):
        ag.run_experiment(EXPERIMENT.replace('spec = "random"', 'spec = "py:name=mine"'))
    with pytest.raises(ValueError, match="agent `py` has no parameter `nme`"):
        ag.run_experiment(EXPERIMENT.replace('spec = "random"', 'spec = "py:nme=mine"'),
                          agents={"mine": first_legal})
    with pytest.raises(FileNotFoundError):
        ag.run_experiment(tmp_path / "missing.toml")


def test_rows_are_a_list_of_dicts_whether_pandas_is_there_or_not():
    rows = ag.play_match("random", "greedy", "oanquan", games=2)
    assert isinstance(rows, list) and len(rows) == 2
    assert list(rows[0]) == ag.CSV_COLUMNS and rows[0]["variant"] == "oanquan"
    assert isinstance(ag.run_experiment(MULTI), list)
    with pytest.raises(TypeError, match="as_frame is True or False, not None"):
        ag.play_match("random", "greedy", "oanquan", games=2, as_frame=None)


def test_as_frame_asks_for_a_data_frame():
    pandas = pytest.importorskip("pandas")
    frame = ag.play_match("random", "greedy", "oanquan", games=2, as_frame=True)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == ag.CSV_COLUMNS and len(frame) == 2
    multi = ag.run_experiment(MULTI, as_frame=True)
    assert list(multi.columns) == ag.CSV_COLUMNS_SEATS
    assert set(multi["players"]) == {2, 3, 4}


def test_games_run_without_the_gil():
    # While the arena plays in another thread, this thread keeps running Python code.
    window = {}

    def run():
        window["start"] = time.perf_counter()
        ag.play_match("mcts:iterations=3000", "mcts:iterations=3000", "mnk-7x7k5", games=4,
                      threads=1, as_frame=False)
        window["end"] = time.perf_counter()

    ticks = []
    thread = threading.Thread(target=run)
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    thread.join()
    assert len([t for t in ticks if window["start"] < t < window["end"]]) >= 3
