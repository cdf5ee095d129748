//! Every request example in the OpenAPI document is a request the server
//! takes: each is sent, on objects made fresh for it (a match, a table, a
//! registered player's key, as `spec_bounds` makes them), with the
//! placeholder player ids it names replaced by players registered for it,
//! and none is refused as malformed (`400`, `415`) or fails (`5xx`). An
//! answer about the state it meets (`409 wrong_phase` for an action
//! example sent at another phase, say) is fine: the body was read.

use std::collections::HashMap;

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::app::{Backend, TestApp, spawn_lobby_app};
use crate::lobby_client::register;
use crate::spec_bounds::{Bound, Place, probe_for};

/// Whether `s` has the form of a player id (`p` and 24 hex digits).
fn is_player_id(s: &str) -> bool {
    s.len() == 25
        && s.starts_with('p')
        && s[1..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The player ids `v` names.
fn player_ids(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if is_player_id(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| player_ids(i, out)),
        Value::Object(fields) => fields.values().for_each(|f| player_ids(f, out)),
        _ => {}
    }
}

/// `v` with each player id replaced as `real` says.
fn replace_ids(v: &mut Value, real: &HashMap<String, String>) {
    match v {
        Value::String(s) => {
            if let Some(id) = real.get(s.as_str()) {
                *s = id.clone();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| replace_ids(i, real)),
        Value::Object(fields) => fields.values_mut().for_each(|f| replace_ids(f, real)),
        _ => {}
    }
}

/// `v` with every player id in it replaced, the same id by the same
/// player, registered for it.
async fn with_real_players(app: &TestApp, v: &mut Value) {
    let mut ids = Vec::new();
    player_ids(v, &mut ids);
    ids.sort();
    ids.dedup();
    let mut real = HashMap::new();
    for id in ids {
        let player = register(app, "example", "bot").await.id;
        real.insert(id, player);
    }
    replace_ids(v, &real);
}

async fn every_request_example_is_a_request_the_server_takes(backend: Backend) {
    let doc: Value = serde_json::from_str(&botifarra::http::openapi_json().unwrap()).unwrap();
    let app = spawn_lobby_app(backend).await;
    let (mut sent, mut taken, mut wrong) = (0, 0, Vec::new());
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let examples = &op["requestBody"]["content"]["application/json"]["examples"];
            let Some(examples) = examples.as_object() else {
                continue;
            };
            let method: Method = method.to_uppercase().parse().unwrap();
            for (name, example) in examples {
                let mut body = example["value"].clone();
                let (target, token) = if path == "/v1/players" {
                    (path.clone(), None)
                } else {
                    let b = Bound {
                        method: method.clone(),
                        path: path.clone(),
                        name: String::new(),
                        place: Place::Query,
                        min: None,
                        max: None,
                    };
                    let p = probe_for(&app, &b).await;
                    (p.path, p.token)
                };
                with_real_players(&app, &mut body).await;
                let r = app
                    .send(method.clone(), &target, token.as_deref(), Some(body), &[])
                    .await;
                sent += 1;
                let refused = r.status == StatusCode::BAD_REQUEST
                    || r.status == StatusCode::UNSUPPORTED_MEDIA_TYPE
                    || r.status.is_server_error();
                if refused {
                    wrong.push(format!(
                        "{method} {path} \"{name}\": {} {}",
                        r.status, r.text
                    ));
                } else if r.status.is_success() {
                    taken += 1;
                }
            }
        }
    }
    assert!(sent >= 30, "only {sent} request examples in the document");
    assert!(
        wrong.is_empty(),
        "request examples the server refuses:\n{}",
        wrong.join("\n")
    );
    // Most examples are taken outright; the rest met a state they were
    // not written for (an action at another phase).
    assert!(
        taken * 2 > sent,
        "only {taken} of {sent} examples were taken"
    );
}

crate::backends::both_stores!(every_request_example_is_a_request_the_server_takes);
