"""A PettingZoo AEC environment for every variant of the arena, every game of the registry
(`arena list`) for as many players as it seats (`pip install arenagames[pettingzoo]`).

    import numpy as np
    from arenagames.pettingzoo import env

    e = env("oanquan-3p")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        e.step(action)

Agents are `player_0` .. `player_{N-1}` in turn order. Observations are dicts as in
PettingZoo's classic games: `observation` is `Game.observation(seat)` from that agent's view
(`float32`), `action_mask` an `int8` vector over the actions, all zeros when it is not the
agent's turn. Actions are the package's action numbers (`Game.legal_moves()`). Rewards come at
the end: each seat's return in [-1, 1] (two players: +1 win, 0 draw, -1 loss; with more, the
share of the others it finished above, scaled). After `max_plies` plies (by default the arena's
cap, `Game.default_max_plies`) the game is truncated and the game's rule
adjudicates the rewards. `env()` wraps the raw environment like PettingZoo's classic games: an
illegal move ends the game with reward -1 for the player who made it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._arenagames import Game

__all__ = ["ArenaEnv", "env", "raw_env"]

RENDER_MODES = ("human", "ansi")


def env(variant: str = "tictactoe", render_mode: Optional[str] = None,
        max_plies: Optional[int] = None) -> AECEnv:
    """The environment of `variant`, wrapped as PettingZoo's classic games are."""
    environment = raw_env(variant, render_mode=render_mode, max_plies=max_plies)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class ArenaEnv(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo is untyped
    """The AEC environment of one variant (see the module documentation)."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "arenagames_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, variant: str = "tictactoe", render_mode: Optional[str] = None,
                 max_plies: Optional[int] = None):
        EzPickle.__init__(self, variant, render_mode, max_plies)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {RENDER_MODES}")
        self.game = Game(variant)
        self.variant = self.game.variant
        self.render_mode = render_mode
        self.max_plies = self.game.default_max_plies if max_plies is None else int(max_plies)
        if self.max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.game.observation_bounds
        actions = self.game.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self._seat[agent]
        observation = self.game.observation(seat)
        if seat == self.game.to_move() and not self.game.is_over():
            mask = self.game.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> None:
        # The games have no chance: `seed` changes nothing but is accepted, as the API asks.
        self.game = Game(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.to_move()]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must move: None is only for agents whose game is over")
        self._cumulative_rewards[agent] = 0.0
        self.game.push(int(action))  # ValueError with the reason if it is not legal
        self.rewards = {name: 0.0 for name in self.agents}
        outcome = None
        if self.game.is_over():
            outcome = self.game.outcome()
            ended = self.terminations
        elif self.game.ply >= self.max_plies:
            outcome = self.game.adjudicate()
            ended = self.truncations
        if outcome is not None:
            for name in self.agents:
                ended[name] = True
                self.rewards[name] = float(outcome.returns[self._seat[name]])
                self.infos[name] = {"result": outcome.result, "places": outcome.places}
        self.agent_selection = self.possible_agents[self.game.to_move()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "render() was called without a render mode: give env(..., render_mode='human')")
            return None
        text = str(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


raw_env = ArenaEnv
