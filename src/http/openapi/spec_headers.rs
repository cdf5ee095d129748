//! Response headers and conditional-request parameters, added to the
//! OpenAPI document where the middleware or a shared helper sets them
//! rather than the handler's own annotation: `RateLimit-Policy` and
//! `RateLimit` on every success and `429` (with `Retry-After`), `Location`
//! on `201`, `ETag` and `If-None-Match` → `304` on the reads of a match,
//! and `idempotency_key_reused` on the actions: beside `illegal_move`, or as
//! the only `422` of an action that breaks no rule (resign).

use serde_json::json;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{Object, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Required, ResponseBuilder};

use super::common_errors::problem_response;
use super::schema::document::problem_example;
use super::schema::operations_mut;
use super::schema::problem::ProblemCode;

/// `(name, integer?, description, example)` of the shared headers.
const HEADERS: &[(&str, bool, &str, &str)] = &[
    (
        "RateLimit-Policy",
        false,
        "The rate limits this request counts against (IETF httpapi draft *RateLimit header \
         fields for HTTP*): one item per bucket, `ip` (per client address), `token` (per API \
         key or seat token), `match` (per match under a key or token), `turns` (a key's reads \
         of its matches list), `create` (matches created per client address) and `hint` \
         (`?hint=` per client address), each with its quota `q` (requests a full bucket holds) and window `w` \
         (seconds to refill an empty bucket). Absent when no limit is configured.",
        "\"ip\";q=2000;w=2, \"token\";q=1000;w=2, \"match\";q=200;w=2",
    ),
    (
        "RateLimit",
        false,
        "The state of each bucket of `RateLimit-Policy`: `r` requests available now, `t` \
         seconds until the bucket is full again (on a `429`: `r=0` and `t` the `Retry-After`).",
        "\"ip\";r=1998;t=1, \"token\";r=999;t=1, \"match\";r=199;t=1",
    ),
    (
        "Retry-After",
        true,
        "Seconds to wait before the next request can succeed.",
        "1",
    ),
    (
        "ETag",
        false,
        "The version of the match and the viewer this representation was made for. Send it in \
         `If-None-Match` to get `304` while nothing changed; its version is what `If-Match` \
         takes on an action.",
        "\"12-seat2\"",
    ),
    (
        "Vary",
        false,
        "`Authorization`: each seat's representation differs.",
        "Authorization",
    ),
    (
        "Location",
        false,
        "The new match's view.",
        "/v1/matches/k3J9dQ2mXb",
    ),
];

/// The reads whose answers carry an `ETag` and honour `If-None-Match`.
const CONDITIONAL: &[&str] = &[
    "/v1/matches/{id}",
    "/v1/matches/{id}/legal-moves",
    "/v1/matches/{id}/history",
];

fn header_ref(name: &str) -> RefOr<utoipa::openapi::header::Header> {
    RefOr::Ref(Ref::new(format!("#/components/headers/{name}")))
}

/// Adds the shared headers to the components and to every operation.
pub fn add(api: &mut OpenApi) {
    let components = api.components.get_or_insert_with(Default::default);
    for (name, integer, description, example) in HEADERS {
        let (ty, example) = if *integer {
            (Type::Integer, json!(example.parse::<u64>().unwrap_or(1)))
        } else {
            (Type::String, json!(example))
        };
        let header = HeaderBuilder::new()
            .schema(Some(Object::with_type(ty)))
            .description(Some(*description))
            .example(Some(example))
            .build();
        components
            .headers
            .insert((*name).to_string(), RefOr::T(header));
    }
    for (path, item) in api.paths.paths.iter_mut() {
        for op in operations_mut(item) {
            add_to(op, path);
        }
    }
}

fn add_to(op: &mut Operation, path: &str) {
    let conditional = CONDITIONAL.contains(&path);
    if conditional {
        let param = ParameterBuilder::new()
            .name("If-None-Match")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .schema(Some(Object::with_type(Type::String)))
            .description(Some(
                "An `ETag` this client holds: answered `304` with no body while it is current",
            ))
            .example(Some(json!("\"12-seat2\"")))
            .build();
        op.parameters
            .get_or_insert_with(Vec::new)
            .push(RefOr::T(param));
        let not_modified = ResponseBuilder::new()
            .description("Not modified: the representation of `If-None-Match` is current; no body")
            .header_ref("ETag", Ref::new("#/components/headers/ETag"))
            .header_ref("Vary", Ref::new("#/components/headers/Vary"))
            .build();
        op.responses
            .responses
            .insert("304".to_string(), RefOr::T(not_modified));
    }
    let acts = op.parameters.iter().flatten().any(|p| match p {
        RefOr::T(p) => p.name == "Idempotency-Key",
        RefOr::Ref(_) => false,
    });
    for (status, response) in op.responses.responses.iter_mut() {
        let RefOr::T(response) = response else {
            continue;
        };
        let success = status.starts_with('2');
        if success || status == "429" {
            response
                .headers
                .insert("RateLimit-Policy".into(), header_ref("RateLimit-Policy"));
            response
                .headers
                .insert("RateLimit".into(), header_ref("RateLimit"));
        }
        if status == "429" || status == "202" {
            response
                .headers
                .insert("Retry-After".into(), header_ref("Retry-After"));
        }
        if status == "201" {
            response
                .headers
                .insert("Location".into(), header_ref("Location"));
        }
        if conditional && status == "200" {
            response.headers.insert("ETag".into(), header_ref("ETag"));
            response.headers.insert("Vary".into(), header_ref("Vary"));
        }
        if acts && status == "422" {
            response.description.push_str("; or ");
            response.description.push_str(KEY_REUSED);
        }
    }
    // An action that breaks no rule of the game (resign) still answers a
    // reused key with a `422`. Its one example is that code: the shared
    // examples of a `422` would add `illegal_move`.
    if acts && !op.responses.responses.contains_key("422") {
        let example = problem_example(ProblemCode::IdempotencyKeyReused, 422);
        let content = ContentBuilder::new().examples_from_iter([example]);
        op.responses.responses.insert(
            "422".to_string(),
            RefOr::T(problem_response(KEY_REUSED, content)),
        );
    }
}

/// How an action answers an `Idempotency-Key` used for another request.
const KEY_REUSED: &str = "`idempotency_key_reused`: this `Idempotency-Key` was last used for a \
                          different request (another action or other guards), and nothing changed";
