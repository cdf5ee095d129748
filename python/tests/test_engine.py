"""The engine from Python: seeds, refusals, views, clones, the action space,
the encoding, the batch, bots and the solver."""

import random

import numpy as np
import pytest

import botifarra as b


def play_random(game, rng):
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))


def test_a_seed_gives_the_same_deals_and_every_seed_form_agrees():
    hexseed = format(12345, "064x")
    games = [b.Game(seed=12345), b.Game(seed=hexseed), b.Game(seed=bytes.fromhex(hexseed))]
    for g in games:
        g.apply({"type": "deal"})
    hands = [g.view(g.turn)["hand"] for g in games]
    assert hands[0] == hands[1] == hands[2]
    assert len(hands[0]) == 12
    other = b.Game(seed=12346)
    other.apply({"type": "deal"})
    assert other.view(other.turn)["hand"] != hands[0] or other.turn != games[0].turn


def test_refusals_carry_the_servers_rule_code():
    g = b.Game(seed=1, first_dealer=0)
    with pytest.raises(b.RuleRefused) as e:
        g.apply({"type": "play", "card": "1O"})
    assert e.value.rule == "wrong_phase" and e.value.code == "wrong_phase"
    with pytest.raises(b.RuleRefused) as e:
        g.apply({"type": "deal"}, seat=2)
    assert e.value.rule == "not_your_turn"
    g.apply({"type": "deal", "seat": 0})
    with pytest.raises(b.RuleRefused) as e:
        g.apply({"type": "trump", "choice": "estevet"})
    assert e.value.rule == "estevet_only_in_abarrotada" and e.value.code == "illegal_move"
    with pytest.raises(b.InvalidRequest):
        g.apply({"type": "trump", "choice": "hearts"})
    with pytest.raises(b.InvalidRequest):
        b.Game(variant="whist")
    with pytest.raises(b.InvalidRequest):
        b.Game(forced=True, must_trump=True)


def test_a_card_not_held_is_refused_and_the_game_is_unchanged():
    g = b.Game(seed=2, first_dealer=0)
    g.apply(0)
    g.apply({"type": "trump", "choice": "O"})
    while g.phase == "doubling":
        g.apply({"type": "double", "call": "pass"})
    seat = g.turn
    held = set(g.view(seat)["hand"])
    missing = next(c for c in (a["card"] for a in map(b.action_of_id, range(1, 49))) if c not in held)
    before = g.to_json()
    with pytest.raises(b.RuleRefused) as e:
        g.apply({"type": "play", "card": missing})
    assert e.value.rule == "not_in_hand"
    assert g.to_json() == before


def test_views_hide_other_seats_cards_and_the_seed():
    g = b.Game(seed=3)
    g.apply(0)
    for seat in range(4):
        v = g.view(seat)
        assert v["you"] == seat and len(v["hand"]) == 12
        assert "seed" not in v
    assert "hand" not in g.view(None)


def test_clones_are_independent():
    rng = random.Random(4)
    g = b.Game(seed=4)
    g.apply(0)
    c = g.clone()
    play_random(c, rng)
    assert c.is_over() and not g.is_over()
    assert g.phase == "choosing_trump"


@pytest.mark.parametrize("variant", b.VARIANTS)
def test_random_matches_of_every_variant_end_with_a_winner(variant):
    rng = random.Random(5)
    for n in range(5):
        g = b.Game(seed=n, variant=variant, target=40)
        play_random(g, rng)
        v = g.view(0)
        assert v["phase"] == "match_over" and v["winner"] is not None
        assert max(g.scores()) >= 40 or v["winner"] == "draw"
        assert v["seed"] == g.seed


def test_action_ids_round_trip_and_masks_match_legal_actions():
    rng = random.Random(6)
    for variant in b.VARIANTS:
        g = b.Game(seed=6, variant=variant, max_hands=1)
        while not g.is_over():
            legal = g.legal_actions()
            ids = g.legal_action_ids()
            assert ids == sorted(b.action_id(a) for a in legal)
            assert [b.action_of_id(i) for i in ids] == sorted(legal, key=b.action_id)
            assert list(np.flatnonzero(g.legal_mask())) == ids
            g.apply(rng.choice(ids))


def test_the_observation_of_a_game_equals_the_encoding_of_its_view():
    rng = random.Random(7)
    for variant in b.VARIANTS:
        g = b.Game(seed=7, variant=variant, max_hands=2)
        steps = 0
        while not g.is_over():
            for seat in range(g.seats):
                obs = g.observation(seat)
                assert obs.shape == (b.OBSERVATION_SIZE,) and obs.dtype == np.float32
                np.testing.assert_array_equal(obs, b.encode_view(g.view(seat)))
            g.apply(rng.choice(g.legal_action_ids()))
            steps += 1
        assert steps > 40


def test_the_observation_holds_the_hand_and_the_trick():
    g = b.Game(seed=8, first_dealer=0, max_hands=1)
    g.apply(0)
    g.apply({"type": "trump", "choice": "botifarra"})
    while g.phase == "doubling":
        g.apply({"type": "double", "call": "pass"})
    leader = g.turn
    card = g.legal_actions()[0]["card"]
    g.apply({"type": "play", "card": card})
    cid = b.action_id({"type": "play", "card": card}) - 1
    nxt = g.turn
    obs = g.observation(nxt)
    held = [b.action_id({"type": "play", "card": c}) - 1 for c in g.view(nxt)["hand"]]
    assert obs[:48].sum() == 12 and all(obs[h] == 1 for h in held)
    rel = (leader - nxt) % 4
    assert obs[240 + 48 * rel + cid] == 1 and obs[240:432].sum() == 1
    assert obs[436 + 4] == 1  # botifarra


def test_a_batch_plays_whole_matches_and_rewards_sum_to_the_scores():
    batch = b.Batch(8, seed=9, max_hands=2)
    rng = np.random.default_rng(9)
    totals = np.zeros((8, 4))
    finished = []
    for _ in range(2000):
        obs, mask, turn = batch.observe()
        assert obs.shape == (8, b.OBSERVATION_SIZE) and mask.shape == (8, b.ACTION_SPACE)
        assert mask.any(axis=1).all() and not mask[:, 0].any()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        games = [batch.game(i) for i in range(8)]
        rewards, done = batch.step(actions)
        totals += rewards
        for i in np.flatnonzero(done):
            g = games[i]
            g.apply(int(actions[i]))
            assert g.is_over()
            seats = g.seats
            assert [totals[i][s] for s in range(seats)] == [g.scores()[g.side(s)] for s in range(seats)]
            finished.append(i)
            totals[i] = 0
    assert len(finished) > 10
    # A match ends after its second hand or on reaching the target sooner.
    assert 0 < batch.matches_played <= batch.hands_played <= 2 * batch.matches_played + 8


def test_a_batch_refuses_an_illegal_action_naming_the_game():
    batch = b.Batch(2, seed=10)
    _, mask, _ = batch.observe()
    bad = np.array([int(np.flatnonzero(mask[0])[0]), int(np.flatnonzero(~mask[1])[1])])
    with pytest.raises(b.RuleRefused) as e:
        batch.step(bad)
    assert e.value.game == 1


def test_batches_with_one_seed_are_identical():
    a, c = b.Batch(3, seed=11), b.Batch(3, seed=11)
    for _ in range(100):
        oa, ma, _ = a.observe()
        oc, mc, _ = c.observe()
        np.testing.assert_array_equal(oa, oc)
        act = ma.argmax(axis=1)
        a.step(act)
        c.step(act)


@pytest.mark.parametrize("level", ["random", "easy", "medium", "heuristic", "hard", "expert"])
def test_house_bots_choose_a_legal_action_from_a_view(level):
    g = b.Game(seed=12, variant="pairs", max_hands=1)
    g.apply(0)
    rng = random.Random(12)
    for step in range(12):
        v = g.view(g.turn)
        a = b.decide(level, v, seed=step)
        assert a in v["legal_actions"]
        g.apply(rng.choice(g.legal_actions()) if step % 2 else a)


def test_an_unknown_bot_is_refused():
    with pytest.raises(b.InvalidRequest):
        b.decide("grandmaster", b.Game(seed=1))


def test_the_solver_values_every_legal_card_at_the_end_of_a_hand():
    rng = random.Random(13)
    g = b.Game(seed=13, first_dealer=0, max_hands=1)
    while g.phase != "playing" or g.view(0)["hand_sizes"][0] > 3:
        g.apply(rng.choice(g.legal_actions()))
    values = g.solve()
    legal = [a["card"] for a in g.legal_actions()]
    assert sorted(values) == sorted(legal)
    # The best card's value is what best play from here gives the side.
    best = max(values.values())
    seat = g.turn
    side = g.side(seat)
    taken = g.view(0)["points_taken"][side]
    assert 0 <= best <= 72 + 12 - taken
    assert b.Game(seed=1).solve() is None


@pytest.mark.parametrize("level", ["random", "medium", "hard"])
def test_a_batch_asks_a_house_bot_for_every_game(level):
    batch = b.Batch(6, seed=14, variant="abarrotada")
    for step in range(30):
        _, mask, _ = batch.observe()
        ids = batch.decide(level, seed=step)
        assert ids.shape == (6,) and mask[np.arange(6), ids].all()
        assert (batch.decide(level, seed=step) == ids).all()
        batch.step(ids)
    with pytest.raises(b.InvalidRequest):
        batch.decide("grandmaster")


def test_step_sampled_draws_legal_actions_uniformly_or_by_the_logits():
    batch = b.Batch(64, seed=15, max_hands=1)
    twin = b.Batch(64, seed=15, max_hands=1)
    logits = np.zeros((64, b.ACTION_SPACE), np.float32)
    logits[:, 56] = 50.0  # contro whenever it is legal
    logits[:, 1:49] = np.linspace(0, 5, 48)  # the stronger card index
    contros = 0
    for step in range(300):
        _, mask, _ = batch.observe()
        actions, rewards, done = batch.step_sampled(logits if step % 2 else None, seed=step)
        assert mask[np.arange(64), actions].all()
        # The same draws applied as ids give the same games.
        r2, d2 = twin.step(actions)
        np.testing.assert_array_equal(rewards, r2)
        np.testing.assert_array_equal(done, d2)
        if step % 2:
            contros += int((mask[:, 56] & (actions == 56)).sum())
            assert ((actions == 56) == mask[:, 56]).all()
    assert contros > 0
    with pytest.raises(ValueError):
        batch.step_sampled(np.zeros((3, 60), np.float32))


def test_uniform_draws_cover_every_legal_action():
    batch = b.Batch(1, seed=16, first_dealer=0)
    _, mask, _ = batch.observe()
    legal = set(np.flatnonzero(mask[0]))
    seen = set()
    for seed in range(200):
        twin = b.Batch(1, seed=16, first_dealer=0)
        actions, _, _ = twin.step_sampled(seed=seed)
        seen.add(int(actions[0]))
    assert seen == legal and len(legal) >= 5
