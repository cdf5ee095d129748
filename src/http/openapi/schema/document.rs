//! Finishing touches on the OpenAPI document that the handlers' own
//! annotations cannot say: explicit `security` on every operation (`[]`
//! where no token is taken), optional request bodies, query and header
//! parameters that are never `null` (a parameter is absent or has a
//! value) with the exact form of `If-Match` and `Idempotency-Key`, and on
//! every problem answer an example whose `code` belongs to its status.

use utoipa::openapi::example::{Example, ExampleBuilder};
use utoipa::openapi::path::{Operation, Parameter};
use utoipa::openapi::schema::{Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi, RefOr, Required};

use super::problem::{ProblemCode, codes_of, example_title};

/// Operations whose body may be left out: the guards are all optional.
const OPTIONAL_BODIES: &[&str] = &[
    "/v1/matches/{id}/deal",
    "/v1/matches/{id}/resign",
    "/v1/matches/{id}/abort",
];

/// Applies the touches to `api`.
pub fn finish(api: &mut OpenApi) {
    for (path, item) in api.paths.paths.iter_mut() {
        for op in super::operations_mut(item) {
            // No security requirement said: the operation takes no token.
            op.security.get_or_insert_with(Vec::new);
            if OPTIONAL_BODIES.contains(&path.as_str())
                && let Some(RefOr::T(body)) = op.request_body.as_mut()
            {
                body.required = Some(Required::False);
            }
            problem_examples(op);
            for p in op.parameters.iter_mut().flatten() {
                if let RefOr::T(p) = p {
                    tighten(p);
                }
            }
        }
    }
}

/// The form the server reads in a header, where it is stricter than "a
/// string": `(name, pattern)`.
const HEADER_PATTERNS: &[(&str, &str)] = &[
    // The version, quoted or not, with an optional weak-tag prefix, or a
    // view's ETag as it came (`"12-seat2"`, `"12-spectator"`).
    (
        "If-Match",
        r#"^(W/)?"?[0-9]{1,18}(-(seat[0-9]|spectator))?"?$"#,
    ),
    // An event's `id` as the stream sent it.
    ("Last-Event-ID", r"^[0-9]{1,19}$"),
    // 1 to 200 visible ASCII characters.
    ("Idempotency-Key", r"^[\x21-\x7E]{1,200}$"),
];

/// A parameter is absent or has a value, never `null`: drops `null` from
/// its schema, and gives the headers of [`HEADER_PATTERNS`] their form.
fn tighten(p: &mut Parameter) {
    let Some(schema) = p.schema.as_mut() else {
        return;
    };
    if let RefOr::T(Schema::OneOf(one)) = schema {
        let not_null: Vec<_> = one
            .items
            .iter()
            .filter(|s| !matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null)))
            .cloned()
            .collect();
        if let [only] = not_null.as_slice() {
            *schema = only.clone();
        }
    }
    if let RefOr::T(Schema::Object(o)) = schema {
        if let SchemaType::Array(types) = &o.schema_type {
            let kept: Vec<Type> = types
                .iter()
                .filter(|t| **t != Type::Null)
                .cloned()
                .collect();
            if let [only] = kept.as_slice() {
                o.schema_type = SchemaType::Type(only.clone());
            }
        }
        if let Some((_, pattern)) = HEADER_PATTERNS.iter().find(|(n, _)| *n == p.name) {
            o.pattern = Some((*pattern).to_string());
        }
    }
}

/// Gives each problem answer of `op` one example per code its status can
/// carry (replacing none the handler wrote).
fn problem_examples(op: &mut Operation) {
    for (status, response) in op.responses.responses.iter_mut() {
        let (Ok(n), RefOr::T(response)) = (status.parse::<u16>(), response) else {
            continue;
        };
        let Some(RefOr::T(content)) = response.content.get_mut("application/problem+json") else {
            continue;
        };
        if !content.examples.is_empty() || content.example.is_some() {
            continue;
        }
        content
            .examples
            .extend(codes_of(n).iter().map(|&code| problem_example(code, n)));
    }
}

/// An example problem answer with `code` and `status`, named by its code.
pub fn problem_example(code: ProblemCode, status: u16) -> (String, RefOr<Example>) {
    let name = serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let value = serde_json::json!({
        "type": format!("urn:botifarra:problem:{name}"),
        "title": example_title(code),
        "status": status,
        "detail": detail_of(&name),
        "code": name,
    });
    let example = ExampleBuilder::new().value(Some(value)).build();
    (name, RefOr::T(example))
}

/// A `detail` the server could give with `code`.
fn detail_of(code: &str) -> &'static str {
    match code {
        "invalid_request" => "invalid JSON body: missing field `card`",
        "unauthorized" => "this token is not a seat token of this match",
        "forbidden" => "this token acts for seat 0, not seat 2",
        "match_not_found" => "no match with this id",
        "not_found" => "no resource at /v1/nothing",
        "method_not_allowed" => "DELETE is not allowed on /v1/matches",
        "request_timeout" => "the request body did not arrive in time",
        "payload_too_large" => "the request body is too large",
        "unsupported_media_type" => "the body must be JSON (`Content-Type: application/json`)",
        "headers_too_large" => "the request head is too large",
        "not_your_turn" => "it is not your turn: seat 1 is to act",
        "wrong_phase" => "the match is in phase playing, this action needs doubling",
        "version_conflict" => "the match is at version 13, not 12",
        "illegal_move" => "must follow suit O",
        "idempotency_key_reused" => "this Idempotency-Key was used with a different request",
        "rate_limited" => "too many requests; retry in 1 s",
        "store_unavailable" => "the match store is unavailable; retry later",
        "busy" => "every hint slot is taken; retry later",
        "store_full" => "the match store is full; retry later",
        "capacity_reached" => "limit: 1000000 players in all; no more can be registered",
        "match_too_large" => "a match deals at most 1000 hands",
        "queue_full" => "the pool holds 100000 waiting tickets, as many as it may; retry later",
        _ => "the server failed; the failure was logged",
    }
}
