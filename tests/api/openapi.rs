//! The committed OpenAPI document is the one the code generates, and the
//! one a running server serves.

use serde_json::Value;

#[test]
fn committed_openapi_matches_the_generated_document() {
    let generated = botifarra::http::openapi_json().expect("the document serializes");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != generated {
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(path, &generated).expect("write openapi/openapi.json");
            return;
        }
        panic!(
            "openapi/openapi.json differs from the generated document; regenerate it with \
             `cargo run -- openapi > openapi/openapi.json` (or UPDATE_OPENAPI=1 cargo test --test api openapi)"
        );
    }
}

#[test]
fn every_operation_is_described_and_actions_declare_the_seat_token() {
    let doc: Value =
        serde_json::from_str(&botifarra::http::openapi_json().expect("the document serializes"))
            .unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], "1.0.0");
    assert_eq!(
        doc["components"]["securitySchemes"]["seat_token"]["scheme"],
        "bearer"
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["player_key"]["scheme"],
        "bearer"
    );
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/v1/matches",
        "/v1/matches/{id}",
        "/v1/matches/{id}/deal",
        "/v1/matches/{id}/trump",
        "/v1/matches/{id}/double",
        "/v1/matches/{id}/play",
        "/v1/matches/{id}/actions",
        "/v1/matches/{id}/resign",
        "/v1/matches/{id}/legal-moves",
        "/v1/matches/{id}/events",
        "/v1/matches/{id}/stream",
        "/v1/matches/{id}/history",
        "/healthz",
        "/readyz",
        "/v1/players",
        "/v1/players/me",
        "/v1/players/me/key",
        "/v1/players/me/events",
        "/v1/players/me/matches",
        "/v1/players/{id}",
        "/v1/tables",
        "/v1/tables/{id}",
        "/v1/tables/{id}/join",
        "/v1/tables/{id}/leave",
        "/v1/lobby",
        "/v1/invites/{code}",
        "/v1/invites/{code}/join",
    ] {
        assert!(paths.contains_key(p), "missing path {p}");
    }
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let summary = op["summary"]
                .as_str()
                .or(op["description"].as_str())
                .unwrap_or("");
            assert!(!summary.is_empty(), "{method} {path} has no description");
            // Every action of a seat takes its token (a rematch, which
            // invites players, takes only a player's key).
            if method == "post"
                && path.starts_with("/v1/matches/{id}/")
                && path != "/v1/matches/{id}/rematch"
            {
                assert!(
                    op["security"].to_string().contains("seat_token"),
                    "{method} {path} lacks the seat token"
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_serves_the_generated_document_and_swagger_ui() {
    let app = crate::app::spawn_app(crate::app::Backend::Memory).await;
    let served = app.get("/api-docs/openapi.json", None).await;
    assert_eq!(served.status, reqwest::StatusCode::OK);
    let generated: Value =
        serde_json::from_str(&botifarra::http::openapi_json().expect("the document serializes"))
            .unwrap();
    assert_eq!(served.json, generated);
    let ui = app.get("/swagger-ui/", None).await;
    assert_eq!(ui.status, reqwest::StatusCode::OK);
    assert!(ui.text.contains("swagger"), "{}", ui.text);
}
