"""Random-play hands per second: the Rust engine's own benchmark
(`botifarra bench-engine`) and the Python package's single-game and
batched APIs, measured side by side in one run, one thread each.

    python python/bench/random_play.py target/release/botifarra [--seconds 5] [--batch 1024]
        [--rounds 3] [--clock cpu] [--only 6]

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
import resource
import subprocess
import time

import numpy as np

import botifarra as b


CLOCK = {"clock": time.perf_counter}


def timed(seconds, run):
    """Calls run() (which returns hands finished) until `seconds` passed on
    the clock chosen (wall, or this process's CPU time)."""
    clock = CLOCK["clock"]
    start = clock()
    hands = 0
    while (elapsed := clock() - start) < seconds:
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
    """bench-engine's hands per second: of wall-clock time as it reports
    them, or of its CPU time (the child's user + system time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [binary, "bench-engine", "--seconds", str(seconds)],
        check=True, capture_output=True, text=True,
    ).stdout
    if CLOCK["clock"] is time.perf_counter:
        return float(out.split("hands_per_second=")[1].split()[0])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(out.split("hands=")[1].split()[0]) / cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server", help="the botifarra binary (for bench-engine)")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of every path in turn; each path's best round is shown")
    ap.add_argument("--only", default="",
                    help="comma-separated row numbers to run besides the engine (1-6)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="wall",
                    help="hands per second of wall-clock time (default) or of CPU "
                         "time (steadier on a shared machine)")
    args = ap.parse_args()
    if args.clock == "cpu":
        CLOCK["clock"] = time.process_time
    n = args.batch
    paths = [
        ("Rust engine (bench-engine)", lambda s: engine(args.server, s)),
        ("Python Game, dict actions", single_dicts),
        ("Python Game, action ids", single_ids),
        (f"Python Batch({n}), masks only", lambda s: batched(s, n, False)),
        (f"Python Batch({n}), observations + masks", lambda s: batched(s, n, True)),
        (f"Python Batch({n}), masks, first legal", lambda s: batched(s, n, False, False)),
        (f"Python Batch({n}).step_sampled", lambda s: sampled(s, n)),
    ]
    if args.only:
        keep = {0} | {int(k) for k in args.only.split(",")}
        paths = [p for i, p in enumerate(paths) if i in keep]
    # Every path in turn, round after round: on a shared machine the load
    # moves, and each path's best round is the least disturbed one.
    best = [0.0] * len(paths)
    for _ in range(args.rounds):
        for i, (_, run) in enumerate(paths):
            best[i] = max(best[i], run(args.seconds))
    rust = best[0]
    title = f"path ({args.clock} time, best of {args.rounds} rounds)"
    print(f"{title:<44} {'hands/s':>12} {'÷ engine':>9}")
    for (name, _), rate in zip(paths, best):
        print(f"{name:<44} {rate:>12,.0f} {rate / rust:>9.3f}")


if __name__ == "__main__":
    main()
