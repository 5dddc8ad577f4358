"""`Agent`: our agents from Python, against `arena analyze`."""

import re
import sys
import threading
import time
from pathlib import Path

import pytest

import arenagames as ag

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("variant,moves,spec,seed", [
    ("tictactoe", "b2 a1", "mcts:iterations=2000", 7),
    ("mnk-5x5k4", "b3 c3 c2 d1 b2 a2", "mc-flat:rollouts=200", 3),
    ("mnk-5x5k4", "b3 c3", "alphabeta:depth=3", 1),
    ("oanquan", "3P 7P", "greedy2", 5),
    ("oanquan-3p", "1P", "mcts:iterations=500", 2),
    ("gomoku", "h8 h9", "random", 11),
])
def test_the_first_choice_is_arena_analyze_s(cli, variant, moves, spec, seed):
    code, out, err = cli("analyze", variant, "--moves", moves, "--agent", spec, "--seed", seed)
    assert code == 0, err
    expected = re.search(r"^move: (\S+)", out, re.M).group(1)
    game = ag.Game(variant, moves)
    move, stats = ag.Agent(spec, seed=seed).choose(game)
    assert game.format_move(move) == expected
    assert game.is_legal(move) and game.ply == len(moves.split())
    assert set(stats) == {"nodes", "depth", "score", "reason", "pv", "time_ms"}
    assert stats["nodes"] >= 0 and stats["time_ms"] >= 0
    # The principal variation: arena analyze's `pv` line, as actions played in turn.
    pv = re.search(r"^pv: (.*)$", out, re.M)
    texts = []
    for action in stats["pv"]:
        texts.append(game.format_move(action))
        game.push(action)
    assert texts == (pv.group(1).split() if pv else [])


@pytest.mark.parametrize("spec", ["foo", "mcts:foo=1", "mcts:iterations=abc", "greedy",
                                  "mcts:iterations", ":x", "alphabeta:depth=0"])
def test_bad_specs_raise_the_cli_s_message(cli_error, spec):
    expected = cli_error("analyze", "tictactoe", "--agent", spec)
    with pytest.raises(ValueError) as raised:
        ag.Agent(spec).choose(ag.Game("tictactoe"))
    assert str(raised.value) == expected


def test_agents_refuse_what_they_cannot_play():
    with pytest.raises(ValueError, match="the game is over"):
        ag.Agent("random").choose(ag.Game("tictactoe", "b2 a1 a2 c1 c2"))
    # minimax searches two-player games only: refused for three, named.
    with pytest.raises(ValueError, match="minimax.*3 players"):
        ag.Agent("minimax").choose(ag.Game("oanquan-3p"))
    with pytest.raises(ValueError, match="does not play O An Quan"):
        ag.Agent("neighbor").choose(ag.Game("oanquan"))
    with pytest.raises(ValueError, match="time_ms"):
        ag.Agent("random").choose(ag.Game("tictactoe"), time_ms=-1)


def test_an_agent_plays_whole_games_of_every_size_and_is_reproducible():
    def game_of(seed):
        game = ag.Game("oanquan-4p")
        agents = [ag.Agent(spec, seed=seed + i) for i, spec in
                  enumerate(["greedy", "mcts:iterations=200", "random", "alphabeta:depth=2"])]
        while not game.is_over() and game.ply < 400:
            move, _ = agents[game.to_move()].choose(game)
            game.push(move)
        return game.moves_text()

    assert game_of(3) == game_of(3)
    assert game_of(3) != game_of(4)


def test_a_time_budget_is_kept():
    game = ag.Game("gomoku", "h8")
    move, stats = ag.Agent("mcts:time_ms=50").choose(game, time_ms=50)
    assert game.is_legal(move) and stats["nodes"] > 0


def test_searches_release_the_gil():
    # While an agent thinks in another thread, this thread keeps running Python code: ticks
    # land strictly inside the search. (With the GIL held there would be none.)
    game = ag.Game("gomoku", "h8 h9")
    agent = ag.Agent("mcts:iterations=40000,rollout=random")
    window = {}

    def search():
        window["start"] = time.perf_counter()
        agent.choose(game)
        window["end"] = time.perf_counter()

    ticks = []
    thread = threading.Thread(target=search)
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    thread.join()
    inside = [t for t in ticks if window["start"] < t < window["end"]]
    assert len(inside) >= 3, (len(ticks), window)


def test_an_outside_program_is_an_agent_too():
    # The arena's one registry builds `proc` agents for Python as for `arena run`: a program
    # speaking the arena protocol, kept running from one choice to the next.
    script = REPO / "clients" / "python" / "examples" / "algo1.py"
    agent = ag.Agent(f"proc:cmd={sys.executable},timeout_ms=60000,args={script} 20")
    game = ag.Game("tictactoe")
    for _ in range(3):
        move, stats = agent.choose(game)
        assert move in game.legal_moves() and stats["time_ms"] > 0
        game.push(move)
    with pytest.raises(ValueError, match="unknown agent kind `py`"):
        ag.Agent("py:name=mine")
