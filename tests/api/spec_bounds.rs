//! Every numeric bound the OpenAPI document gives a parameter is the
//! server's: each bounded query parameter and request body field (and the
//! bounded fields of an object a body holds, such as `rules`) is read from
//! the generated document, and the server is sent its minimum and maximum
//! (not refused with `400`) and one past each (refused with `400
//! invalid_request`), each probe on objects made fresh for it.

use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::app::{Backend, Reply, TestApp, spawn_lobby_app};
use crate::lobby_client::register;

/// Where a bounded parameter goes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Place {
    Query,
    /// A body field: its path from the body's top (`["rules", "target"]`).
    Body(Vec<String>),
}

/// One bounded parameter of one operation, as the document says.
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) name: String,
    pub(crate) place: Place,
    pub(crate) min: Option<i64>,
    pub(crate) max: Option<i64>,
}

fn number(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().map(|f| f as i64))
}

fn is_numeric(s: &Value) -> bool {
    let numeric = |t: &Value| t == "integer" || t == "number";
    match &s["type"] {
        Value::Array(ts) => ts.iter().any(numeric),
        t => numeric(t),
    }
}

/// The schema `s` stands for: a `$ref` followed, a nullable union's
/// non-null member.
fn resolve<'a>(doc: &'a Value, s: &'a Value) -> &'a Value {
    if let Some(r) = s["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap_or_default();
        return resolve(doc, &doc["components"]["schemas"][name]);
    }
    for union in ["oneOf", "anyOf"] {
        if let Some(items) = s[union].as_array() {
            let not_null: Vec<&Value> = items.iter().filter(|i| i["type"] != "null").collect();
            if let [only] = not_null.as_slice() {
                return resolve(doc, only);
            }
        }
    }
    s
}

/// The bounded numeric fields of object schema `s`, one level of nested
/// objects included, as paths from its top.
fn body_bounds(doc: &Value, s: &Value, at: &[String], out: &mut Vec<(Vec<String>, Value)>) {
    let Some(props) = resolve(doc, s)["properties"].as_object() else {
        return;
    };
    for (name, p) in props {
        let mut here = at.to_vec();
        here.push(name.clone());
        let p = resolve(doc, p);
        if is_numeric(p) && (p.get("minimum").is_some() || p.get("maximum").is_some()) {
            out.push((here, p.clone()));
        } else if at.is_empty() && p.get("properties").is_some() {
            body_bounds(doc, p, &here, out);
        }
    }
}

/// Every bounded parameter of the document.
fn bounds(doc: &Value) -> Vec<Bound> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            let Ok(method) = m.to_uppercase().parse::<Method>() else {
                continue;
            };
            let mut push = |name: String, place: Place, s: &Value| {
                out.push(Bound {
                    method: method.clone(),
                    path: path.clone(),
                    name,
                    place,
                    min: s.get("minimum").and_then(number),
                    max: s.get("maximum").and_then(number),
                });
            };
            for p in op["parameters"].as_array().into_iter().flatten() {
                let s = resolve(doc, &p["schema"]);
                if is_numeric(s) && (s.get("minimum").is_some() || s.get("maximum").is_some()) {
                    assert_eq!(p["in"], "query", "a bounded {} parameter: {p}", p["in"]);
                    push(p["name"].as_str().unwrap().to_string(), Place::Query, s);
                }
            }
            let body = &op["requestBody"]["content"]["application/json"]["schema"];
            let mut fields = Vec::new();
            body_bounds(doc, body, &[], &mut fields);
            for (at, s) in fields {
                push(at.join("."), Place::Body(at), &s);
            }
        }
    }
    out
}

/// A request the server accepts: its path, credential, query and body,
/// on objects made for it.
pub(crate) struct Probe {
    pub(crate) path: String,
    pub(crate) token: Option<String>,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) body: Value,
}

async fn match_for(app: &TestApp, body: Value) -> (String, String) {
    let (id, tokens) = app.create(body).await;
    (id, tokens[0].clone().expect("seat 0's token"))
}

async fn player(app: &TestApp) -> crate::lobby_client::PlayerKey {
    register(app, "bounds", "bot").await
}

/// A fresh valid request of operation `b` (every parameter but the probed
/// one as the server takes it).
pub(crate) async fn probe_for(app: &TestApp, b: &Bound) -> Probe {
    let mut p = Probe {
        path: b.path.clone(),
        token: None,
        query: Vec::new(),
        body: Value::Null,
    };
    let remote = json!({"rules": {"first_dealer": 0}});
    let open = json!([{"kind": "open"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]);
    match (b.method.as_str(), b.path.as_str()) {
        ("GET", "/v1/leaderboard") => p.query.push(("variant".into(), "pairs".into())),
        ("GET", "/v1/lobby") => {}
        ("GET", "/v1/matches/{id}/events") => {
            // `match_created` is there: a long poll answers at once.
            let (id, _) = match_for(app, remote).await;
            p.path = format!("/v1/matches/{id}/events");
        }
        ("GET", "/v1/matches/{id}/stream") => {
            // A finished match: the stream sends its events and ends.
            let bots = json!({"kind": "bot", "bot": "random"});
            let (id, _) = app
                .create(json!({"rules": {"max_hands": 1}, "auto_deal": true, "seats": [bots, bots, bots, bots]}))
                .await;
            while app.get(&format!("/v1/matches/{id}"), None).await.json["phase"] != "match_over" {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            p.path = format!("/v1/matches/{id}/stream");
        }
        ("POST", "/v1/matches") => p.body = json!({}),
        ("POST", path) if path.starts_with("/v1/matches/{id}/") => {
            let (id, token) = match_for(app, remote).await;
            p.path = path.replace("{id}", &id);
            p.token = Some(token);
            p.body = match path.rsplit('/').next().unwrap() {
                "claim" => json!({"against": 1}),
                "double" => json!({"call": "pass"}),
                "play" => json!({"card": "9O"}),
                "trump" => json!({"choice": "botifarra"}),
                _ => json!({}),
            };
        }
        ("GET", "/v1/players/me/events") => {
            // A challenge received: a long poll answers at once.
            let (me, other) = (player(app).await, player(app).await);
            let r = app
                .post(
                    "/v1/challenges",
                    Some(&other.key),
                    json!({"variant": "pairs", "opponents": [me.id], "fill_with": "heuristic"}),
                )
                .await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
            p.token = Some(me.key);
        }
        ("GET", "/v1/players/me/matches") => p.token = Some(player(app).await.key),
        ("GET", "/v1/queue/{ticket}") => {
            // A cancelled ticket: a long poll answers at once.
            let me = player(app).await;
            let r = app
                .post("/v1/queue", Some(&me.key), json!({"variant": "pairs"}))
                .await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
            let ticket = r.json["ticket_id"].as_str().unwrap().to_string();
            let r = app
                .send(
                    Method::DELETE,
                    &format!("/v1/queue/{ticket}"),
                    Some(&me.key),
                    None,
                    &[],
                )
                .await;
            assert!(r.status.is_success(), "{}", r.text);
            p.path = format!("/v1/queue/{ticket}");
            p.token = Some(me.key);
        }
        ("POST", "/v1/queue") => {
            p.token = Some(player(app).await.key);
            p.body = json!({"variant": "pairs"});
        }
        ("POST", "/v1/queue/parties") => {
            let (me, partner) = (player(app).await, player(app).await);
            p.token = Some(me.key);
            p.body = json!({"variant": "pairs", "partner": partner.id});
        }
        ("POST", "/v1/challenges") => {
            let (me, other) = (player(app).await, player(app).await);
            p.token = Some(me.key);
            p.body = json!({"variant": "pairs", "opponents": [other.id], "fill_with": "heuristic"});
        }
        ("POST", "/v1/tables/{id}/join") => {
            let t = crate::lobby_client::create_table(app, json!({"seats": open})).await;
            let id = t["table"]["table_id"].as_str().expect("table_id");
            p.path = format!("/v1/tables/{id}/join");
            p.body = json!({});
        }
        ("POST", "/v1/invites/{code}/join") => {
            let t = crate::lobby_client::create_table(
                app,
                json!({"seats": open, "visibility": "private"}),
            )
            .await;
            let code = t["invite_code"].as_str().expect("invite_code");
            p.path = format!("/v1/invites/{code}/join");
            p.body = json!({});
        }
        ("POST", "/v1/tables") => {
            p.body = json!({"seats": open});
        }
        ("GET", "/v1/tournaments") => {}
        ("POST", "/v1/tournaments") => {
            p.token = Some(player(app).await.key);
            let format = match b.name.as_str() {
                "boards" => "duplicate",
                "duration_s" => "arena",
                _ => "swiss",
            };
            p.body = json!({"name": "probe", "variant": "pairs", "format": format});
        }
        ("POST", "/v1/tournaments/{id}/entries") => {
            let maker = player(app).await;
            let r = app
                .post(
                    "/v1/tournaments",
                    Some(&maker.key),
                    json!({"name": "probe", "variant": "pairs", "format": "swiss"}),
                )
                .await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
            let id = r.json["tournament"]["id"].as_str().unwrap();
            p.path = format!("/v1/tournaments/{id}/entries");
            p.token = Some(player(app).await.key);
        }
        (m, path) => panic!(
            "no probe for {m} {path}: add one for its bounded parameter {}",
            b.name
        ),
    }
    p
}

/// Sets the probed parameter of `p` to `v`.
fn set(p: &mut Probe, place: &Place, name: &str, v: i64) {
    match place {
        Place::Query => p.query.push((name.to_string(), v.to_string())),
        Place::Body(at) => {
            let mut here = &mut p.body;
            for key in &at[..at.len() - 1] {
                let obj = here.as_object_mut().expect("an object body");
                here = obj
                    .entry(key.clone())
                    .or_insert_with(|| Value::Object(Map::new()));
            }
            here[at.last().unwrap()] = json!(v);
        }
    }
}

async fn send(app: &TestApp, b: &Bound, v: i64) -> Reply {
    let mut p = probe_for(app, b).await;
    set(&mut p, &b.place, &b.name, v);
    let query: Vec<String> = p.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let path = if query.is_empty() {
        p.path
    } else {
        format!("{}?{}", p.path, query.join("&"))
    };
    let body = (b.method == Method::POST).then_some(p.body);
    app.send(b.method.clone(), &path, p.token.as_deref(), body, &[])
        .await
}

#[tokio::test]
async fn every_bound_in_the_document_is_the_servers() {
    let doc: Value = serde_json::from_str(&botifarra::http::openapi_json().unwrap()).unwrap();
    let bounds = bounds(&doc);
    // The bounds the server once disagreed on are among those probed.
    for (path, name) in [
        ("/v1/players/me/events", "limit"),
        ("/v1/players/me/events", "wait_ms"),
        ("/v1/tables", "move_timeout_ms"),
        ("/v1/matches", "rules.target"),
    ] {
        assert!(
            bounds
                .iter()
                .any(|b| b.path == path && b.name == name && b.min.is_some() && b.max.is_some()),
            "{path} {name} has no bounds in the document"
        );
    }
    let app = spawn_lobby_app(Backend::Memory).await;
    let mut wrong = Vec::new();
    for b in &bounds {
        let inside = [b.min, b.max].into_iter().flatten();
        let outside = [b.min.map(|m| m - 1), b.max.map(|m| m + 1)]
            .into_iter()
            .flatten();
        for v in inside {
            let r = send(&app, b, v).await;
            if r.status == StatusCode::BAD_REQUEST {
                wrong.push(format!(
                    "{} {} {}={v} (in bounds): 400 {}",
                    b.method, b.path, b.name, r.text
                ));
            }
        }
        for v in outside {
            let r = send(&app, b, v).await;
            if r.status != StatusCode::BAD_REQUEST || r.json["code"] != "invalid_request" {
                wrong.push(format!(
                    "{} {} {}={v} (out of bounds): {} {}",
                    b.method, b.path, b.name, r.status, r.text
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the document and the server disagree:\n{}",
        wrong.join("\n")
    );
}
