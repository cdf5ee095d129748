//! Request parts every action shares: the bearer token, `If-Match`,
//! `Idempotency-Key`, and bodies parsed into clear problems.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderMap};
use actix_web::{FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use crate::service::Error;

/// The `Authorization: Bearer <token>` of a request, if any.
pub struct Bearer(pub Option<String>);

impl FromRequest for Bearer {
    type Error = ApiError;
    type Future = Ready<Result<Bearer, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match bearer_token(req.headers()) {
            None => Ok(Bearer(None)),
            Some(Some(t)) => Ok(Bearer(Some(t.to_string()))),
            Some(None) => Err(ApiError(Error::Unauthorized(
                "the Authorization header must be `Bearer <seat token>`".into(),
            ))),
        })
    }
}

/// The token of an `Authorization: Bearer <token>` header: `None` without
/// the header, `Some(None)` when it is malformed (or the token empty or
/// over 256 characters).
pub fn bearer_token(headers: &HeaderMap) -> Option<Option<&str>> {
    let value = headers.get(header::AUTHORIZATION)?;
    Some(
        value
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= 256),
    )
}

/// The guards of an action: `If-Match` and `Idempotency-Key`.
pub struct Guards {
    /// The version from `If-Match`.
    pub if_match: Option<u64>,
    /// The idempotency key.
    pub idempotency_key: Option<String>,
}

impl FromRequest for Guards {
    type Error = ApiError;
    type Future = Ready<Result<Guards, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(guards(req).map_err(ApiError))
    }
}

fn guards(req: &HttpRequest) -> Result<Guards, Error> {
    let if_match = match req.headers().get(header::IF_MATCH) {
        None => None,
        Some(v) => {
            let s = v.to_str().unwrap_or("").trim();
            let s = s.strip_prefix("W/").unwrap_or(s).trim_matches('"');
            Some(s.parse::<u64>().map_err(|_| {
                Error::InvalidRequest("If-Match must be the match version, e.g. `\"12\"`".into())
            })?)
        }
    };
    let idempotency_key = match req.headers().get("idempotency-key") {
        None => None,
        Some(v) => {
            let s = v.to_str().unwrap_or("");
            if s.is_empty() || s.len() > 200 || !s.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(Error::InvalidRequest(
                    "Idempotency-Key must be 1 to 200 visible ASCII characters".into(),
                ));
            }
            Some(s.to_string())
        }
    };
    Ok(Guards {
        if_match,
        idempotency_key,
    })
}

/// Parses a JSON body; an empty body reads as `{}`.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body)
        .map_err(|e| Error::InvalidRequest(format!("invalid JSON body: {e}")))
}

/// Combines a body's `expected_version` with `If-Match`; they must agree.
pub fn expected_version(body: Option<u64>, header: Option<u64>) -> Result<Option<u64>, Error> {
    match (body, header) {
        (Some(a), Some(b)) if a != b => Err(Error::InvalidRequest(
            "expected_version and If-Match disagree".into(),
        )),
        (a, b) => Ok(a.or(b)),
    }
}
