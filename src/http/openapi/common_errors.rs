//! The error answers every operation can give, added to the OpenAPI
//! document once instead of repeated on each handler.
//!
//! The middleware and extractors shared by all routes produce them: the
//! rate limiter (`429`, every route), the store (`503`, every `/v1/` route),
//! the body, header and query parsers (`400`, `408`, `413`, `415`), the
//! store's bounds (`507`), and, under
//! `/v1/matches/{id}`, the match lookup (`404`) and the `Authorization`
//! header parser (`401`, even where a token is optional). A client reading
//! the document must be able to expect every status it can get.

use utoipa::openapi::path::Operation;
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

/// Whether a shared error answer applies to an operation, from its path and
/// whether it takes a body.
type AppliesTo = fn(&str, bool) -> bool;

/// `(status, description, applies to)` of the shared error answers.
const COMMON: &[(&str, &str, AppliesTo)] = &[
    (
        "400",
        "Malformed body, header or query (`invalid_request`)",
        |p, _| p.starts_with("/v1/"),
    ),
    (
        "401",
        "Malformed `Authorization` header or wrong seat token (`unauthorized`)",
        |p, _| p.starts_with("/v1/matches/{id}"),
    ),
    ("404", "No such match (`match_not_found`)", |p, _| {
        p.starts_with("/v1/matches/{id}")
    }),
    (
        "413",
        "The request body is too large (`payload_too_large`)",
        |_, post| post,
    ),
    (
        "408",
        "The body did not arrive in time (`request_timeout`); the connection is closed",
        |_, post| post,
    ),
    (
        "415",
        "A body without a JSON `Content-Type` (`unsupported_media_type`)",
        |_, post| post,
    ),
    (
        "429",
        "Too many requests (`rate_limited`); see `Retry-After`",
        |_, _| true,
    ),
    (
        "507",
        "The store is full (`store_full`), or the match dealt all the hands it may (`match_too_large`); nothing changed",
        |p, post| post && p.starts_with("/v1/"),
    ),
    (
        "503",
        "Store unavailable (`store_unavailable`); nothing changed, retry later",
        |p, _| p.starts_with("/v1/"),
    ),
];

/// Adds each shared error answer to every operation it applies to and
/// does not already document.
pub fn add(api: &mut OpenApi) {
    for (path, item) in api.paths.paths.iter_mut() {
        let ops = [
            (&mut item.get, false),
            (&mut item.post, true),
            (&mut item.put, true),
            (&mut item.delete, false),
            (&mut item.patch, true),
        ];
        for (op, has_body) in ops {
            if let Some(op) = op.as_mut() {
                add_to(op, path, has_body);
            }
        }
    }
}

fn add_to(op: &mut Operation, path: &str, has_body: bool) {
    for (status, description, applies) in COMMON {
        if !applies(path, has_body) || op.responses.responses.contains_key(*status) {
            continue;
        }
        op.responses.responses.insert(
            (*status).to_string(),
            RefOr::T(problem_response(description, ContentBuilder::new())),
        );
    }
}

/// A problem answer (`application/problem+json`, the `Problem` schema)
/// with `description`; `content` may already hold its examples.
pub(super) fn problem_response(description: &str, content: ContentBuilder) -> Response {
    let content = content
        .schema(Some(Ref::from_schema_name("Problem")))
        .build();
    ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", content)
        .build()
}
