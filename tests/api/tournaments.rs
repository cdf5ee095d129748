//! Tournaments, played by bot players through the API (on Redis through
//! two instances): a duplicate whose every table of a round played the
//! same deals and whose every matchpoint, difference and standing the test
//! recomputes from the travellers; a Swiss whose pairings follow the
//! documented rules (no repeat opponents where avoidable, byes rotating)
//! and whose scores and Buchholz the test recomputes; an arena whose
//! points (streaks doubled) the test recomputes; and the errors of
//! entering, withdrawing and starting.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, instances};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, play_to_end, player_events, register};

/// What one entrant heard on its stream.
#[derive(Debug, Default)]
pub(crate) struct Heard {
    pub(crate) rounds: Vec<u32>,
    pub(crate) byes: Vec<u32>,
    pub(crate) over: Option<Value>,
}

/// Makes a tournament as `owner`; returns its id.
pub(crate) async fn make(app: &TestApp, owner: &PlayerKey, body: Value) -> String {
    let r = app.post("/v1/tournaments", Some(&owner.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.json["tournament"]["id"].as_str().unwrap().to_string()
}

/// Registers `n` bot players, each through one of `apps` in turn.
pub(crate) async fn players(apps: &[TestApp], n: usize) -> Vec<PlayerKey> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(register(&apps[i % apps.len()], &format!("bot{i}"), "bot").await);
    }
    out
}

/// Every player enters `id` (through the instances in turn).
pub(crate) async fn enter_all(apps: &[TestApp], id: &str, who: &[PlayerKey]) {
    for (i, p) in who.iter().enumerate() {
        let r = apps[i % apps.len()]
            .post(
                &format!("/v1/tournaments/{id}/entries"),
                Some(&p.key),
                json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
}

/// A tournament made by a new player on `apps[0]` with `body`, entered by
/// `n` new bot players (through the instances in turn) and started at once
/// by its maker through the last instance; its id and the entrants.
pub(crate) async fn started(apps: &[TestApp], body: Value, n: usize) -> (String, Vec<PlayerKey>) {
    let owner = register(&apps[0], "director", "human").await;
    let tid = make(&apps[0], &owner, body).await;
    let who = players(apps, n).await;
    enter_all(apps, &tid, &who).await;
    let r = apps[apps.len() - 1]
        .post(
            &format!("/v1/tournaments/{tid}/start"),
            Some(&owner.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    (tid, who)
}

/// How long a player of [`play_all`] may take to hear its tournament end
/// before the test fails (a lost `round_started` would otherwise leave
/// it waiting on the move clocks for about an hour).
const PLAY_DEADLINE: Duration = Duration::from_secs(600);

/// Each player, in a task of its own, plays every match its stream names
/// (`round_started`) until it hears `tournament_over`, within
/// [`PLAY_DEADLINE`].
pub(crate) async fn play_all(apps: &[TestApp], tid: &str, who: &[PlayerKey]) -> Vec<Heard> {
    let tasks: Vec<_> = who
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let app = TestApp::external(apps[i % apps.len()].base.clone());
            let (key, tid) = (p.key.clone(), tid.to_string());
            tokio::spawn(async move {
                let played = tokio::time::timeout(PLAY_DEADLINE, play_one(&app, &key, &tid)).await;
                played.unwrap_or_else(|_| {
                    panic!("player {i} did not hear the end in {PLAY_DEADLINE:?}")
                })
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// One player of [`play_all`].
async fn play_one(app: &TestApp, key: &str, tid: &str) -> Heard {
    let mut heard = Heard::default();
    let mut after = 0;
    for _ in 0..2000 {
        let page = player_events(app, key, after, 2000).await;
        after = page["last_seq"].as_u64().unwrap_or(after);
        for e in page["events"].as_array().unwrap() {
            if e["tournament_id"] != tid {
                continue;
            }
            match e["type"].as_str().unwrap() {
                "round_started" => {
                    let round = e["round"].as_u64().unwrap() as u32;
                    match e["match_id"].as_str() {
                        Some(m) => {
                            heard.rounds.push(round);
                            play_to_end(app, m, key).await;
                        }
                        None => heard.byes.push(round),
                    }
                }
                "tournament_over" => {
                    heard.over = Some(e.clone());
                    return heard;
                }
                other => panic!("unexpected tournament event {other}"),
            }
        }
    }
    panic!("the tournament did not end for {key}");
}

pub(crate) async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path, None).await;
    assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.text);
    r.json
}

/// The tournament's units' players, by unit.
fn unit_players(t: &Value) -> Vec<Vec<String>> {
    t["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            u["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// The winning sides of a table's result.
fn winners_of(result: &Value) -> Vec<u64> {
    result["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// The duplicate tournament of the issue: 16 bot players drawn into 8
/// partnerships, 3 rounds of 4 boards, on two instances over Redis.
async fn duplicate_of_sixteen(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Duplicat", "variant": "pairs", "format": "duplicate",
               "rounds": 3, "boards": 4, "starts_in_s": 3600}),
        16,
    )
    .await;
    // While the round is played, nobody may find another table's boards.
    let mut hidden = Value::Null;
    for _ in 0..200 {
        let r = apps[0]
            .get(&format!("/v1/tournaments/{tid}/rounds/1"), None)
            .await;
        if r.status == StatusCode::OK {
            hidden = r.json;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let tables = hidden["tables"].as_array().expect("round 1 paired");
    assert_eq!(tables.len(), 4);
    assert!(
        tables
            .iter()
            .all(|t| t["match_id"].is_null() && t["result"].is_null())
    );
    assert!(hidden["boards"].as_array().unwrap().is_empty());
    let heard = play_all(&apps, &tid, &who).await;
    for h in &heard {
        assert_eq!(h.rounds, vec![1, 2, 3], "every entrant heard every round");
        assert_eq!(h.over.as_ref().unwrap()["status"], "over");
    }
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    assert_eq!(t["status"], "over");
    assert_eq!(t["units"].as_array().unwrap().len(), 8);
    let mut percent: HashMap<u64, (f64, u32, f64)> = HashMap::new();
    for n in 1..=3 {
        let round = get(&apps[0], &format!("/v1/tournaments/{tid}/rounds/{n}")).await;
        check_same_deals(&apps[0], &round).await;
        for board in round["boards"].as_array().unwrap() {
            check_traveller(board, &mut percent);
        }
    }
    // The standings: the mean percentage of each unit, best first.
    let mut expected: Vec<(u64, f64, f64)> = percent
        .iter()
        .map(|(&u, &(sum, n, diff))| (u, sum / f64::from(n), diff))
        .collect();
    expected.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let standings = t["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8);
    for (line, want) in standings.iter().zip(&expected) {
        assert!(
            (f(&line["score"]) - want.1).abs() < 1e-9,
            "{line} vs {want:?}"
        );
        assert!(
            (f(&line["tiebreak"]) - want.2).abs() < 1e-9,
            "{line} vs {want:?}"
        );
        assert_eq!(line["played"], 12);
    }
    let seed = t["seed"].as_str().expect("the seed, once over");
    assert_eq!(seed.len(), 64);
}

/// Every table of `round` played the same deals: each hand's dealt cards
/// (revealed at the end) are the same at every table.
async fn check_same_deals(app: &TestApp, round: &Value) {
    let mut deals = BTreeSet::new();
    for t in round["tables"].as_array().unwrap() {
        let id = t["match_id"]
            .as_str()
            .expect("shown once the round is done");
        let h = get(app, &format!("/v1/matches/{id}/history")).await;
        let hands: Vec<Value> = h["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|hand| hand["dealt"].clone())
            .collect();
        assert_eq!(hands.len(), 4, "four boards");
        assert!(hands.iter().all(|d| d[0].is_array()), "revealed at the end");
        deals.insert(serde_json::to_string(&hands).unwrap());
    }
    assert_eq!(deals.len(), 1, "every table played the same deals");
}

/// Recomputes every line of a board's traveller from the recorded points,
/// and adds each side's percentage and difference to its unit's totals.
fn check_traveller(board: &Value, totals: &mut HashMap<u64, (f64, u32, f64)>) {
    let rows = board["traveller"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "four tables played each board");
    let net = |row: &Value, side: usize| {
        let r = row["recorded"].as_array().unwrap();
        let (a, b) = (r[side].as_i64().unwrap(), r[1 - side].as_i64().unwrap());
        a - b
    };
    for side in 0..2 {
        for (i, row) in rows.iter().enumerate() {
            let mine = net(row, side);
            let others: Vec<i64> = rows
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, o)| net(o, side))
                .collect();
            let mp: i64 = others
                .iter()
                .map(|&o| match mine.cmp(&o) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum();
            let diff = others.iter().map(|&o| (mine - o) as f64).sum::<f64>() / 3.0;
            let s = &row["sides"][side];
            assert_eq!(s["net"], mine);
            assert_eq!(s["matchpoints"], mp);
            assert_eq!(s["top"], 6);
            assert!((f(&s["percent"]) - 100.0 * mp as f64 / 6.0).abs() < 1e-9);
            assert!((f(&s["difference"]) - diff).abs() < 1e-9);
            let unit = row["units"][side].as_u64().unwrap();
            let e = totals.entry(unit).or_default();
            e.0 += 100.0 * mp as f64 / 6.0;
            e.1 += 1;
            e.2 += diff;
        }
    }
}

/// A Swiss of 24 bot entrants (12 drawn partnerships) over 4 rounds of one
/// hand each: no two units meet twice, every unit plays every round, and
/// the scores and Buchholz equal the test's.
async fn swiss_of_twenty_four(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Suís", "variant": "pairs", "format": "swiss", "rounds": 4,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        24,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    assert!(heard.iter().all(|h| h.rounds == vec![1, 2, 3, 4]));
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    assert_eq!(unit_players(&t).len(), 12);
    check_swiss(&apps[0], &tid, &t, 4).await;
}

/// A Swiss of 10 entrants (5 partnerships) over 4 rounds: one bye a round,
/// never twice to the same unit, and no repeat opponents.
async fn swiss_with_byes(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Suís petit", "variant": "pairs", "format": "swiss", "rounds": 4,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        10,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    let byes: usize = heard.iter().map(|h| h.byes.len()).sum();
    assert_eq!(
        byes,
        4 * 2,
        "one partnership (two players) sits out each round"
    );
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    check_swiss(&apps[0], &tid, &t, 4).await;
}

/// Checks a finished Swiss: no pair of units met twice, byes went to
/// different units, every unit played or had a bye each round, and each
/// unit's score (1 a win, ½ a draw, 1 a bye), Buchholz and points
/// difference equal the test's.
async fn check_swiss(app: &TestApp, tid: &str, t: &Value, rounds: u32) {
    let units = unit_players(t).len();
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    let mut score = vec![0.0; units];
    let mut diff = vec![0.0; units];
    let mut opponents: Vec<Vec<usize>> = vec![Vec::new(); units];
    for n in 1..=rounds {
        let round = get(app, &format!("/v1/tournaments/{tid}/rounds/{n}")).await;
        let mut seen = HashSet::new();
        for b in round["byes"].as_array().unwrap() {
            let u = b.as_u64().unwrap() as usize;
            assert!(byes.insert(u), "unit {u} had a second bye");
            score[u] += 1.0;
            seen.insert(u);
        }
        for table in round["tables"].as_array().unwrap() {
            let (a, b) = (
                table["units"][0].as_u64().unwrap() as usize,
                table["units"][1].as_u64().unwrap() as usize,
            );
            assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
            assert!(seen.insert(a) && seen.insert(b));
            let r = &table["result"];
            let winners = winners_of(r);
            let s = |side: usize| r["scores"][side].as_f64().unwrap();
            for (side, u) in [(0, a), (1, b)] {
                score[u] += if winners.contains(&(side as u64)) {
                    1.0 / winners.len() as f64
                } else {
                    0.0
                };
                diff[u] += s(side) - s(1 - side);
            }
            opponents[a].push(b);
            opponents[b].push(a);
        }
        assert_eq!(seen.len(), units, "every unit plays or sits out round {n}");
    }
    for line in t["standings"].as_array().unwrap() {
        let u = line["unit"].as_u64().unwrap() as usize;
        let buchholz: f64 = opponents[u].iter().map(|&o| score[o]).sum();
        assert_eq!(f(&line["score"]), score[u], "{line}");
        assert_eq!(f(&line["tiebreak"]), buchholz, "{line}");
        assert_eq!(f(&line["points_difference"]), diff[u], "{line}");
    }
    let ranked: Vec<(f64, f64)> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (f(&l["score"]), f(&l["tiebreak"])))
        .collect();
    assert!(
        ranked.windows(2).all(|w| w[0] >= w[1]),
        "ranked by score then Buchholz"
    );
}

/// An arena of a few seconds (8 entrants, 4 partnerships, one hand a
/// game): every game finished counts, and each unit's points (2 a win, 1
/// a draw, doubled after two wins in a row) equal the test's.
async fn short_arena(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Arena", "variant": "pairs", "format": "arena", "duration_s": 4,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        8,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    assert!(heard.iter().all(|h| !h.rounds.is_empty()));
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    let units = unit_players(&t).len();
    let mut points = vec![0.0; units];
    let mut streak = vec![0u32; units];
    for summary in t["round_list"].as_array().unwrap() {
        let n = summary["number"].as_u64().unwrap();
        let round = get(&apps[0], &format!("/v1/tournaments/{tid}/rounds/{n}")).await;
        for table in round["tables"].as_array().unwrap() {
            let winners = winners_of(&table["result"]);
            for side in 0..2 {
                let u = table["units"][side].as_u64().unwrap() as usize;
                let share = if winners.contains(&(side as u64)) {
                    1.0 / winners.len() as f64
                } else {
                    0.0
                };
                let fire = if streak[u] >= 2 { 2.0 } else { 1.0 };
                points[u] += 2.0 * share * fire;
                streak[u] = if share >= 1.0 { streak[u] + 1 } else { 0 };
            }
        }
    }
    let total_games: u64 = t["round_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tables"].as_u64().unwrap())
        .sum();
    assert!(total_games >= 2, "the arena re-paired units that finished");
    for line in t["standings"].as_array().unwrap() {
        let u = line["unit"].as_u64().unwrap() as usize;
        assert_eq!(f(&line["score"]), points[u], "{line}");
        assert_eq!(f(&line["tiebreak"]), f64::from(streak[u]), "{line}");
    }
}

/// A Swiss of an individual variant: 7 entrants of abarrotada3 (three
/// seats a table) over 3 rounds: two tables and one bye a round, the bye
/// never twice to one player, every entrant seated or sitting out each
/// round, and each score (1 a win, split on equal totals, 1 a bye) the
/// test's.
async fn individual_swiss(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Abarrotada", "variant": "abarrotada3", "format": "swiss", "rounds": 3,
               "rules": {"variant": "abarrotada3", "max_hands": 1}, "starts_in_s": 3600}),
        7,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    assert_eq!(heard.iter().map(|h| h.byes.len()).sum::<usize>(), 3);
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    let units = unit_players(&t).len();
    assert_eq!(units, 7);
    let mut score = vec![0.0; units];
    let mut byes = HashSet::new();
    for n in 1..=3 {
        let round = get(&apps[0], &format!("/v1/tournaments/{tid}/rounds/{n}")).await;
        let mut seen = HashSet::new();
        for b in round["byes"].as_array().unwrap() {
            let u = b.as_u64().unwrap() as usize;
            assert!(byes.insert(u), "unit {u} had a second bye");
            assert!(seen.insert(u));
            score[u] += 1.0;
        }
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 2);
        for table in tables {
            let r = &table["result"];
            let winners = winners_of(r);
            for (seat, u) in table["units"].as_array().unwrap().iter().enumerate() {
                let u = u.as_u64().unwrap() as usize;
                assert!(seen.insert(u), "unit {u} seated twice in round {n}");
                if winners.contains(&(seat as u64)) {
                    score[u] += 1.0 / winners.len() as f64;
                }
            }
        }
        assert_eq!(seen.len(), units);
    }
    for line in t["standings"].as_array().unwrap() {
        let u = line["unit"].as_u64().unwrap() as usize;
        assert_eq!(f(&line["score"]), score[u], "{line}");
    }
}

/// A running arena takes late entries: two players entering after the
/// start (partners drawn) form a partnership that is paired and plays.
/// Six players start it (three partnerships: two play, one waits), so the
/// late partnership finds a partnership waiting and is paired at once,
/// however long the first games take.
async fn late_entries_in_an_arena(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, first) = started(
        &apps,
        json!({"name": "Arena oberta", "variant": "pairs", "format": "arena", "duration_s": 8,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        6,
    )
    .await;
    let late = players(&apps, 2).await;
    let everyone: Vec<PlayerKey> = first.iter().chain(&late).cloned().collect();
    let clones: Vec<TestApp> = apps
        .iter()
        .map(|a| TestApp::external(a.base.clone()))
        .collect();
    let tid2 = tid.clone();
    let play = tokio::spawn(async move { play_all(&clones, &tid2, &everyone).await });
    for _ in 0..200 {
        if get(&apps[0], &format!("/v1/tournaments/{tid}")).await["status"] == "running" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    enter_all(&apps, &tid, &late).await;
    let heard = play.await.unwrap();
    assert!(
        heard[6..].iter().all(|h| !h.rounds.is_empty()),
        "the late partnership played"
    );
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    let units = unit_players(&t);
    assert_eq!(units.len(), 4);
    let late_ids: HashSet<&String> = late.iter().map(|p| &p.id).collect();
    assert!(units[3].iter().all(|p| late_ids.contains(p)), "{units:?}");
}

/// A rated Swiss of one round (8 entrants, standard rules): every match
/// is rated, and each entrant's rating history holds exactly one entry,
/// its match's.
async fn rated_swiss_rates_each_match_once(backend: Backend) {
    let apps = instances(backend).await;
    let (tid, who) = started(
        &apps,
        json!({"name": "Puntuable", "variant": "pairs", "format": "swiss", "rounds": 1,
               "rated": true, "starts_in_s": 3600}),
        8,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    assert!(heard.iter().all(|h| h.rounds == vec![1]));
    let round = get(&apps[0], &format!("/v1/tournaments/{tid}/rounds/1")).await;
    let matches: HashSet<String> = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["match_id"].as_str().unwrap().to_string())
        .collect();
    for p in &who {
        let mut history = Value::Null;
        for _ in 0..100 {
            let r = get(&apps[0], &format!("/v1/players/{}/ratings", p.id)).await;
            history = r["pools"][0]["history"].clone();
            if history.as_array().is_some_and(|h| !h.is_empty()) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let history = history.as_array().expect("a rating history");
        assert_eq!(history.len(), 1, "{history:?}");
        let m = history[0]["match_id"].as_str().unwrap();
        assert!(matches.contains(m), "rated for its tournament match");
    }
}

/// Entering, withdrawing and starting, refused as documented and changing
/// nothing; a duplicate round hides its tables until it is done.
async fn entries_and_refusals(backend: Backend) {
    let apps = instances(backend).await;
    let app = &apps[0];
    let owner = register(app, "director", "human").await;
    let a = register(app, "anna", "bot").await;
    let r = app
        .post(
            "/v1/tournaments",
            Some(&owner.key),
            json!({"name": "x", "variant": "pairs", "format": "duplicate", "rated": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let r = app
        .post(
            "/v1/tournaments",
            Some(&owner.key),
            json!({"name": "Privat", "variant": "abarrotada", "format": "swiss", "private": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    let code = r.json["code"].as_str().unwrap().to_string();
    let tid = r.json["tournament"]["id"].as_str().unwrap().to_string();
    let entries = format!("/v1/tournaments/{tid}/entries");
    let r = app.post(&entries, Some(&a.key), json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text);
    let r = app
        .post(
            &entries,
            Some(&a.key),
            json!({"partner": owner.id, "code": code}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "no partners in abarrotada: {}",
        r.text
    );
    let r = app
        .post(&entries, Some(&a.key), json!({"code": code}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .post(&entries, Some(&a.key), json!({"code": code}))
        .await;
    assert_eq!(r.json["code"], "tournament_closed", "{}", r.text);
    let r = app
        .post(
            &format!("/v1/tournaments/{tid}/start"),
            Some(&a.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = app
        .send(
            reqwest::Method::DELETE,
            &format!("{entries}/me"),
            Some(&a.key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.json["entries"].as_array().unwrap().is_empty());
    let listed = get(app, "/v1/tournaments?limit=100").await;
    assert!(
        listed["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != tid.as_str()),
        "private ones are not listed"
    );
    // One entrant only: the start cancels it, and the entrant hears so.
    app.post(&entries, Some(&a.key), json!({"code": code}))
        .await;
    app.post(
        &format!("/v1/tournaments/{tid}/start"),
        Some(&owner.key),
        json!({}),
    )
    .await;
    let heard = play_all(&apps, &tid, std::slice::from_ref(&a)).await;
    assert_eq!(heard[0].over.as_ref().unwrap()["status"], "cancelled");
    let r = app
        .post(&entries, Some(&a.key), json!({"code": code}))
        .await;
    assert_eq!(r.json["code"], "tournament_closed");
    let r = app
        .get("/v1/tournaments/tffffffffffffffffffffffff", None)
        .await;
    assert_eq!(r.json["code"], "tournament_not_found");
}

both_stores!(
    duplicate_of_sixteen,
    swiss_of_twenty_four,
    swiss_with_byes,
    short_arena,
    rated_swiss_rates_each_match_once,
    individual_swiss,
    late_entries_in_an_arena,
    entries_and_refusals
);
