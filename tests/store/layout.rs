//! The service over each store: a match stored by the server before the
//! compact layout (the fixture `fixtures/legacy-v0.json`, saved by that
//! server: the whole record as JSON, one JSON string per event, the full
//! view as the remembered answer) still loads and plays on; and in the
//! compact layout an idempotent retry gets the first answer's exact bytes
//! after the match has moved on.

use std::sync::Arc;

use botifarra::service::{Act, ActRequest, Acted, Limits, NewMatch, Service};
use botifarra::store::{Commit, CommitOutcome, MatchStore};
use serde_json::Value;

use crate::backends::all_stores;
use crate::contract::new_id;

const FIXTURE: &str = include_str!("fixtures/legacy-v0.json");

fn act(action: &Value, key: Option<&str>) -> ActRequest {
    ActRequest {
        act: Act::Action(serde_json::from_value(action.clone()).expect("a legal action")),
        seat: None,
        expected_version: None,
        idempotency_key: key.map(str::to_string),
    }
}

fn body(acted: Acted) -> String {
    match acted {
        Acted::Applied(view) => serde_json::to_string(&view).unwrap(),
        Acted::Replayed(body) => body,
    }
}

/// The seat to act.
async fn turn(svc: &Service, id: &str) -> u64 {
    let spectator = serde_json::to_value(svc.view(id, None).await.unwrap()).unwrap();
    spectator["turn"].as_u64().unwrap()
}

/// The first legal action of the seat of `token`.
async fn first_legal(svc: &Service, id: &str, token: &str) -> Value {
    let view = serde_json::to_value(svc.view(id, Some(token)).await.unwrap()).unwrap();
    view["legal_actions"][0].clone()
}

/// Plays the seat of `token` until the match is over (the other seats are
/// house bots); returns how many actions it took.
async fn play_to_the_end(svc: &Service, id: &str, token: &str) -> usize {
    for n in 0..2000 {
        let view = serde_json::to_value(svc.view(id, Some(token)).await.unwrap()).unwrap();
        if view["phase"] == "match_over" {
            return n;
        }
        let first = &view["legal_actions"][0];
        assert!(first.is_object(), "no legal action: {view}");
        svc.act(id, Some(token), act(first, None)).await.unwrap();
    }
    panic!("the match did not end");
}

async fn a_match_stored_by_the_old_layout_loads_and_plays_on(store: Arc<dyn MatchStore>) {
    let fx: Value = serde_json::from_str(FIXTURE).unwrap();
    let old_id = fx["match_id"].as_str().unwrap();
    let id = new_id();
    let state = fx["state"].as_str().unwrap().replace(old_id, &id);
    assert!(state.starts_with('{'));
    let version = fx["version"].as_u64().unwrap();
    let events: Vec<String> = fx["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect();
    assert!(store.create(&id, version, &state, &events).await.unwrap());
    let slot_key = fx["idempotency_slot_key"].as_str().unwrap();
    let remembered = fx["idempotency_response"]
        .as_str()
        .unwrap()
        .replace(old_id, &id);
    let plant = Commit {
        expected_version: version,
        new_version: version,
        state: Some(&state),
        events: &[],
        idempotency: Some((slot_key, &remembered)),
    };
    assert!(matches!(
        store.commit(&id, plant).await.unwrap(),
        CommitOutcome::Committed { .. }
    ));

    let svc = Service::new(store.clone(), Limits::default()).unwrap();
    let token = fx["token"].as_str().unwrap();
    let view = serde_json::to_value(svc.view(&id, Some(token)).await.unwrap()).unwrap();
    assert_eq!(view["version"], version);
    assert_eq!(view["match_id"], id.as_str());
    // The remembered answer is given back byte for byte.
    let key = fx["idempotency_key"].as_str().unwrap();
    let first = &view["legal_actions"][0];
    let retry = svc
        .act(&id, Some(token), act(first, Some(key)))
        .await
        .unwrap();
    assert!(matches!(&retry, Acted::Replayed(_)));
    assert_eq!(body(retry), remembered);

    // Its events read back as stored, then the match plays on to the end.
    let page = svc.events(&id, Some(token), 0, 0, 1000).await.unwrap();
    assert_eq!(page.last_seq, events.len() as u64);
    assert_eq!(page.events[0].body["type"], "match_created");
    let played = play_to_the_end(&svc, &id, token).await;
    assert!(played > 0);
    let page = svc.events(&id, Some(token), 0, 0, 1000).await.unwrap();
    let seqs: Vec<u64> = page.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=page.last_seq).collect::<Vec<_>>());
    assert_eq!(page.events.last().unwrap().body["type"], "match_over");
    // It stays in its layout: the whole record, now at the final version.
    let snap = store.load(&id).await.unwrap().unwrap();
    assert!(snap.state.starts_with('{') && snap.log.is_empty());
    assert!(snap.version > version);
}

async fn a_retry_gets_the_first_answer_after_the_match_moved_on(store: Arc<dyn MatchStore>) {
    let svc = Service::new(store.clone(), Limits::default()).unwrap();
    let created = svc.create(NewMatch::default()).await.unwrap();
    let id = created.match_id;
    let token_of = |seat: u64| {
        let t = created.tokens.iter().find(|t| u64::from(t.seat) == seat);
        t.unwrap().token.clone()
    };
    let mut commits = 0;
    for n in 0..60 {
        let seat = turn(&svc, &id).await;
        let token = token_of(seat);
        let action = first_legal(&svc, &id, &token).await;
        let key = format!("k{n}");
        let first = body(
            svc.act(&id, Some(&token), act(&action, Some(&key)))
                .await
                .unwrap(),
        );
        commits += 1;
        // The other seats play until `seat` is to act again.
        let mut moved = 0;
        while turn(&svc, &id).await != seat {
            let other = token_of(turn(&svc, &id).await);
            let a = first_legal(&svc, &id, &other).await;
            svc.act(&id, Some(&other), act(&a, None)).await.unwrap();
            commits += 1;
            moved += 1;
        }
        if moved == 0 {
            continue;
        }
        let retry = svc
            .act(&id, Some(&token), act(&action, Some(&key)))
            .await
            .unwrap();
        assert!(matches!(&retry, Acted::Replayed(_)));
        let again = body(retry);
        assert_eq!(again, first, "the first answer, byte for byte");
        let answered: Value = serde_json::from_str(&again).unwrap();
        let now = serde_json::to_value(svc.view(&id, Some(&token)).await.unwrap()).unwrap();
        assert_eq!(
            answered["version"].as_u64().unwrap() + moved,
            now["version"].as_u64().unwrap()
        );
        // Stored compactly: the setup once, one log entry per commit.
        let snap = store.load(&id).await.unwrap().unwrap();
        assert!(snap.state.starts_with('1'), "compact layout");
        assert_eq!(snap.log.len(), 1 + commits);
        return;
    }
    panic!("no seat's retry came after other seats' moves");
}

all_stores!(
    a_match_stored_by_the_old_layout_loads_and_plays_on,
    a_retry_gets_the_first_answer_after_the_match_moved_on,
);
