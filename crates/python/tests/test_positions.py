"""`arena positions` files read in one call (`load_positions`): the recorded games' positions,
moves and results, as `Game` rebuilds them from the CSV; seeded sampling; bad files refused."""

import csv

import numpy as np
import pytest

import arenagames as ag

EXPERIMENT = """
name = "learning"
seed = 3
games_per_pair = 4
variants = ["mnk-4x4k3", "oanquan-3p"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "easy"
spec = "easy"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "mcts"
spec = "mcts:iterations=30"
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A finished run: its folder."""
    import subprocess

    from conftest import _find_arena

    tmp = tmp_path_factory.mktemp("positions")
    (tmp / "learning.toml").write_text(EXPERIMENT)
    out = tmp / "run"
    done = subprocess.run([str(_find_arena()), "run", str(tmp / "learning.toml"), "--out",
                           str(out), "--threads", "2"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return out


def games_of(run, variant):
    with open(run / "games.csv", newline="") as file:
        return [row for row in csv.DictReader(file) if row["variant"] == variant]


@pytest.mark.parametrize("variant", ["mnk-4x4k3", "oanquan-3p"])
def test_every_position_is_the_game_s_own(cli, recorded, tmp_path, variant):
    out = tmp_path / "p.npz"
    code, _, err = cli("positions", recorded, "--variant", variant, "--out", out)
    assert code == 0, err
    positions = ag.load_positions(out)
    assert positions.variant == variant
    rows = games_of(recorded, variant)
    i = 0
    for number, row in enumerate(rows):
        game = ag.Game(variant)
        final = ag.Game(variant, row["moves"])
        outcome = final.outcome() or final.adjudicate()
        for text in row["moves"].split():
            seat = game.to_move()
            assert np.array_equal(positions.observation[i], game.observation())
            assert positions.observation[i].shape == game.observation_shape
            assert positions.side_to_move[i] == seat
            assert positions.ply[i] == game.ply
            assert positions.move[i] == text
            assert positions.action[i] == game.parse_move(text)
            assert positions.game[i] == number
            assert positions.result[i] == pytest.approx(outcome.scores[seat])
            assert positions.outcome[i] == pytest.approx(outcome.scores)
            game.push(text)
            i += 1
    assert len(positions) == i > 0


def test_sampling_is_seeded(cli, recorded, tmp_path):
    def sample(name, seed):
        out = tmp_path / name
        code, _, err = cli("positions", recorded, "--variant", "mnk-4x4k3", "--per-game", 3,
                           "--seed", seed, "--out", out)
        assert code == 0, err
        return out.read_bytes(), ag.load_positions(out)

    (first, positions), (again, _), (other, _) = sample("a.npz", 5), sample("b.npz", 5), \
        sample("c.npz", 6)
    assert first == again and first != other
    counts = np.bincount(positions.game)
    assert (counts == 3).all(), counts


def test_a_file_of_another_layout_is_refused(tmp_path):
    path = tmp_path / "other.npz"
    np.savez(path, version=np.uint32(99), variant=np.str_("tictactoe"))
    with pytest.raises(ValueError, match="layout version 99"):
        ag.load_positions(path)
