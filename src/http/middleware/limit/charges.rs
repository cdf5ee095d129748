//! Which buckets a request is charged a token from: per client address,
//! per credential (an API key or a seat token), per match under that
//! credential, and the narrower buckets of creations, invites and hints.
//!
//! A credential's requests under `/v1/matches/{id}` take a token from that
//! match's bucket as well as from the credential's: one match's runaway
//! loop empties its own bucket, never its siblings', while the larger
//! per-credential bucket bounds them all. `GET /v1/players/me/matches` is
//! charged to a bucket of its own (`turns`, at the per-match rate) instead
//! of the credential's, so that a client refused for its moves can always
//! learn whose turn it is in each of its matches.

use actix_web::dev::ServiceRequest;

use super::RateLimits;
use crate::http::middleware::extract::bearer_token;
use crate::http::middleware::routed;

/// The paths whose `POST` creates something (counted by the create limit).
const CREATE_PATHS: [&str; 5] = [
    "/v1/matches",
    "/v1/tables",
    "/v1/players",
    "/v1/challenges",
    "/v1/queue/parties",
];

/// The read that tells a player whose turn it is in each of its matches.
const TURNS_PATH: &str = "/v1/players/me/matches";

/// One bucket a request is charged a token from.
pub(super) struct Charge {
    /// The bucket: what is limited and for whom (`ip:…`, `tok:…`, …).
    pub key: String,
    /// Requests allowed per `per` seconds (0: no limit).
    pub rate: u32,
    /// The seconds `rate` is counted over.
    pub per: f64,
    /// The bucket's size, in multiples of `rate`.
    pub burst: f64,
    /// What is counted, as the refusal's detail says it.
    pub what: &'static str,
    /// The bucket's name in the `RateLimit` fields and the metrics.
    pub label: &'static str,
}

/// A bucket of bursts of twice the rate per second.
fn per_second(key: String, rate: u32, what: &'static str, label: &'static str) -> Charge {
    Charge {
        key,
        rate,
        per: 1.0,
        burst: 2.0,
        what,
        label,
    }
}

/// A bucket of bursts of the rate per minute.
fn per_minute(key: String, rate: u32, what: &'static str, label: &'static str) -> Charge {
    Charge {
        key,
        rate,
        per: 60.0,
        burst: 1.0,
        what,
        label,
    }
}

/// The match a path is about: the segment after `/v1/matches/`.
fn match_of(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/v1/matches/")?.split('/').next()?;
    (!id.is_empty()).then_some(id)
}

/// The buckets `req` counts against under `limits`, its client address
/// being `ip`. The request is classified by its path as the router matches
/// it and its query as the extractor reads it ([`routed`]): however it is
/// spelled, a request counts as the request it is.
pub(super) fn charges(limits: &RateLimits, req: &ServiceRequest, ip: &str) -> Vec<Charge> {
    let l = limits;
    let path = routed::path(req.request());
    // The credential wherever the handlers take it: the header, or the
    // `access_token` of the reads a browser's `EventSource` makes.
    let token = match bearer_token(req.headers()) {
        Some(t) => t.map(str::to_string),
        None => routed::query_value(req.query_string(), "access_token")
            .filter(|t| !t.is_empty() && t.len() <= 256),
    }
    .map(|t| crate::service::token_key(&t));
    let creates = req.method() == actix_web::http::Method::POST && CREATE_PATHS.contains(&path);
    let invites = path.starts_with("/v1/invites/");
    let hints = path.ends_with("/legal-moves") && routed::has_query_key(req.query_string(), "hint");
    let turns = req.method() == actix_web::http::Method::GET && path == TURNS_PATH;
    let credential = token.as_ref().map(|t| {
        if turns {
            per_second(
                format!("turns:{t}"),
                l.per_match_per_sec,
                "reads of the player's matches per second per key",
                "turns",
            )
        } else {
            per_second(
                format!("tok:{t}"),
                l.per_token_per_sec,
                "requests per second per API key or seat token",
                "token",
            )
        }
    });
    let one_match = token.as_ref().zip(match_of(path)).map(|(t, id)| {
        per_second(
            format!("match:{t}:{id}"),
            l.per_match_per_sec,
            "requests per second per match per API key or seat token",
            "match",
        )
    });
    [
        Some(per_second(
            format!("ip:{ip}"),
            l.per_ip_per_sec,
            "requests per second per client address",
            "ip",
        )),
        credential,
        one_match,
        creates.then(|| {
            per_minute(
                format!("create:{ip}"),
                l.creates_per_min,
                "matches created per minute per client address (tables and players count too)",
                "create",
            )
        }),
        invites.then(|| {
            per_minute(
                format!("invite:{ip}"),
                l.invites_per_min,
                "invite requests per minute per client address",
                "invite",
            )
        }),
        hints.then(|| {
            per_second(
                format!("hint:{ip}"),
                l.hints_per_sec,
                "hints per second per client address",
                "hint",
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_is_named_by_the_segment_after_matches() {
        assert_eq!(match_of("/v1/matches/abc"), Some("abc"));
        assert_eq!(match_of("/v1/matches/abc/actions"), Some("abc"));
        assert_eq!(match_of("/v1/matches/"), None);
        assert_eq!(match_of("/v1/matches"), None);
        assert_eq!(match_of("/v1/tables/abc"), None);
    }
}
