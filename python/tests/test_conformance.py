"""Conformance: the Python engine and the server, driven with the same seeds
and actions, agree on every legal action, every view, every refusal and
every score, on CONFORMANCE_MATCHES (default 200) random matches of each
variant with random rule options."""

import os
import random

import pytest

import botifarra as b

MATCHES = int(os.environ.get("CONFORMANCE_MATCHES", "200"))
# What the service adds to the engine's view.
SERVICE_FIELDS = {"match_id", "version", "last_seq", "seats", "deadline"}


def random_rules(rng, variant):
    rules = {
        "variant": variant,
        "target": rng.choice([1, 30, 101]),
        "max_hands": rng.choice([1, 2]),
        "doubling": rng.choice(["powers", "linear"]),
        "shuffle": rng.choice(["full", "stack_and_cut"]),
        "first_dealer": rng.choice(["draw", 0, 1, 2]),
        "sant_vicenc_with_botifarra": rng.random() < 0.5,
    }
    mode = rng.choice(["none", "must_trump"] + (["forced"] if variant == "pairs" else []))
    if mode != "none":
        rules[mode] = True
    return rules


def same_view(server_view, local_view, where):
    assert set(server_view) - set(local_view) == SERVICE_FIELDS, where
    for key, value in local_view.items():
        assert server_view[key] == value, f"{where}: {key}"


def check_refusal(server, mid, tokens, game, rng, where):
    """An action the seat to act may not make: both refuse it with one rule."""
    seat = game.turn
    legal = set(game.legal_action_ids())
    bad = rng.choice([i for i in range(b.ACTION_SPACE) if i not in legal])
    action = b.action_of_id(bad)
    with pytest.raises(b.RuleRefused) as local:
        game.apply(action)
    status, problem = server.request("POST", f"/v1/matches/{mid}/actions", action, tokens[seat])
    assert status in (409, 422), (where, status, problem)
    assert problem["rule"] == local.value.rule, (where, action)
    assert problem["code"] == local.value.code, (where, action)


def play_one(server, rng, variant, n):
    rules = random_rules(rng, variant)
    seed = "%064x" % rng.getrandbits(256)
    status, created = server.request("POST", "/v1/matches", {"rules": rules, "seed": seed})
    assert status == 201, created
    mid = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    game = b.Game(seed=seed, rules=rules)
    same_view(created["view"], game.view(None), f"match {n} created")
    refusal_at = rng.randrange(40)  # every match has 50 steps or more
    step = 0
    while not game.is_over():
        seat = game.turn
        where = f"{variant} match {n} step {step} ({rules})"
        status, view = server.request("GET", f"/v1/matches/{mid}", token=tokens[seat])
        assert status == 200, view
        same_view(view, game.view(seat), where)
        if step == refusal_at:
            check_refusal(server, mid, tokens, game, rng, where)
        action = rng.choice(game.legal_actions())
        game.apply(action)
        status, view = server.request("POST", f"/v1/matches/{mid}/actions", action, tokens[seat])
        assert status == 200, (where, view)
        same_view(view, game.view(seat), where + " after")
        step += 1
    for seat in list(range(game.seats)) + [None]:
        token = tokens.get(seat)
        status, view = server.request("GET", f"/v1/matches/{mid}", token=token)
        same_view(view, game.view(seat), f"{variant} match {n} over, seat {seat}")
        status, history = server.request("GET", f"/v1/matches/{mid}/history", token=token)
        assert history == game.history(seat)
    assert view["scores"] == game.scores() and view["seed"] == seed
    assert step > refusal_at, "the refusal was checked"
    return step


@pytest.mark.parametrize("variant", b.VARIANTS)
def test_the_engine_and_the_server_agree_on_random_matches(server, variant):
    rng = random.Random(f"conformance-{variant}")
    steps = sum(play_one(server, rng, variant, n) for n in range(MATCHES))
    assert steps > 40 * MATCHES
