//! The caps on pending invitations, under races: 64 challenges made at
//! once by one key (over two instances sharing one Redis) leave exactly
//! 50 pending, round after round; 64 players challenging one at once
//! leave exactly 50 waiting for it; throwaway accounts cannot bury a
//! player under more, and its list shows every pending one.

use std::sync::Arc;

use botifarra::lobby::store::Doc;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{
    Backend, Reply, TestApp, instances, lobby_over, lobby_store_for, spawn_lobby_app,
    spawn_service, unlimited,
};
use crate::backends::both_stores;
use crate::lobby_client::{PlayerKey, create_table_as, four_open, player_events, register};

async fn players(app: &TestApp, prefix: &str, n: usize) -> Vec<PlayerKey> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(register(app, &format!("{prefix}{i}"), "bot").await);
    }
    out
}

fn body(opponent: &str) -> Value {
    json!({"variant": "pairs", "opponents": [opponent], "fill_with": "random"})
}

/// Makes a challenge, retrying while the server answers `503 busy` (what
/// a client is told to do): the final answer.
async fn challenge(app: &TestApp, key: &str, body: Value) -> Reply {
    loop {
        let r = app.post("/v1/challenges", Some(key), body.clone()).await;
        if r.status != StatusCode::SERVICE_UNAVAILABLE {
            return r;
        }
    }
}

/// Fires every `(key, body)` at once, spread over `apps`: how many were
/// made, and the codes of the refusals.
async fn race(apps: &[TestApp], shots: Vec<(String, Value)>) -> (usize, Vec<String>) {
    let tasks: Vec<_> = shots
        .into_iter()
        .enumerate()
        .map(|(i, (key, body))| {
            let app = TestApp::external(apps[i % apps.len()].base.clone());
            tokio::spawn(async move { challenge(&app, &key, body).await })
        })
        .collect();
    let (mut made, mut codes) = (0, Vec::new());
    for t in tasks {
        let r = t.await.unwrap();
        match r.status {
            StatusCode::CREATED => made += 1,
            StatusCode::CONFLICT => codes.push(r.json["code"].as_str().unwrap().to_string()),
            other => panic!("unexpected {other}: {}", r.text),
        }
    }
    (made, codes)
}

/// `key`'s pending challenges: incoming and outgoing, and whether either
/// list has more pages.
async fn listed(app: &TestApp, key: &str) -> (usize, usize, bool) {
    let r = app.get("/v1/challenges", Some(key)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let more = !r.json["next_incoming"].is_null() || !r.json["next_outgoing"].is_null();
    (
        r.json["incoming"].as_array().unwrap().len(),
        r.json["outgoing"].as_array().unwrap().len(),
        more,
    )
}

async fn the_pending_cap_holds_at_fifty_in_every_round_of_64_racing_creates(backend: Backend) {
    let apps = instances(backend).await;
    // Four opponents, 16 challenges each a round: under their own cap.
    let opponents = players(&apps[0], "opponent", 4).await;
    let mut figures = Vec::new();
    for round in 0..3 {
        let me = register(&apps[0], &format!("racer{round}"), "bot").await;
        let shots = (0..64)
            .map(|i| (me.key.clone(), body(&opponents[i % 4].id)))
            .collect();
        let (made, codes) = race(&apps, shots).await;
        assert!(
            codes.iter().all(|c| c == "too_many_challenges"),
            "{codes:?}"
        );
        let (_, outgoing, more) = listed(&apps[apps.len() - 1], &me.key).await;
        figures.push((made, outgoing));
        assert_eq!((made, outgoing, more), (50, 50, false), "round {round}");
        // Cancelling every one frees every slot for the next round's
        // opponents.
        let list = apps[0].get("/v1/challenges", Some(&me.key)).await;
        for c in list.json["outgoing"].as_array().unwrap() {
            let id = c["challenge_id"].as_str().unwrap();
            let r = apps[0]
                .send(
                    reqwest::Method::DELETE,
                    &format!("/v1/challenges/{id}"),
                    Some(&me.key),
                    None,
                    &[],
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        let r = challenge(&apps[0], &me.key, body(&opponents[0].id)).await;
        assert_eq!(
            r.status,
            StatusCode::CREATED,
            "a slot is free again: {}",
            r.text
        );
    }
    eprintln!("{backend:?}: made and pending after 64 racing creates, by round: {figures:?}");
}

async fn one_player_receives_at_most_fifty_pending_even_from_racing_accounts(backend: Backend) {
    let apps = instances(backend).await;
    let victim = register(&apps[0], "victim", "human").await;
    let throwaway = players(&apps[0], "throwaway", 64).await;
    let shots = throwaway
        .iter()
        .map(|p| (p.key.clone(), body(&victim.id)))
        .collect();
    let (made, codes) = race(&apps, shots).await;
    assert!(codes.iter().all(|c| c == "inbox_full"), "{codes:?}");
    assert_eq!(made, 50, "made of 64 racing challenges to one player");
    let (incoming, _, more) = listed(&apps[apps.len() - 1], &victim.key).await;
    assert_eq!((incoming, more), (50, false), "every pending one is listed");
    eprintln!(
        "{backend:?}: 64 racing challenges to one player: {made} made, {} refused",
        codes.len()
    );

    // A reserved seat is an invitation too: refused while the inbox is
    // full, and nothing is made or told.
    let host = &throwaway[63];
    let seats = json!({"seats": [{"kind": "reserved", "player": victim.id}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]});
    let r = apps[0]
        .post("/v1/tables", Some(&host.key), four_open(seats.clone()))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "inbox_full");
    let told = player_events(&apps[0], &victim.key, 0, 0).await;
    assert!(
        told["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["type"] == "challenge_received"),
        "no invitation past the cap was told: {told}"
    );

    // Declining one makes room for exactly one more.
    let list = apps[0].get("/v1/challenges", Some(&victim.key)).await;
    let first = list.json["incoming"][0]["challenge_id"].as_str().unwrap();
    let r = apps[0]
        .post(
            &format!("/v1/challenges/{first}/decline"),
            Some(&victim.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let created = create_table_as(&apps[0], Some(&host.key), four_open(seats.clone())).await;
    assert_eq!(created["table"]["seats"][0]["kind"], "reserved");
    let r = apps[0]
        .post("/v1/tables", Some(&host.key), four_open(seats))
        .await;
    assert_eq!(r.json["code"], "inbox_full", "{}", r.text);
}

async fn a_list_cursor_no_list_gave_is_refused(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let p = register(&app, "lister", "bot").await;
    let r = app
        .get(
            "/v1/challenges?incoming_after=NOT%20A%20CURSOR",
            Some(&p.key),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.json["code"], "invalid_request");
    let r = app
        .get(
            "/v1/challenges?outgoing_after=000000000000000:ab",
            Some(&p.key),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["next_outgoing"], Value::Null);
}

/// Stores `n` pending challenges from `from` to `to` directly, as a store
/// written before the caps could hold them, listed as creation lists them.
async fn legacy_challenges(
    store: &dyn botifarra::lobby::store::LobbyStore,
    from: &PlayerKey,
    to: &PlayerKey,
    n: usize,
) -> Vec<String> {
    use botifarra::lobby::challenges::{
        ChallengeRecord, ChallengeRole, ChallengeSeat, ChallengeStatus,
    };
    use botifarra::lobby::records::{PlayerKind, SeatPlayer};
    let seat = |role, who: &PlayerKey, accepted| ChallengeSeat {
        role,
        player: Some(SeatPlayer {
            id: who.id.clone(),
            name: "x".into(),
            kind: PlayerKind::Bot,
        }),
        bot: "random".into(),
        accepted,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let mut ids = Vec::with_capacity(n);
    for i in 0..n as u64 {
        let id = hex::encode(botifarra::service::random_bytes::<12>().unwrap());
        let rec = ChallengeRecord {
            id: id.clone(),
            rules: botifarra::rating::rated_rules(botifarra::rules::Variant::Abarrotada3),
            rated: false,
            seed: "07".repeat(32),
            auto_deal: true,
            move_timeout_ms: None,
            on_timeout: botifarra::service::OnTimeout::Bot,
            seats: vec![
                seat(ChallengeRole::Challenger, from, true),
                seat(ChallengeRole::Opponent, to, false),
                ChallengeSeat {
                    role: ChallengeRole::Bot,
                    player: None,
                    bot: "random".into(),
                    accepted: true,
                },
            ],
            status: ChallengeStatus::Pending,
            declined_by: None,
            created_ms: now + i,
            expires_ms: now + 600_000,
            rematch_of: None,
        };
        let state = serde_json::to_string(&rec).unwrap();
        let ttl = Some(std::time::Duration::from_secs(600));
        assert!(
            store
                .insert(Doc::Challenge, &id, &state, ttl)
                .await
                .unwrap()
        );
        let entry = format!("{:015}:{id}", rec.created_ms);
        store
            .index_add(&format!("challenges:in:{}", to.id), &entry)
            .await
            .unwrap();
        ids.push(id);
    }
    ids
}

async fn every_pending_challenge_is_listed_a_page_at_a_time(backend: Backend) {
    let store = lobby_store_for(backend).await;
    let app = spawn_service(lobby_over(backend, Arc::clone(&store)).await, unlimited());
    let from = register(&app, "legacy", "bot").await;
    let to = register(&app, "buried", "human").await;
    let made = legacy_challenges(store.as_ref(), &from, &to, 130).await;
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    let mut path = "/v1/challenges".to_string();
    loop {
        let r = app.get(&path, Some(&to.key)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let page: Vec<String> = r.json["incoming"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["challenge_id"].as_str().unwrap().to_string())
            .collect();
        pages.push(page.len());
        seen.extend(page);
        match r.json["next_incoming"].as_str() {
            Some(next) => path = format!("/v1/challenges?incoming_after={next}"),
            None => break,
        }
    }
    assert_eq!(pages, [100, 30], "pages of the incoming list");
    assert_eq!(seen, made, "every pending one, oldest first, once");
}

both_stores!(
    the_pending_cap_holds_at_fifty_in_every_round_of_64_racing_creates,
    one_player_receives_at_most_fifty_pending_even_from_racing_accounts,
    a_list_cursor_no_list_gave_is_refused,
    every_pending_challenge_is_listed_a_page_at_a_time,
);
