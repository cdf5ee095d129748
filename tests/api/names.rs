//! Display names: refused when they deceive, stored in Unicode NFC,
//! whoever gives them (a player registering, a match's or a table's seat,
//! a joiner and its partner).

use botifarra::lobby::store::Doc;
use reqwest::StatusCode;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::app::{Backend, lobby_over, lobby_store_for, spawn_lobby_app, spawn_service, unlimited};
use crate::backends::both_stores;
use crate::lobby_client::{create_table, four_open, join};
use crate::tapped_store::TappedStore;

async fn a_deceiving_name_registers_no_player(backend: Backend) {
    // Counts the players written.
    let players = Arc::new(AtomicUsize::new(0));
    let mut counted = TappedStore::over(lobby_store_for(backend).await);
    let count = Arc::clone(&players);
    counted.on_insert = Box::new(move |doc| {
        if doc == Doc::Player {
            count.fetch_add(1, Ordering::SeqCst);
        }
    });
    let lobby = lobby_over(backend, Arc::new(counted)).await;
    let app = spawn_service(lobby, unlimited());
    for (name, says) in [
        ("\u{3164}", "a name needs a visible character"),
        ("\u{2800}\u{00A0}", "a name needs a visible character"),
        ("   ", "a name needs a visible character"),
        ("admin\u{200B}", "U+200B"),
        ("ali\u{202E}ecila", "U+202E"),
        ("bob\u{E0041}", "U+E0041"),
        ("Z\u{0336}\u{0321}\u{0322}\u{031B}algo", "combining marks"),
    ] {
        let r = app
            .post("/v1/players", None, json!({"name": name, "kind": "human"}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{name:?}: {}", r.text);
        assert_eq!(r.json["code"], "invalid_request");
        let detail = r.json["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{name:?}: {detail}");
        assert!(r.json.get("api_key").is_none());
    }
    assert_eq!(players.load(Ordering::SeqCst), 0, "no player was written");
    let ok = app
        .post(
            "/v1/players",
            None,
            json!({"name": "Ñandú", "kind": "human"}),
        )
        .await;
    assert_eq!(ok.status, StatusCode::CREATED, "{}", ok.text);
    assert_eq!(players.load(Ordering::SeqCst), 1);
}

async fn a_decomposed_name_is_stored_composed(backend: Backend) {
    let app = spawn_lobby_app(backend).await;
    let typed = "Nu\u{0301}ria Pujola\u{0300}";
    let r = app
        .post("/v1/players", None, json!({"name": typed, "kind": "human"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["player"]["name"], "Núria Pujolà");
    let id = r.json["player"]["id"].as_str().unwrap().to_string();
    let key = r.json["api_key"].as_str().unwrap().to_string();
    let profile = app.get(&format!("/v1/players/{id}"), None).await;
    assert_eq!(profile.json["name"], "Núria Pujolà");

    // Seats and joiners too: a table's seat, a joiner, its partner, and
    // the player's own name where it sits down.
    let created = create_table(
        &app,
        four_open(json!({"seats": [{"kind": "remote", "name": "Jordi Pujola\u{0300}"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})),
    )
    .await;
    assert_eq!(created["table"]["seats"][0]["name"], "Jordi Pujolà");
    let table = created["table"]["table_id"].as_str().unwrap().to_string();
    let r = join(
        &app,
        &table,
        None,
        json!({"seat": 1, "name": "N\u{0303}andu\u{0301}", "partner": {"name": "Joa\u{0303}o"}}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["table"]["seats"][1]["name"], "Ñandú");
    assert_eq!(r.json["table"]["seats"][3]["name"], "João");
    let r = join(&app, &table, Some(&key), json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json["table"]["seats"][2]["name"], "Núria Pujolà");
    let m = app.get(&format!("/v1/matches/{table}"), None).await;
    assert_eq!(m.status, StatusCode::OK, "{}", m.text);
    let names: Vec<&str> = m.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Jordi Pujolà", "Ñandú", "Núria Pujolà", "João"]);

    // A match's seat, and a refused one changes nothing there either.
    let r = app
        .post(
            "/v1/matches",
            None,
            json!({"seats": [{"name": "A\u{0300}lex"}, {}, {}, {}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json["view"]["seats"][0]["name"], "Àlex");
    let r = join(&app, &table, None, json!({"name": "\u{3164}"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
}

both_stores!(
    a_deceiving_name_registers_no_player,
    a_decomposed_name_is_stored_composed,
);
