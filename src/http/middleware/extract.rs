//! Request parts every action shares: the bearer token, `If-Match`,
//! `Idempotency-Key`, and bodies read within a time and size limit,
//! checked to be JSON and parsed into clear problems; and the
//! `access_token` query parameter of the reads a browser's `EventSource`
//! makes (it cannot send headers); a player's API key. The request log never shows that
//! parameter (see [`super::redact`]).

use std::future::{Ready, ready};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderMap};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use crate::http::problem::{ApiError, Lang};
use crate::service::Error;

/// Largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The `Authorization: Bearer <token>` of a request, if any.
pub struct Bearer(pub Option<String>);

impl FromRequest for Bearer {
    type Error = ApiError;
    type Future = Ready<Result<Bearer, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match bearer_token(req.headers()) {
            None => Ok(Bearer(None)),
            Some(Some(t)) => Ok(Bearer(Some(t.to_string()))),
            Some(None) => Err(ApiError::from(Error::Unauthorized(
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

/// The caller's API key: a `bp_` bearer (players, their tables,
/// challenges and queue tickets are acted on with it).
///
/// # Errors
/// `Unauthorized` without a bearer, or with one that is not an API key.
pub fn player_key(token: Option<String>) -> Result<String, ApiError> {
    match token {
        Some(k) if k.starts_with(crate::lobby::records::KEY_PREFIX) => Ok(k),
        Some(_) => Err(Error::Unauthorized("this is not a player API key".into()).into()),
        None => Err(Error::Unauthorized(
            "send the player's API key as `Authorization: Bearer <key>`".into(),
        )
        .into()),
    }
}

/// The seat token of a read that also takes it as an `access_token` query
/// parameter (RFC 6750 §2.3): the header's or the query's, never both.
///
/// # Errors
/// `InvalidRequest` when both are sent; `Unauthorized` when the query's is
/// empty or over 256 characters.
pub fn header_or_query_token(
    bearer: Bearer,
    query: Option<&str>,
) -> Result<Option<String>, ApiError> {
    match (bearer.0, query) {
        (Some(_), Some(_)) => Err(ApiError::from(Error::InvalidRequest(
            "send the seat token either as `Authorization: Bearer` or as `access_token`, not both"
                .into(),
        ))),
        (t, None) => Ok(t),
        (None, Some(q)) if !q.is_empty() && q.len() <= 256 => Ok(Some(q.to_string())),
        (None, Some(_)) => Err(ApiError::from(Error::Unauthorized(
            "access_token must be a seat token".into(),
        ))),
    }
}

/// The guards of an action: `If-Match` and `Idempotency-Key`.
pub struct Guards {
    /// The version from `If-Match`: a version (`"12"`) or a view's `ETag`
    /// (`"12-seat2"`, whose version it names).
    pub if_match: Option<u64>,
    /// The idempotency key.
    pub idempotency_key: Option<String>,
}

impl FromRequest for Guards {
    type Error = ApiError;
    type Future = Ready<Result<Guards, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Without a token the request is refused as unauthorized whatever
        // its guards say: authentication is checked first.
        if req.headers().get(header::AUTHORIZATION).is_none() {
            return ready(Ok(Guards {
                if_match: None,
                idempotency_key: None,
            }));
        }
        ready(guards(req).map_err(ApiError::from))
    }
}

fn guards(req: &HttpRequest) -> Result<Guards, Error> {
    let if_match = match req.headers().get(header::IF_MATCH) {
        None => None,
        Some(v) => {
            let s = v.to_str().unwrap_or("").trim();
            let s = s.strip_prefix("W/").unwrap_or(s).trim_matches('"');
            // A view's ETag (`"12-seat2"`) names its version first.
            let version = s.split('-').next().unwrap_or(s);
            Some(version.parse::<u64>().map_err(|_| {
                Error::InvalidRequest(
                    "If-Match must be the match version or a view's ETag, e.g. `\"12\"`".into(),
                )
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

/// How long a client may take to send a request body.
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub Duration);

/// A request body that is JSON: read whole within the [`BodyTimeout`] and
/// the size limit, with a JSON `Content-Type` unless it is empty (actions
/// whose body is optional may be posted with no body and no type).
pub struct JsonBytes(pub Bytes);

impl std::ops::Deref for JsonBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// Whether a `Content-Type` names JSON (`application/json`, `…+json`).
fn is_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase())
        .is_some_and(|t| {
            t == "application/json" || (t.starts_with("application/") && t.ends_with("+json"))
        })
}

/// An error answer in `lang` that also closes the connection (the rest of
/// the body may still be on its way).
fn closing(e: ApiError, lang: Lang) -> actix_web::Error {
    let mut res: HttpResponse = e.response_in(lang);
    res.head_mut()
        .set_connection_type(actix_web::http::ConnectionType::Close);
    actix_web::error::InternalError::from_response(e, res).into()
}

impl FromRequest for JsonBytes {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<JsonBytes, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let timeout = req
            .app_data::<BodyTimeout>()
            .map_or(Duration::from_secs(10), |t| t.0);
        let json = is_json(req);
        let lang = Lang::of(req);
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
                return Err(actix_web::error::ErrorPayloadTooLarge(
                    "the request body is too large",
                ));
            }
            let read = async {
                let mut body = BytesMut::new();
                while let Some(chunk) = payload.next().await {
                    let chunk = chunk?;
                    if body.len() + chunk.len() > MAX_BODY_BYTES {
                        return Err(actix_web::error::ErrorPayloadTooLarge(
                            "the request body is too large",
                        ));
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(body.freeze())
            };
            let body = match tokio::time::timeout(timeout, read).await {
                Ok(body) => body?,
                Err(_) => {
                    crate::service::metrics::metrics().limit_hit("body_timeout");
                    return Err(closing(
                        ApiError::RequestTimeout(format!(
                            "the request body did not arrive within {} ms",
                            timeout.as_millis()
                        )),
                        lang,
                    ));
                }
            };
            if !json && !body.iter().all(u8::is_ascii_whitespace) {
                return Err((ApiError::UnsupportedMediaType(
                    "send the body as JSON, with `Content-Type: application/json`".into(),
                ))
                .into());
            }
            Ok(JsonBytes(body))
        })
    }
}

/// Parses a JSON body; an empty body reads as `{}`. A number without a
/// fraction written with one (`2.0`) reads as the integer it is, as JSON
/// Schema counts it: an integer field takes it; `2.5` is still refused.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let bad = |e: serde_json::Error| Error::InvalidRequest(format!("invalid JSON body: {e}"));
    let mut value: serde_json::Value = serde_json::from_slice(body).map_err(bad)?;
    integral_numbers(&mut value);
    serde_json::from_value(value).map_err(bad)
}

/// Makes every number of `v` written with a zero fraction (`3.0`, `-1.0`)
/// the integer it is, within the range a double holds exactly.
fn integral_numbers(v: &mut serde_json::Value) {
    use serde_json::{Number, Value};
    match v {
        Value::Number(n) => {
            if let Some(f) = n.as_f64().filter(|f| n.is_f64() && f.fract() == 0.0)
                && f.abs() <= 9_007_199_254_740_992.0
            {
                *n = if f < 0.0 {
                    Number::from(f as i64)
                } else {
                    Number::from(f as u64)
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers),
        Value::Object(fields) => fields.values_mut().for_each(integral_numbers),
        _ => {}
    }
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

#[cfg(test)]
mod tests {
    use super::parse_body;

    #[derive(Debug, serde::Deserialize)]
    struct Join {
        seat: Option<u8>,
        rating: Option<f64>,
    }

    #[test]
    fn an_integer_written_with_a_zero_fraction_is_that_integer() {
        let j: Join = parse_body(br#"{"seat": 2.0, "rating": 1500.0}"#).unwrap();
        assert_eq!((j.seat, j.rating), (Some(2), Some(1500.0)));
        let j: Join = parse_body(br#"{"rating": 1500.5}"#).unwrap();
        assert_eq!(j.rating, Some(1500.5));
        assert!(parse_body::<Join>(br#"{"seat": 2.5}"#).is_err());
        assert!(parse_body::<Join>(br#"{"seat": -1.0}"#).is_err());
        assert!(parse_body::<Join>(b"").is_ok());
        assert!(parse_body::<Join>(b"{").is_err());
    }
}
