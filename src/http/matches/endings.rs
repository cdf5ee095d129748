//! Ending a match early from a seat (docs/api.md, "Ending a match
//! early"): abort it before the minimum of play, or claim victory over an
//! opponent gone from it. Resigning the match is `resign` with `scope:
//! match` (`actions.rs`).

use actix_web::web::{Data, Path};
use actix_web::{HttpResponse, post};
use serde::Deserialize;
use utoipa::ToSchema;

use super::actions::{GuardBody, act};
use super::wire::MatchView;
use crate::http::middleware::extract::{Bearer, Guards, JsonBytes, parse_body};
use crate::http::openapi::schema::SeatNumber;
use crate::http::openapi::schema::actions::whole;
use crate::http::problem::{ApiError, Problem};
use crate::rules::{Ending, Seat};
use crate::service::Service;

/// `POST …/claim`: the absent opponent, and the guards.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The opponent's seat that stopped moving.
    #[schema(value_type = SeatNumber)]
    #[serde(deserialize_with = "whole_seat")]
    pub against: Seat,
    /// Act only if the match is still at this version.
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

/// A required seat number, read as [`whole`] reads an optional one.
fn whole_seat<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
    whole(d)?.ok_or_else(|| serde::de::Error::custom("against must be a seat number"))
}

/// Abort the match: it ends with no winner, ratings untouched.
///
/// Allowed to any seat until a hand has been played to its last trick
/// (the minimum of play that rates a match); after that it is refused with
/// `409 abort_too_late` (resign the match instead). The body is optional
/// and may carry the guards.
#[utoipa::path(
    tag = "actions",
    params(
        ("id" = String, Path, description = "Match id"),
        ("If-Match" = Option<String>, Header, description = "Act only at this match version"),
        ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer; a seat's key is forgotten once it acts again with another"),
    ),
    request_body(content = GuardBody, description = "Optional: the guards", examples(
        ("1: no guards" = (value = json!({}))),
    )),
    security(("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The match was aborted: the caller's new view", body = MatchView),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The body names another seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "abort_too_late (a hand was played to its last trick), wrong_phase (the match is over) or version_conflict", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches/{id}/abort")]
pub async fn abort(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    guards: Guards,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let g: GuardBody = parse_body(&body)?;
    act(
        &svc,
        &id,
        bearer,
        guards,
        crate::service::Act::End(Ending::Aborted),
        g,
    )
    .await
}

/// Claim victory over an opponent gone from the match: its side loses.
///
/// Allowed once the opponent's client seat has missed
/// `claim_after_missed` moves in a row on its move clock (2 by default;
/// its house bot played them); before that, or against a partner or a bot
/// seat, refused with `409 claim_too_early`. A rated match is rated like
/// any other ending.
#[utoipa::path(
    tag = "actions",
    params(
        ("id" = String, Path, description = "Match id"),
        ("If-Match" = Option<String>, Header, description = "Act only at this match version"),
        ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer; a seat's key is forgotten once it acts again with another"),
    ),
    request_body(content = ClaimRequest, description = "The absent opponent and the guards", examples(
        ("1: against seat 1" = (value = json!({"against": 1}))),
    )),
    security(("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "Victory claimed: the caller's new view", body = MatchView),
        (status = 400, description = "No valid `against`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The body names another seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "claim_too_early (the opponent has not missed enough moves in a row), wrong_phase (the match is over) or version_conflict", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches/{id}/claim")]
pub async fn claim(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    guards: Guards,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let r: ClaimRequest = parse_body(&body)?;
    super::actions::check_seat("against", Some(r.against))?;
    let g = GuardBody {
        expected_version: r.expected_version,
        seat: r.seat,
    };
    let ending = Ending::Claimed { against: r.against };
    act(
        &svc,
        &id,
        bearer,
        guards,
        crate::service::Act::End(ending),
        g,
    )
    .await
}
