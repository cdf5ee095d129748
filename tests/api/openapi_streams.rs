//! The event streams are what the document says their items are: the
//! `text/event-stream` schema of a match's stream is `Event` and of a
//! player's `PlayerEvent`, the type of each event's `data` (the form the
//! client generators read: @hey-api/openapi-ts yields each parsed `data`
//! as that schema). Every event of a whole match's stream, and the events
//! a player's stream brings while its match starts, are checked against
//! the committed document: `event` is the data's `type`, `id` its `seq`,
//! and the data holds to the schema (its variant found by the union's
//! discriminator, every required field present, no field the variant does
//! not name, each value of its type, in its bounds and enums).

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, TestApp, spawn_app, spawn_lobby_app};
use crate::lobby_client::register;
use crate::player_matches::stream_text;

fn document() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The schema a `$ref` names in `doc`.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// Whether `v` is of the JSON Schema type `t`.
fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        _ => false,
    }
}

/// `v`'s problems with the `type` of `s` and of the parts of its `allOf`.
fn type_problems(doc: &Value, s: &Value, v: &Value, at: &str) -> Vec<String> {
    let types: Vec<&str> = match &s["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut bad = Vec::new();
    if !types.is_empty() && !types.iter().any(|t| is_type(v, t)) {
        bad.push(format!("{at}: {v} is not of type {types:?}"));
    }
    for part in s["allOf"].as_array().into_iter().flatten() {
        bad.extend(type_problems(doc, resolve(doc, part), v, at));
    }
    bad
}

/// The problems of `v` under `schema` (empty when it holds), each named by
/// its place `at`.
fn check(doc: &Value, schema: &Value, v: &Value, at: &str) -> Vec<String> {
    let s = resolve(doc, schema);
    if let Some(variants) = s["oneOf"].as_array() {
        return one_of(doc, s, variants, v, at);
    }
    let mut bad: Vec<String> = type_problems(doc, s, v, at);
    if let Some(not) = s.get("not")
        && check(doc, not, v, at).is_empty()
    {
        bad.push(format!("{at}: {v} is of a type the schema excludes"));
    }
    if let (Some(text), Some(word)) = (v.as_str(), literal_pattern(s))
        && text != word
    {
        bad.push(format!("{at}: {text:?} does not match ^{word}$"));
    }
    if let Some(values) = s["enum"].as_array()
        && !values.contains(v)
    {
        bad.push(format!("{at}: {v} is not one of {values:?}"));
    }
    if let Some(n) = v.as_f64() {
        let below = s["minimum"].as_f64().is_some_and(|m| n < m);
        let above = s["maximum"].as_f64().is_some_and(|m| n > m);
        if below || above {
            bad.push(format!("{at}: {n} is out of bounds"));
        }
    }
    if let Some(obj) = v.as_object() {
        bad.extend(check_object(doc, s, obj, at));
    }
    if let (Some(items), Some(item)) = (v.as_array(), s.get("items")) {
        for (i, x) in items.iter().enumerate() {
            bad.extend(check(doc, item, x, &format!("{at}[{i}]")));
        }
    }
    bad
}

/// The fields of an object schema `s` and of the parts of its `allOf`:
/// `(properties, required)`.
fn fields<'a>(doc: &'a Value, s: &'a Value) -> (Vec<(&'a String, &'a Value)>, Vec<&'a str>) {
    let mut props: Vec<_> = s["properties"].as_object().into_iter().flatten().collect();
    let mut required: Vec<_> = s["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for part in s["allOf"].as_array().into_iter().flatten() {
        let (p, r) = fields(doc, resolve(doc, part));
        props.extend(p);
        required.extend(r);
    }
    (props, required)
}

/// The problems of the object `obj` under `s`: a required field missing,
/// a field `s` does not name, a field's value.
fn check_object(
    doc: &Value,
    s: &Value,
    obj: &serde_json::Map<String, Value>,
    at: &str,
) -> Vec<String> {
    let (props, required) = fields(doc, s);
    if props.is_empty() {
        return Vec::new();
    }
    let mut bad: Vec<String> = required
        .iter()
        .filter(|name| !obj.contains_key(**name))
        .map(|name| format!("{at}: the required `{name}` is missing"))
        .collect();
    for (name, value) in obj {
        match props.iter().find(|(p, _)| *p == name) {
            Some((_, p)) => bad.extend(check(doc, p, value, &format!("{at}.{name}"))),
            None => bad.push(format!("{at}: `{name}` is not in the schema")),
        }
    }
    bad
}

/// The word a `pattern` of the form `^word$` (letters, digits and `_`
/// only) asks for; other patterns are not checked here.
fn literal_pattern(s: &Value) -> Option<&str> {
    let word = s["pattern"]
        .as_str()?
        .strip_prefix('^')?
        .strip_suffix('$')?;
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(word)
}

/// A `oneOf`: with a discriminator, the variant its mapping names;
/// without, exactly one variant must hold.
fn one_of(doc: &Value, s: &Value, variants: &[Value], v: &Value, at: &str) -> Vec<String> {
    if let Some(prop) = s["discriminator"]["propertyName"].as_str() {
        let tag = v[prop].as_str().unwrap_or_default();
        return match s["discriminator"]["mapping"][tag].as_str() {
            Some(r) => check(doc, &json!({"$ref": r}), v, &format!("{at}<{tag}>")),
            None => vec![format!("{at}: `{prop}` {tag:?} names no variant")],
        };
    }
    let holding = variants
        .iter()
        .filter(|x| check(doc, x, v, at).is_empty())
        .count();
    if holding == 1 {
        Vec::new()
    } else {
        vec![format!(
            "{at}: {v} holds to {holding} of the oneOf's variants, not 1"
        )]
    }
}

/// The `text/event-stream` schema of `GET path`'s `200` in `doc`.
fn stream_schema<'a>(doc: &'a Value, path: &str) -> &'a Value {
    &doc["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
}

/// One event of a stream: its `id`, `event` and `data` lines.
struct Frame {
    id: Option<u64>,
    event: String,
    data: Value,
}

/// The events of `text` (keep-alive comments left out).
fn frames(text: &str) -> Vec<Frame> {
    text.split("\n\n")
        .filter(|block| block.lines().any(|l| l.starts_with("event: ")))
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(str::to_string)
            };
            Frame {
                id: field("id: ").map(|s| s.parse().unwrap()),
                event: field("event: ").unwrap(),
                data: serde_json::from_str(&field("data: ").unwrap()).unwrap(),
            }
        })
        .collect()
}

/// Checks each event of `frames` that carries the stream's union against
/// `schema`; the others must be of the `extra` types. Returns how many
/// were checked.
fn check_frames(doc: &Value, schema: &Value, frames: &[Frame], extra: &[(&str, &str)]) -> usize {
    let mut checked = 0;
    for f in frames {
        if let Some((_, name)) = extra.iter().find(|(e, _)| *e == f.event) {
            let of = json!({"$ref": format!("#/components/schemas/{name}")});
            let bad = check(doc, &of, &f.data, &f.event);
            assert!(bad.is_empty(), "{bad:#?}");
            continue;
        }
        assert_eq!(f.data["type"].as_str(), Some(f.event.as_str()));
        assert_eq!(f.id, f.data["seq"].as_u64(), "{}", f.data);
        let bad = check(doc, schema, &f.data, &f.event);
        assert!(bad.is_empty(), "{bad:#?}");
        checked += 1;
    }
    checked
}

/// The events of the stream at `path` (of a finished match: it ends).
async fn read_stream(app: &TestApp, path: &str) -> Vec<Frame> {
    let resp = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let text = tokio::time::timeout(Duration::from_secs(20), resp.text())
        .await
        .expect("the stream of a finished match ends")
        .unwrap();
    frames(&text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_match_stream_holds_to_the_documented_event_union() {
    let doc = document();
    let schema = stream_schema(&doc, "/v1/matches/{id}/stream");
    assert_eq!(schema, &json!({"$ref": "#/components/schemas/Event"}));
    let app = spawn_app(Backend::Memory).await;
    let bot = json!({"kind": "bot", "bot": "random"});
    let seats = json!([{"kind": "remote"}, bot, bot, bot]);
    let (id, tokens) = app
        .create(json!({"rules": {"max_hands": 2}, "seats": seats, "auto_deal": true}))
        .await;
    app.finish_match(&id, tokens[0].as_deref().unwrap()).await;
    // Every event, then (with `with_state`) the opening `state`.
    let all = read_stream(&app, &format!("/v1/matches/{id}/stream")).await;
    assert_eq!(check_frames(&doc, schema, &all, &[]), all.len());
    let last = all.last().unwrap();
    assert_eq!(last.event, "match_over");
    assert!(all.len() > 20, "a whole match: {} events", all.len());
    let state = read_stream(&app, &format!("/v1/matches/{id}/stream?with_state=true")).await;
    assert_eq!(state[0].event, "state");
    check_frames(&doc, schema, &state, &[("state", "MatchView")]);
    // The checker refuses what the server must not send: an event that
    // lost a required field, a field no variant names, a winner that is
    // neither a side nor "draw".
    let mut over = last.data.clone();
    over.as_object_mut().unwrap().remove("scores");
    assert!(!check(&doc, schema, &over, "planted").is_empty());
    let mut over = last.data.clone();
    over["stray"] = json!(1);
    assert!(!check(&doc, schema, &over, "planted").is_empty());
    for winner in [json!("both"), json!(4), json!(null), json!([0])] {
        let mut over = last.data.clone();
        over["winner"] = winner;
        assert!(!check(&doc, schema, &over, "planted").is_empty(), "{over}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_stream_holds_to_the_documented_player_event_union() {
    let doc = document();
    let schema = stream_schema(&doc, "/v1/players/me/events");
    assert_eq!(schema, &json!({"$ref": "#/components/schemas/PlayerEvent"}));
    let app = spawn_lobby_app(Backend::Memory).await;
    let me = register(&app, "streamer", "bot").await;
    let house = json!({"kind": "bot"});
    let body = json!({"auto_deal": true, "seats": [{"player": me.id}, house, house, house]});
    let r = app.post("/v1/matches", Some(&me.key), body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let text = stream_text(&app, &me.key, &[], "event: your_turn").await;
    let frames = frames(&text);
    assert_eq!(frames[0].event, "matches", "{text}");
    assert_eq!(frames[0].id, None);
    let checked = check_frames(&doc, schema, &frames[1..], &[]);
    assert!(checked >= 2, "match_started and your_turn: {text}");
}
