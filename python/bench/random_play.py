"""Random-play hands per second: the Rust engine's own benchmark
(`botifarra bench-engine`) and the Python package's single-game and
batched APIs, measured side by side in one run, one thread each.

    python python/bench/random_play.py target/release/botifarra [--seconds 5] [--batch 256]

Every path plays complete random matches under the default rules, every
action checked by the engine: the engine's benchmark draws each card in
Rust; the single-game API asks for the legal actions and applies one drawn
in Python (as dicts in the API's shapes, or as action ids); the batched API
draws one action per game with numpy from the legal-action masks (a random
byte per action id, the largest legal one) and steps the whole batch (with
or without the observation encoding). The "first legal" row is not random
play: it takes the first legal action, to show the batch API's own cost
without the numpy dice. The last row draws each action in Rust
(`step_sampled` without logits: uniform over the legal ones).
"""

import argparse
import random
import subprocess
import time

import numpy as np

import botifarra as b


def timed(seconds, run):
    """Calls run() (which returns hands finished) until `seconds` passed."""
    start = time.perf_counter()
    hands = 0
    while (elapsed := time.perf_counter() - start) < seconds:
        hands += run()
    return hands / elapsed


def single_dicts(seconds):
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one_match():
        g = b.Game(seed=next(seeds))
        while not g.is_over():
            g.apply(rng.choice(g.legal_actions()))
        return g.hands_played

    return timed(seconds, one_match)


def single_ids(seconds):
    rng = random.Random(2)
    seeds = iter(range(10**9))

    def one_match():
        g = b.Game(seed=next(seeds))
        while not g.is_over():
            g.apply(rng.choice(g.legal_action_ids()))
        return g.hands_played

    return timed(seconds, one_match)


def batched(seconds, n, observe, dice=True):
    batch = b.Batch(n, seed=3)
    rng = np.random.default_rng(3)

    def some_steps():
        before = batch.hands_played
        for _ in range(50):
            if observe:
                _obs, mask, _turn = batch.observe()
            else:
                mask, _turn = batch.masks()
            # A random odd byte per action, zero where illegal: the largest is
            # a random legal action (ties, rare, go to the lower id).
            if dice:
                noise = np.frombuffer(rng.bytes(mask.size), np.uint8).reshape(mask.shape)
                actions = ((noise | 1) * mask).argmax(axis=1)
            else:
                actions = mask.argmax(axis=1)
            batch.step(actions)
        return batch.hands_played - before

    return timed(seconds, some_steps)


def sampled(seconds, n):
    batch = b.Batch(n, seed=4)
    steps = iter(range(10**12))

    def some_steps():
        before = batch.hands_played
        for _ in range(50):
            batch.step_sampled(seed=next(steps))
        return batch.hands_played - before

    return timed(seconds, some_steps)


def engine(binary, seconds):
    out = subprocess.run(
        [binary, "bench-engine", "--seconds", str(seconds)],
        check=True, capture_output=True, text=True,
    ).stdout
    return float(out.split("hands_per_second=")[1].split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server", help="the botifarra binary (for bench-engine)")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--batch", type=int, default=1024)
    args = ap.parse_args()
    rows = [
        ("Rust engine (bench-engine)", engine(args.server, args.seconds)),
        ("Python Game, dict actions", single_dicts(args.seconds)),
        ("Python Game, action ids", single_ids(args.seconds)),
        (f"Python Batch({args.batch}), masks only", batched(args.seconds, args.batch, False)),
        (f"Python Batch({args.batch}), observations + masks", batched(args.seconds, args.batch, True)),
        (f"Python Batch({args.batch}), masks, first legal", batched(args.seconds, args.batch, False, False)),
        (f"Python Batch({args.batch}).step_sampled", sampled(args.seconds, args.batch)),
    ]
    rust = rows[0][1]
    print(f"{'path':<44} {'hands/s':>12} {'÷ engine':>9}")
    for name, rate in rows:
        print(f"{name:<44} {rate:>12,.0f} {rate / rust:>9.3f}")


if __name__ == "__main__":
    main()
