//! The OpenAPI document as a client generator reads it: named action and
//! event schemas in discriminated unions, explicit security, optional
//! fields and bodies as the server treats them, problem examples that
//! match their status, and request examples the server accepts.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::app::{Backend, spawn_app};

fn remote4() -> Value {
    json!({"rules": {"first_dealer": 0, "max_hands": 1}, "seats": [{}, {}, {}, {}]})
}

fn document() -> Value {
    serde_json::from_str(&botifarra::http::openapi_json().expect("the document serializes"))
        .unwrap()
}

#[test]
fn the_document_names_every_action_and_event_in_discriminated_unions() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    for (union, count) in [("Action", 4), ("Event", 12)] {
        let u = &schemas[union];
        assert_eq!(u["discriminator"]["propertyName"], "type", "{union}");
        let mapping = u["discriminator"]["mapping"].as_object().unwrap();
        assert_eq!(mapping.len(), count, "{union}");
        assert_eq!(u["oneOf"].as_array().unwrap().len(), count, "{union}");
        for (tag, target) in mapping {
            let name = target.as_str().unwrap().rsplit('/').next().unwrap();
            let variant = &schemas[name];
            assert_eq!(
                variant["properties"]["type"]["enum"],
                json!([tag]),
                "{name}"
            );
            assert!(
                variant["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("type")),
                "{name}"
            );
            for (field, s) in variant["properties"].as_object().unwrap() {
                if field != "type" {
                    let described = s["description"].is_string()
                        || s["oneOf"][0]["description"].is_string()
                        || s["allOf"][0]["description"].is_string();
                    assert!(described, "{name}.{field} is not described: {s}");
                }
            }
            if union == "Event" {
                let required = variant["required"].as_array().unwrap();
                assert!(required.contains(&json!("seq")), "{name}");
                assert!(variant["properties"]["version"].is_object(), "{name}");
            }
        }
    }
    // The listed actions and the /actions body are the same schema.
    let body = &doc["paths"]["/v1/matches/{id}/actions"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"];
    assert_eq!(body["$ref"], "#/components/schemas/Action");
    assert_eq!(
        schemas["GameView"]["properties"]["legal_actions"]["items"]["$ref"],
        "#/components/schemas/Action"
    );
    assert_eq!(
        schemas["EventsPage"]["properties"]["events"]["items"]["$ref"],
        "#/components/schemas/Event"
    );
    assert!(schemas.get("ActionRequest").is_none());
}

#[test]
fn the_document_says_what_is_optional_who_may_call_and_what_errors_look_like() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(doc["servers"][0]["url"], "/");
    assert_eq!(doc["info"]["license"]["identifier"], "MIT");
    // Every Rules option has a default: none is required, none shows a
    // `default` keyword a generator would read as "always present".
    assert!(schemas["Rules"].get("required").is_none());
    assert!(!schemas["Rules"].to_string().contains("\"default\""));
    let deadline = &schemas["MatchView"]["allOf"][1]["properties"]["deadline"];
    assert_eq!(deadline["format"], "date-time");
    assert_eq!(schemas["Seat"]["maximum"], 3);
    assert_eq!(
        schemas["Problem"]["properties"]["code"]["$ref"],
        "#/components/schemas/ProblemCode"
    );
    let public = [
        "/healthz",
        "/readyz",
        "/v1/players",
        "/v1/players/{id}",
        "/v1/players/{id}/ratings",
        "/v1/leaderboard",
        "/v1/tables/{id}",
        "/v1/lobby",
        "/v1/invites/{code}",
        "/v1/tournaments/{id}",
        "/v1/tournaments/{id}/rounds/{n}",
    ];
    let player = [
        "/v1/players/me",
        "/v1/players/me/key",
        "/v1/players/me/events",
        "/v1/players/me/matches",
        "/v1/challenges",
        "/v1/challenges/{id}",
        "/v1/challenges/{id}/accept",
        "/v1/challenges/{id}/decline",
        "/v1/tables/{id}/decline",
        "/v1/queue",
        "/v1/queue/{ticket}",
        "/v1/queue/parties",
        "/v1/queue/parties/{party}",
        "/v1/queue/parties/{party}/accept",
        "/v1/queue/parties/{party}/decline",
        // A rematch invites players: only a player's key asks for one.
        "/v1/matches/{id}/rematch",
        "/v1/tournaments/{id}/entries",
        "/v1/tournaments/{id}/entries/me",
        "/v1/tournaments/{id}/start",
    ];
    // Anonymous, or with a player's key (which alone seats that player).
    let joins = [
        "/v1/tables/{id}/join",
        "/v1/invites/{code}/join",
        "/v1/matches",
        "/v1/tables",
    ];
    let spectator = [
        "/v1/matches/{id}",
        "/v1/matches/{id}/events",
        "/v1/matches/{id}/stream",
        "/v1/matches/{id}/history",
        "/v1/matches/{id}/analysis",
    ];
    let mut operation_ids = std::collections::HashSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            // Generated clients name their functions after these.
            let operation_id = op["operationId"].as_str().expect("an operationId");
            assert!(
                operation_ids.insert(operation_id.to_string()),
                "{method} {path}: operationId {operation_id} is taken"
            );
            let security = op["security"]
                .as_array()
                .unwrap_or_else(|| panic!("{method} {path} states no security"));
            if path == "/v1/tournaments" {
                // Anyone lists them; a player's key makes one.
                let want = if method == "get" {
                    json!([])
                } else {
                    json!([{"player_key": []}])
                };
                assert_eq!(op["security"], want, "{method} {path}");
            } else if public.contains(&path.as_str()) {
                assert!(security.is_empty(), "{method} {path}");
            } else if player.contains(&path.as_str()) {
                assert_eq!(
                    op["security"],
                    json!([{"player_key": []}]),
                    "{method} {path}"
                );
            } else if joins.contains(&path.as_str()) {
                assert_eq!(
                    op["security"],
                    json!([{}, {"player_key": []}]),
                    "{method} {path}"
                );
            } else if path == "/v1/tables/{id}/leave" {
                assert_eq!(
                    op["security"],
                    json!([{"seat_token": []}, {"player_key": []}]),
                    "{method} {path}"
                );
            } else if spectator.contains(&path.as_str()) {
                assert_eq!(
                    op["security"],
                    json!([{}, {"seat_token": []}, {"player_key": []}]),
                    "{method} {path}"
                );
            } else if path.starts_with("/v1/") {
                // A player's key acts for its seats wherever their tokens do.
                assert_eq!(
                    op["security"],
                    json!([{"seat_token": []}, {"player_key": []}]),
                    "{method} {path}"
                );
            }
            if let Some(body) = op.get("requestBody") {
                let examples = &body["content"]["application/json"]["examples"];
                assert!(
                    !examples.as_object().unwrap().is_empty(),
                    "{method} {path} has no example"
                );
                let optional = ["/deal", "/resign", "/abort"]
                    .iter()
                    .any(|end| path.ends_with(end));
                assert_eq!(
                    body["required"] == json!(true),
                    !optional,
                    "{method} {path}"
                );
            }
            for param in op["parameters"].as_array().into_iter().flatten() {
                assert!(
                    !param["schema"].to_string().contains("\"null\""),
                    "{method} {path} {param}"
                );
            }
            // Every action answers a key used for another request with a
            // `422`, resign, abort and claim included (they break no rule
            // of the game).
            let keyed = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["name"] == "Idempotency-Key");
            if keyed {
                let examples =
                    &op["responses"]["422"]["content"]["application/problem+json"]["examples"];
                assert!(
                    examples.get("idempotency_key_reused").is_some(),
                    "{method} {path} documents no reused key"
                );
                assert_eq!(
                    examples.get("illegal_move").is_some(),
                    !["/resign", "/abort", "/claim"]
                        .iter()
                        .any(|end| path.ends_with(end)),
                    "{method} {path}"
                );
            }
            for (status, answer) in op["responses"].as_object().unwrap() {
                let Some(examples) =
                    answer["content"]["application/problem+json"]["examples"].as_object()
                else {
                    continue;
                };
                assert!(!examples.is_empty(), "{method} {path} {status}");
                for e in examples.values() {
                    assert_eq!(e["value"]["status"].to_string(), *status, "{method} {path}");
                    if status != "422" {
                        assert_ne!(
                            e["value"]["code"], "illegal_move",
                            "{method} {path} {status}"
                        );
                    }
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_documents_first_body_examples_are_accepted_in_the_state_they_name() {
    let doc = document();
    let first = |path: &str| {
        let examples =
            doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["examples"]
                .as_object()
                .unwrap()
                .clone();
        examples.into_iter().next().unwrap().1["value"].clone()
    };
    let app = spawn_app(Backend::Memory).await;
    // A new match: its dealer deals (`…/actions` and `…/deal` alike).
    for path in ["/v1/matches/{id}/actions", "/v1/matches/{id}/deal"] {
        let (id, tokens) = app.create(remote4()).await;
        let r = app
            .post(
                &path.replace("{id}", &id),
                tokens[0].as_deref(),
                first(path),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.text);
    }
    // After the deal, whoever chooses names trump; then whoever speaks passes.
    let (id, tokens) = app.create(remote4()).await;
    app.post(
        &format!("/v1/matches/{id}/deal"),
        tokens[0].as_deref(),
        json!({}),
    )
    .await;
    for path in ["/v1/matches/{id}/trump", "/v1/matches/{id}/double"] {
        let turn = app.get(&format!("/v1/matches/{id}"), None).await.json["turn"]
            .as_u64()
            .unwrap();
        let r = app
            .post(
                &path.replace("{id}", &id),
                tokens[turn as usize].as_deref(),
                first(path),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.text);
    }
    // Swagger UI keeps the token entered under "Authorize" across reloads.
    let init = app.get("/swagger-ui/swagger-initializer.js", None).await;
    assert!(init.text.contains("persistAuthorization"), "{}", init.text);
}
