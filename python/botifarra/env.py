"""Standard environments over the engine (needs ``pettingzoo`` and ``gymnasium``).

- ``BotifarraAEC``: a PettingZoo AEC environment, one agent per seat
  (``seat_0`` ...). Each agent observes ``{"observation": float32[487],
  "action_mask": int8[60]}`` (docs/python.md, "The encoding"); its reward
  is the match points its side records (a team in pairs, the seat itself in
  abarrotada). Hands are dealt automatically.
- ``BotifarraEnv``: a Gymnasium single-agent environment: the agent plays
  one seat, the other seats are played by a house bot (``opponent``). The
  observation is the float32 vector; the legal-action mask is in
  ``info["action_mask"]`` and ``action_masks()``. The reward is the points
  the agent's side records minus the most any other side records. An
  illegal action ends the episode with ``illegal_reward``.

Both play one match of the given rules; by default a single hand
(``max_hands=1``), so an episode is one deal.
"""

from __future__ import annotations

import numpy as np
import gymnasium
from gymnasium import spaces
from pettingzoo import AECEnv

from . import ACTION_SPACE, OBSERVATION_SIZE, Game, decide

DEFAULT_RULES = {"max_hands": 1}


def _rules(rules, options):
    out = dict(DEFAULT_RULES)
    out.update(rules or {})
    out.update(options)
    return out


def _new_game(np_random, rules):
    seed = int(np_random.integers(0, 2**63))
    return Game(seed=seed, rules=rules)


def _deal(game):
    if game.phase == "awaiting_deal":
        game.apply(0)


class BotifarraAEC(AECEnv):
    """PettingZoo AEC environment: ``BotifarraAEC(rules=None, **options)``."""

    metadata = {"render_modes": ["ansi"], "name": "botifarra_v0", "is_parallelizable": False}

    def __init__(self, rules=None, render_mode=None, **options):
        super().__init__()
        self.rules = _rules(rules, options)
        self.render_mode = render_mode
        seats = Game(seed=0, rules=self.rules).seats
        self.possible_agents = [f"seat_{s}" for s in range(seats)]
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 2.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (ACTION_SPACE,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_SPACE) for a in self.possible_agents}
        self.game = None
        self._np_random = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.game = _new_game(self._np_random, self.rules)
        _deal(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(ACTION_SPACE, np.int8)
        if self.game.turn == seat:
            mask[self.game.legal_action_ids(seat)] = 1
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        before = self.game.scores()
        self.game.apply(int(action), seat)
        _deal(self.game)
        after = self.game.scores()
        self._cumulative_rewards[agent] = 0.0
        for s, a in enumerate(self.agents):
            side = self.game.side(s)
            self.rewards[a] = float(after[side] - before[side])
        if self.game.is_over():
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        if self.game is None:
            return ""
        v = self.game.view(None)
        return f"{v['phase']} turn={v['turn']} trick={v['trick']} scores={v['scores']}"

    def close(self):
        pass


class BotifarraEnv(gymnasium.Env):
    """Gymnasium environment: ``BotifarraEnv(seat=0, opponent="heuristic",
    rules=None, illegal_reward=-10.0, **options)``; the other seats are
    played by the house bot ``opponent``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, seat=0, opponent="heuristic", rules=None, illegal_reward=-10.0,
                 render_mode=None, **options):
        self.rules = _rules(rules, options)
        self.seat = seat
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 2.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(ACTION_SPACE)
        self.game = None

    def _others_play(self):
        """House bots play until the agent's turn or the end; the points
        recorded per side meanwhile."""
        _deal(self.game)
        while not self.game.is_over() and self.game.turn != self.seat:
            bot_seed = int(self.np_random.integers(0, 2**63))
            self.game.apply(decide(self.opponent, self.game, bot_seed))
            _deal(self.game)

    def _reward(self, before):
        after = self.game.scores()
        gains = [a - b for a, b in zip(after, before)]
        mine = self.game.side(self.seat)
        others = [g for i, g in enumerate(gains) if i != mine]
        return float(gains[mine] - max(others))

    def action_masks(self):
        mask = np.zeros(ACTION_SPACE, np.int8)
        if not self.game.is_over():
            mask[self.game.legal_action_ids(self.seat)] = 1
        return mask

    def _info(self):
        return {"action_mask": self.action_masks(), "scores": self.game.scores()}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.game = _new_game(self.np_random, self.rules)
        self._others_play()
        return self.game.observation(self.seat), self._info()

    def step(self, action):
        before = self.game.scores()
        if not self.action_masks()[int(action)]:
            info = self._info()
            info["illegal"] = True
            return self.game.observation(self.seat), self.illegal_reward, True, False, info
        self.game.apply(int(action), self.seat)
        self._others_play()
        reward = self._reward(before)
        return self.game.observation(self.seat), reward, self.game.is_over(), False, self._info()

    def render(self):
        if self.game is None:
            return ""
        v = self.game.view(self.seat)
        return f"{v['phase']} hand={v.get('hand')} trick={v['trick']} scores={v['scores']}"
