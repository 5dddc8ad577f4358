"""The PettingZoo environment, through PettingZoo's own `api_test`."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from arenagames.pettingzoo import env, raw_env  # noqa: E402

VARIANTS = ["tictactoe", "mnk-5x5k4", "mnk-4x7k4-caro", "mnk-5x5k4-center", "oanquan",
            "oanquan-stop-end", "oanquan-3p", "oanquan-4p", "connect4", "connect4-5x4", "oware",
            "othello", "breakthrough", "breakthrough-6x4"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes(variant):
    api_test(env(variant), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_raw_environment_passes_too(variant):
    api_test(raw_env(variant), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("variant",
                         ["tictactoe", "oanquan", "oanquan-3p", "oanquan-4p", "connect4", "oware",
                          "othello", "breakthrough"])
def test_random_games_end_with_the_game_s_returns(variant):
    e = env(variant)
    for seed in range(5):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {agent: 0.0 for agent in e.possible_agents}
        plies = 0
        for agent in e.agent_iter():
            observation, reward, termination, truncation, info = e.last()
            totals[agent] += reward
            if termination or truncation:
                e.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            e.step(int(rng.choice(np.flatnonzero(mask))))
            plies += 1
        game = e.unwrapped.game
        assert game.is_over() and game.ply == plies
        returns = game.outcome().returns
        assert [totals[agent] for agent in e.possible_agents] == pytest.approx(returns)


def test_an_illegal_move_loses_as_in_pettingzoo_s_classic_games():
    e = env("tictactoe")
    e.reset()
    e.step(4)
    e.step(4)  # occupied: the player who tried it gets -1, the game ends
    assert e.rewards["player_1"] == -1.0 and all(e.terminations.values())
    raw = raw_env("tictactoe")
    raw.reset()
    raw.step(4)
    with pytest.raises(ValueError, match="occupied"):
        raw.step(4)


def test_a_truncated_game_is_adjudicated():
    e = raw_env("oanquan-3p", max_plies=6)
    e.reset()
    for _ in range(6):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert [e.rewards[a] for a in e.possible_agents] == pytest.approx(
        e.game.adjudicate().returns)


def test_render_shows_the_board():
    e = raw_env("tictactoe", render_mode="ansi")
    e.reset()
    e.step(4)
    assert "(X)" in e.render()
