"""The PettingZoo AEC environment and the Gymnasium wrapper pass their
libraries' own API checks, and play whole episodes."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import botifarra as b
from botifarra.env import BotifarraAEC, BotifarraEnv


@pytest.mark.parametrize("variant", b.VARIANTS)
def test_the_aec_env_passes_pettingzoos_api_test(variant):
    api_test(BotifarraAEC(variant=variant), num_cycles=400)


@pytest.mark.parametrize("variant", b.VARIANTS)
def test_the_gymnasium_env_passes_check_env(variant):
    check_env(BotifarraEnv(opponent="random", variant=variant), skip_render_check=True)


def test_an_aec_episode_ends_with_rewards_that_are_the_scores():
    env = BotifarraAEC(target=60, max_hands=None)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    g = env.game
    assert g.is_over() and max(g.scores()) >= 60
    for s, agent in enumerate(env.possible_agents):
        assert totals[agent] == g.scores()[g.side(s)]


def test_the_gymnasium_env_plays_the_agents_seat_against_house_bots():
    env = BotifarraEnv(seat=1, opponent="medium")
    obs, info = env.reset(seed=4)
    assert env.game.turn == 1 and obs.shape == (b.OBSERVATION_SIZE,)
    done, steps, total = False, 0, 0.0
    while not done:
        mask = info["action_mask"]
        obs, reward, done, trunc, info = env.step(int(np.flatnonzero(mask)[-1]))
        total += reward
        steps += 1
    scores = env.game.scores()
    mine = env.game.side(1)
    assert total == scores[mine] - scores[1 - mine]
    assert steps >= 12 and env.game.is_over()


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = BotifarraEnv(illegal_reward=-5)
    _, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -5 and terminated and info["illegal"]
