"""Trains a small policy on CPU by imitating a house bot with the batched
API, then measures it against house bots on duplicate deals.

    python python/examples/train_imitation.py [--teacher medium] [--samples 300000]
                                              [--deals 400] [--against random easy]

1. Collect: ``Batch`` plays one-hand pairs matches with the teacher choosing
   every action (``Batch.decide``); each decision is an (observation, mask,
   teacher's action) sample.
2. Train: a numpy MLP (487 → 256 → 60, ReLU) with a softmax over the legal
   actions only, cross-entropy on the teacher's action, Adam.
3. Evaluate: on each deal the policy holds seats 0 and 2 against the house
   bot on 1 and 3, then the same deal with the sides swapped; the deal's
   score is the policy's recorded points minus the opponent's over both.
   Prints the mean per deal and its 95% interval.
"""

import argparse
import math
import time

import numpy as np

import botifarra as b

RULES = {"variant": "pairs", "max_hands": 1, "first_dealer": 0}


class Policy:
    """A one-hidden-layer perceptron over the observation, masked softmax."""

    def __init__(self, hidden=256, seed=0):
        rng = np.random.default_rng(seed)
        self.p = {
            "w1": rng.normal(0, math.sqrt(2 / b.OBSERVATION_SIZE), (b.OBSERVATION_SIZE, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0, math.sqrt(1 / hidden), (hidden, b.ACTION_SPACE)).astype(np.float32),
            "b2": np.zeros(b.ACTION_SPACE, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def logits(self, obs, mask):
        h = np.maximum(obs @ self.p["w1"] + self.p["b1"], 0)
        z = h @ self.p["w2"] + self.p["b2"]
        return np.where(mask, z, -1e9), h

    def act(self, obs, mask):
        return int(self.logits(obs[None], mask[None])[0].argmax())

    def train_step(self, obs, mask, y, lr=1e-3):
        """One Adam step on a minibatch; returns the loss and the accuracy."""
        z, h = self.logits(obs, mask)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        loss = -np.log(p[np.arange(n), y] + 1e-12).mean()
        acc = (p.argmax(axis=1) == y).mean()
        dz = p
        dz[np.arange(n), y] -= 1
        dz /= n
        grads = {"w2": h.T @ dz, "b2": dz.sum(axis=0)}
        dh = (dz @ self.p["w2"].T) * (h > 0)
        grads["w1"] = obs.T @ dh
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return loss, acc


def collect(teacher, samples, n=1024, seed=1):
    batch = b.Batch(n, seed=seed, rules=RULES)
    xs, ms, ys = [], [], []
    step = 0
    while len(ys) * n < samples:
        obs, mask, _turn = batch.observe()
        y = batch.decide(teacher, seed=step)
        xs.append(obs)
        ms.append(mask)
        ys.append(y)
        batch.step(y)
        step += 1
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ys)


def train(policy, data, epochs, batch=512, seed=2):
    obs, mask, y = data
    rng = np.random.default_rng(seed)
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        losses, accs = [], []
        for i in range(0, len(y) - batch + 1, batch):
            idx = order[i:i + batch]
            loss, acc = policy.train_step(obs[idx], mask[idx], y[idx])
            losses.append(loss)
            accs.append(acc)
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.3f}, agreement with the teacher {np.mean(accs):.3f}")


def play_deal(policy, opponent, seed, policy_seats):
    g = b.Game(seed=seed, rules=RULES)
    k = 0
    while not g.is_over():
        seat = g.turn
        if seat in policy_seats:
            g.apply(policy.act(g.observation(seat), g.legal_mask(seat)))
        else:
            g.apply(b.decide(opponent, g, seed=seed * 100 + k))
        k += 1
    scores = g.scores()
    mine = g.side(policy_seats[0])
    return scores[mine] - scores[1 - mine]


def evaluate(policy, opponent, deals, seed0=10**6):
    diffs = np.array([
        play_deal(policy, opponent, seed0 + d, (0, 2)) + play_deal(policy, opponent, seed0 + d, (1, 3))
        for d in range(deals)
    ], dtype=float)
    mean = diffs.mean()
    half = 1.96 * diffs.std(ddof=1) / math.sqrt(deals)
    return mean, mean - half, mean + half


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", default="medium")
    ap.add_argument("--samples", type=int, default=300_000)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--against", nargs="+", default=["random", "easy"])
    args = ap.parse_args()
    start = time.perf_counter()
    data = collect(args.teacher, args.samples)
    print(f"collected {len(data[2])} decisions of {args.teacher} in {time.perf_counter() - start:.1f} s")
    policy = Policy()
    train(policy, data, args.epochs)
    print(f"trained in {time.perf_counter() - start:.1f} s in all")
    for opponent in args.against:
        mean, lo, hi = evaluate(policy, opponent, args.deals)
        print(f"against {opponent}: {mean:+.2f} points per duplicate deal, 95% interval [{lo:+.2f}, {hi:+.2f}] "
              f"over {args.deals} deals")


if __name__ == "__main__":
    main()
