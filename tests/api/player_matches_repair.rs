//! A match whose start was never listed (the lobby store failed, or the
//! instance stopped, between the match's creation and its `started`
//! hook) is listed among the player's finished matches when it ends.

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::app::{Backend, lobby_over, lobby_store_for, spawn_service, unlimited};
use crate::backends::both_stores;
use crate::lobby_client::register;
use crate::tapped_store::TappedStore;

async fn a_match_whose_start_was_not_listed_is_listed_at_its_end(backend: Backend) {
    let mut store = TappedStore::over(lobby_store_for(backend).await);
    store.refuse_index = Box::new(|index| index.starts_with("player_matches:ongoing:"));
    let lobby = lobby_over(backend, Arc::new(store)).await;
    let app = spawn_service(lobby, unlimited());
    let p = register(&app, "unlisted", "bot").await;
    let seats = json!([{"player": p.id}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let body = json!({"rules": {"first_dealer": 0, "max_hands": 1}, "seats": seats});
    let r = app.post("/v1/matches", Some(&p.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json["match_id"].as_str().unwrap().to_string();
    let r = app.get("/v1/players/me/matches", Some(&p.key)).await;
    assert_eq!(r.json["matches"], json!([]), "the start was not listed");
    app.finish_match(&id, &p.key).await;
    for _ in 0..100 {
        let r = app.get("/v1/players/me/matches", Some(&p.key)).await;
        if let [m] = r.json["matches"].as_array().unwrap().as_slice() {
            assert_eq!(
                (m["match_id"].as_str(), m["over"].as_bool()),
                (Some(id.as_str()), Some(true))
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the finished match was never listed");
}

both_stores!(a_match_whose_start_was_not_listed_is_listed_at_its_end);
