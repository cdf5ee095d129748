//! Fair play in the queue (issue 27), each on memory and on Redis (two
//! instances on one Redis where it is a race), every test over a lobby
//! store of its own (a private `redis-server` on Redis) so that no other
//! test's tickets share its pools:
//!
//! - the griefing loop (a stranger queueing a victim as its partner, with
//!   house bots at once, to lose rated matches for both) is refused: the
//!   victim's rating is untouched, it can always queue, and no answer
//!   shows it a ticket id that is not its own;
//! - a party both keys confirm is matched and seated opposite; declining
//!   and cancelling close it, and are heard;
//! - racing enqueues by one key leave exactly one waiting ticket, and
//!   racing acceptances of one party queue it once;
//! - tickets that cannot match anyone cost a pass nothing (the pass's
//!   count of tickets read), and make no pool due before their expiry;
//! - a full pool refuses a ticket with `507 queue_full`, queueing nothing.

use std::sync::Arc;

use botifarra::lobby::queue::{Enqueue, Shard, TicketStatus};
use botifarra::lobby::records::PlayerKind;
use botifarra::lobby::store::{Doc, LobbyStore, MemoryLobbyStore, RedisLobbyStore};
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rules::Variant;
use botifarra::service::{Limits, Service, clock_now_ms};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_service, store_for, unlimited};
use crate::backends::both_stores;
use crate::backends::redis::RedisProcess;
use crate::lobby_client::{player_events, register};
use crate::queue::party_queue;

/// Server instances (one on memory, two on Redis) over one lobby store
/// of their own, and their lobbies.
struct Fleet {
    apps: Vec<TestApp>,
    lobbies: Vec<Lobby>,
    _redis: Option<RedisProcess>,
}

async fn fleet(backend: Backend, limits: Limits) -> Fleet {
    let redis = (backend != Backend::Memory).then(RedisProcess::start);
    let memory: Arc<dyn LobbyStore> = Arc::new(MemoryLobbyStore::new());
    let (mut apps, mut lobbies) = (Vec::new(), Vec::new());
    for _ in 0..if redis.is_some() { 2 } else { 1 } {
        let store: Arc<dyn LobbyStore> = match &redis {
            Some(r) => Arc::new(RedisLobbyStore::connect(&r.url()).await.unwrap()),
            None => Arc::clone(&memory),
        };
        let svc = Service::new(store_for(backend, None).await, limits.clone()).unwrap();
        let lobby = Lobby::new(svc, store);
        lobbies.push(lobby.clone());
        apps.push(spawn_service(lobby, unlimited()));
    }
    Fleet {
        apps,
        lobbies,
        _redis: redis,
    }
}

/// The types of the events on `key`'s stream, with their bodies.
async fn events(app: &TestApp, key: &str) -> Vec<Value> {
    player_events(app, key, 0, 0).await["events"]
        .as_array()
        .unwrap()
        .clone()
}

fn of_type<'a>(events: &'a [Value], t: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == t).collect()
}

/// Every ticket or party id (`q…`, `y…` and 24 hex digits) in `text`.
fn ids_in(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(24))
        .filter(|&i| {
            (b[i] == b'q' || b[i] == b'y')
                && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
                && b[i + 1..i + 25].iter().all(|c| c.is_ascii_hexdigit())
        })
        .map(|i| text[i..i + 25].to_string())
        .collect()
}

async fn a_stranger_cannot_queue_a_player_and_the_victim_keeps_its_queue(backend: Backend) {
    let f = fleet(backend, Limits::default()).await;
    let app = &f.apps[0];
    let stranger = register(app, "stranger", "human").await;
    let victim = register(app, "victim", "human").await;
    // The griefing loop: each attempt is refused, and queues nobody.
    let grief =
        json!({"variant": "pairs", "partner": victim.id, "fill_with_house_bots_after_s": 0});
    for _ in 0..5 {
        let r = app
            .post("/v1/queue", Some(&stranger.key), grief.clone())
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
        assert_eq!(r.json["code"], "invalid_request");
        assert!(r.text.contains("/v1/queue/parties"), "{}", r.text);
    }
    // A party the victim never accepts queues nothing and holds nobody.
    let r = app
        .post("/v1/queue/parties", Some(&stranger.key), grief.clone())
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["status"], "pending");
    let party = r.json["party_id"].as_str().unwrap().to_string();
    let heard = events(app, &victim.key).await;
    let invited = of_type(&heard, "party_invited");
    assert_eq!(invited.len(), 1, "{heard:?}");
    assert_eq!(invited[0]["from"]["id"], stranger.id.as_str());
    assert_eq!(invited[0]["party_id"], party.as_str());
    let r = app
        .post(
            &format!("/v1/queue/parties/{party}/accept"),
            Some(&stranger.key),
            json!({}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "only the invited accepts: {}",
        r.text
    );
    // The victim queues on its own meanwhile; a second try names its own
    // ticket, and no other.
    let r = app
        .post(
            "/v1/queue",
            Some(&victim.key),
            json!({"variant": "abarrotada3"}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "a pending party blocks nobody: {}",
        r.text
    );
    let own = r.json["ticket_id"].as_str().unwrap().to_string();
    let r = app
        .post("/v1/queue", Some(&victim.key), json!({"variant": "pairs"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "already_queued");
    assert_eq!(ids_in(&r.text), vec![own.clone()], "{}", r.text);
    // Accepting while waiting is refused the same way; the party stays.
    let accept = format!("/v1/queue/parties/{party}/accept");
    let r = app.post(&accept, Some(&victim.key), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(ids_in(&r.text), vec![own.clone()], "{}", r.text);
    let r = app
        .send(
            Method::DELETE,
            &format!("/v1/queue/{own}"),
            Some(&victim.key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The stranger waits itself: the victim's acceptance is refused
    // without showing the stranger's ticket.
    let r = app
        .post(
            "/v1/queue",
            Some(&stranger.key),
            json!({"variant": "abarrotada3", "accept_bots": false}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let theirs = r.json["ticket_id"].as_str().unwrap().to_string();
    let r = app.post(&accept, Some(&victim.key), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "already_queued");
    assert!(
        !r.text.contains(&theirs) && ids_in(&r.text).is_empty(),
        "{}",
        r.text
    );
    let r = app
        .get(&format!("/v1/queue/{theirs}"), Some(&victim.key))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // The victim declines: the stranger hears it; the party is closed.
    let r = app
        .post(
            &format!("/v1/queue/parties/{party}/decline"),
            Some(&victim.key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "declined");
    let heard = events(app, &stranger.key).await;
    assert_eq!(of_type(&heard, "party_declined").len(), 1, "{heard:?}");
    let r = app.post(&accept, Some(&victim.key), json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "party_closed");
    // An outsider learns nothing of the party.
    let other = register(app, "other", "human").await;
    let r = app
        .get(&format!("/v1/queue/parties/{party}"), Some(&other.key))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json["code"], "party_not_found");
    // The victim was never seated: no rated match, no rating moved.
    let r = app
        .get(&format!("/v1/players/{}/ratings", victim.id), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["pools"], json!([]), "{}", r.text);
    let r = app
        .post("/v1/queue", Some(&victim.key), json!({"variant": "pairs"}))
        .await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "the victim still queues: {}",
        r.text
    );
}

async fn a_party_both_keys_confirm_is_matched_and_seated_opposite(backend: Backend) {
    let f = fleet(backend, Limits::default()).await;
    let (a, b) = (&f.apps[0], &f.apps[f.apps.len() - 1]);
    let p: Vec<_> = futures_join(a, &["lead", "mate", "s1", "s2"]).await;
    let r = party_queue(b, &p[0].key, &p[1], json!({"variant": "pairs"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["player"], p[0].id.as_str());
    assert_eq!(r.json["partner"], p[1].id.as_str());
    assert_eq!(r.json["status"], "waiting");
    let ticket = r.json["ticket_id"].as_str().unwrap().to_string();
    let heard = events(a, &p[0].key).await;
    let accepted = of_type(&heard, "party_accepted");
    assert_eq!(accepted.len(), 1, "{heard:?}");
    assert_eq!(accepted[0]["ticket_id"], ticket.as_str());
    for s in &p[2..] {
        let r = a
            .post("/v1/queue", Some(&s.key), json!({"variant": "pairs"}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let mut t = Value::Null;
    for _ in 0..20 {
        t = b
            .get(&format!("/v1/queue/{ticket}?wait_ms=2000"), Some(&p[1].key))
            .await
            .json;
        if t["status"] != "waiting" {
            break;
        }
    }
    assert_eq!(t["status"], "matched", "{t}");
    let (seat, partner_seat) = (
        t["seat"].as_u64().unwrap(),
        t["partner_seat"].as_u64().unwrap(),
    );
    assert_eq!((seat + 2) % 4, partner_seat, "a party sits opposite");
    let m = t["match_id"].as_str().unwrap();
    let view = a.get(&format!("/v1/matches/{m}"), None).await;
    let seats = view.json["seats"].as_array().unwrap();
    assert_eq!(seats[seat as usize]["player"]["id"], p[0].id.as_str());
    assert_eq!(
        seats[partner_seat as usize]["player"]["id"],
        p[1].id.as_str()
    );
    // A party cancelled by its leader is heard, and cannot be accepted.
    let r = a
        .post(
            "/v1/queue/parties",
            Some(&p[2].key),
            json!({"variant": "pairs", "partner": p[3].id}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let party = r.json["party_id"].as_str().unwrap().to_string();
    let r = b
        .send(
            Method::DELETE,
            &format!("/v1/queue/parties/{party}"),
            Some(&p[3].key),
            None,
            &[],
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "the partner declines instead: {}",
        r.text
    );
    let r = b
        .send(
            Method::DELETE,
            &format!("/v1/queue/parties/{party}"),
            Some(&p[2].key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["status"], "cancelled");
    assert_eq!(
        of_type(&events(a, &p[3].key).await, "party_cancelled").len(),
        1
    );
    let r = a
        .post(
            &format!("/v1/queue/parties/{party}/accept"),
            Some(&p[3].key),
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert_eq!(r.json["code"], "party_closed");
    // Bad proposals: not the pairs game, oneself, nobody.
    for body in [
        json!({"variant": "abarrotada", "partner": p[3].id}),
        json!({"variant": "pairs", "partner": p[2].id}),
        json!({"variant": "pairs"}),
    ] {
        let r = a
            .post("/v1/queue/parties", Some(&p[2].key), body.clone())
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.text);
    }
    let r = a
        .post(
            "/v1/queue/parties",
            Some(&p[2].key),
            json!({"variant": "pairs", "partner": "p000000000000000000000000"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
}

/// Registers bot players named `names`.
async fn futures_join(app: &TestApp, names: &[&str]) -> Vec<crate::lobby_client::PlayerKey> {
    let mut out = Vec::new();
    for n in names {
        out.push(register(app, n, "bot").await);
    }
    out
}

async fn racing_enqueues_by_one_key_leave_exactly_one_waiting_ticket(backend: Backend) {
    let f = fleet(backend, Limits::default()).await;
    let p = register(&f.apps[0], "racer", "human").await;
    for round in 0..4 {
        let tasks: Vec<_> = (0..24)
            .map(|n| {
                let app = TestApp::external(f.apps[n % f.apps.len()].base.clone());
                let key = p.key.clone();
                tokio::spawn(async move {
                    let body = json!({"variant": "abarrotada3", "accept_bots": false});
                    app.post("/v1/queue", Some(&key), body).await
                })
            })
            .collect();
        let (mut made, mut refused) = (Vec::new(), Vec::new());
        for t in tasks {
            let r = t.await.unwrap();
            match r.status {
                StatusCode::CREATED => made.push(r.json["ticket_id"].as_str().unwrap().to_string()),
                StatusCode::CONFLICT => refused.push(r),
                s => panic!("round {round}: {s} {}", r.text),
            }
        }
        assert_eq!(made.len(), 1, "round {round}: exactly one ticket queued");
        for r in &refused {
            assert_eq!(r.json["code"], "already_queued");
            assert_eq!(
                ids_in(&r.text),
                made,
                "only the player's own ticket: {}",
                r.text
            );
        }
        let report = f.lobbies[0].pass(Variant::Abarrotada3, true).await.unwrap();
        assert_eq!(
            report.waiting, 1,
            "round {round}: one waiting ticket in the pool"
        );
        let r = f.apps[0]
            .send(
                Method::DELETE,
                &format!("/v1/queue/{}", made[0]),
                Some(&p.key),
                None,
                &[],
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
}

async fn racing_acceptances_of_one_party_queue_one_ticket(backend: Backend) {
    let f = fleet(backend, Limits::default()).await;
    let p = futures_join(&f.apps[0], &["lead", "mate"]).await;
    let body = json!({"variant": "pairs", "partner": p[1].id, "accept_bots": false});
    let r = f.apps[0]
        .post("/v1/queue/parties", Some(&p[0].key), body)
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let party = r.json["party_id"].as_str().unwrap().to_string();
    let tasks: Vec<_> = (0..16)
        .map(|n| {
            let app = TestApp::external(f.apps[n % f.apps.len()].base.clone());
            let (key, url) = (
                p[1].key.clone(),
                format!("/v1/queue/parties/{party}/accept"),
            );
            tokio::spawn(async move { app.post(&url, Some(&key), json!({})).await })
        })
        .collect();
    let mut made = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        match r.status {
            StatusCode::CREATED => made.push(r.json["ticket_id"].as_str().unwrap().to_string()),
            StatusCode::CONFLICT => assert_eq!(r.json["code"], "party_closed", "{}", r.text),
            s => panic!("{s} {}", r.text),
        }
    }
    assert_eq!(made.len(), 1, "the party is queued once");
    let r = f.apps[0]
        .get(&format!("/v1/queue/parties/{party}"), Some(&p[0].key))
        .await;
    assert_eq!(r.json["status"], "accepted");
    assert_eq!(r.json["ticket_id"], made[0].as_str());
    let report = f.lobbies[0].pass(Variant::Pairs, true).await.unwrap();
    assert_eq!(report.waiting, 1, "one pair ticket waits");
}

fn only_bots(variant: Variant) -> Enqueue {
    Enqueue {
        variant,
        rated: true,
        partner: None,
        accept_bots: true,
        only_bots: true,
        fill_with_house_bots_after_s: None,
        fill_level: None,
        expires_in_s: Some(600),
    }
}

async fn tickets_that_cannot_match_anyone_cost_a_pass_nothing(backend: Backend) {
    let f = fleet(backend, Limits::default()).await;
    let lobby = &f.lobbies[0];
    let register = |name: String, kind| async move {
        let r = lobby.register(NewPlayer { name, kind }).await.unwrap();
        r.api_key
    };
    // 300 humans that want only bots, and no bot waiting.
    for i in 0..300 {
        let key = register(format!("h{i}"), PlayerKind::Human).await;
        lobby
            .enqueue(&key, only_bots(Variant::Pairs))
            .await
            .unwrap();
    }
    let before = clock_now_ms();
    let report = lobby.pass(Variant::Pairs, true).await.unwrap();
    assert_eq!((report.waiting, report.formed), (300, 0));
    assert_eq!(report.examined, 0, "nobody is read as company for them");
    // Nothing makes the band due before its tickets' next widening (when
    // it looks across its edges again), ten seconds at most away.
    let due = lobby
        .store()
        .get(
            Doc::QueuePool,
            &format!("{}.due", Shard::of(Variant::Pairs, true, 1500.0).id()),
        )
        .await
        .unwrap()
        .unwrap();
    let due: Value = serde_json::from_str(&due.state).unwrap();
    let due_ms = due["due_ms"].as_u64().unwrap();
    assert!(
        due_ms > before && due_ms <= clock_now_ms() + 10_000,
        "{due}"
    );
    // Eight bots that want only bots are matched among themselves, the
    // pass reading only them.
    let mut tickets = Vec::new();
    for i in 0..8 {
        let key = register(format!("b{i}"), PlayerKind::Bot).await;
        let t = lobby
            .enqueue(&key, only_bots(Variant::Pairs))
            .await
            .unwrap();
        tickets.push((key, t.ticket.id));
    }
    for (key, id) in &tickets {
        let t = lobby.ticket(key, id, 0).await.unwrap();
        assert_eq!(t.ticket.status, TicketStatus::Matched, "{id}");
    }
    let report = lobby.pass(Variant::Pairs, true).await.unwrap();
    assert_eq!((report.waiting, report.examined), (300, 0));
}

async fn a_full_pool_refuses_a_ticket_with_507_and_queues_nothing(backend: Backend) {
    let limits = Limits {
        max_queue_tickets: 3,
        ..Limits::default()
    };
    let f = fleet(backend, limits).await;
    let app = &f.apps[0];
    let mut waiting = Vec::new();
    for i in 0..3 {
        let p = register(app, &format!("w{i}"), "human").await;
        let r = app
            .post(
                "/v1/queue",
                Some(&p.key),
                json!({"variant": "pairs", "only_bots": true}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        waiting.push((p, r.json["ticket_id"].as_str().unwrap().to_string()));
    }
    let late = register(app, "late", "human").await;
    let r = app
        .post("/v1/queue", Some(&late.key), json!({"variant": "pairs"}))
        .await;
    assert_eq!(r.status.as_u16(), 507, "{}", r.text);
    assert_eq!(r.json["code"], "queue_full");
    assert_eq!(r.content_type, "application/problem+json");
    // Nothing was left queued: another pool takes the player at once…
    let r = app
        .post(
            "/v1/queue",
            Some(&late.key),
            json!({"variant": "pairs", "rated": false}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let casual = r.json["ticket_id"].as_str().unwrap().to_string();
    let r = app
        .send(
            Method::DELETE,
            &format!("/v1/queue/{casual}"),
            Some(&late.key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    // …and the full one once a ticket leaves.
    let (p, id) = &waiting[0];
    let r = app
        .send(
            Method::DELETE,
            &format!("/v1/queue/{id}"),
            Some(&p.key),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let r = app
        .post("/v1/queue", Some(&late.key), json!({"variant": "pairs"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let metrics = app.get("/metrics", None).await;
    assert!(
        metrics
            .text
            .contains(r#"botifarra_limits_hit_total{limit="queue_full"}"#),
        "counted"
    );
}

both_stores!(
    a_full_pool_refuses_a_ticket_with_507_and_queues_nothing,
    a_party_both_keys_confirm_is_matched_and_seated_opposite,
    a_stranger_cannot_queue_a_player_and_the_victim_keeps_its_queue,
    racing_acceptances_of_one_party_queue_one_ticket,
    racing_enqueues_by_one_key_leave_exactly_one_waiting_ticket,
    tickets_that_cannot_match_anyone_cost_a_pass_nothing,
);
