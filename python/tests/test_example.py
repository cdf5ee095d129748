"""The imitation example learns: a short run beats random play."""

import importlib.util
import pathlib

import numpy as np

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "train_imitation.py"


def load():
    spec = importlib.util.spec_from_file_location("train_imitation", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_imitation_run_agrees_with_its_teacher_and_beats_random():
    ex = load()
    obs, mask, y = ex.collect("medium", 20_000, n=256)
    assert obs.shape[0] == y.shape[0] >= 20_000 and mask[np.arange(len(y)), y].all()
    policy = ex.Policy(hidden=64)
    first = policy.train_step(obs[:512], mask[:512], y[:512])[0]
    ex.train(policy, (obs, mask, y), epochs=3)
    last, acc = policy.train_step(obs[:512], mask[:512], y[:512])
    # Far above chance (a few legal actions a decision, so 20–30%).
    assert last < first and acc > 0.5
    mean, lo, _hi = ex.evaluate(policy, "random", 60)
    assert lo > 0, mean
