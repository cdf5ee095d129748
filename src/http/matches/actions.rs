//! The action resources of `/v1/matches/{id}`: deal, trump, double, play,
//! any listed action, and resign (the hand, or the match); abort and
//! claim are in `endings.rs`.

use actix_web::web::{Data, Path};
use actix_web::{HttpResponse, post};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::wire::MatchView;
use crate::http::middleware::extract::{Bearer, Guards, JsonBytes, expected_version, parse_body};
use crate::http::openapi::schema::SeatNumber;
use crate::http::openapi::schema::actions::{Posted, parse_action, whole};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::rules::{Action, Call, Card, Ending, Seat, TrumpChoice};
use crate::service::{Act, ActRequest, Acted, Error, Service};

/// Guards any action body may carry.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuardBody {
    /// Act only if the match is still at this version (same as `If-Match`).
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

/// `POST …/trump`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TrumpRequest {
    /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` (or `estevet` in abarrotada).
    pub choice: TrumpChoice,
    /// Act only if the match is still at this version.
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

/// `POST …/double`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DoubleRequest {
    /// `contro`, `recontro`, `sant_vicenc` or `pass`.
    pub call: Call,
    /// Act only if the match is still at this version.
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

/// `POST …/play`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The card, e.g. `9O` (case-insensitive).
    pub card: Card,
    /// Act only if the match is still at this version.
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

pub(super) async fn act(
    svc: &Service,
    id: &str,
    bearer: Bearer,
    guards: Guards,
    act: Act,
    g: GuardBody,
) -> Result<HttpResponse, ApiError> {
    check_seat("seat", g.seat)?;
    let expected_version = match expected_version(g.expected_version, guards.if_match) {
        Ok(v) => v,
        // `If-Match` and `expected_version` disagree: at most one of them
        // is the match's version, so the other is stale.
        Err(_) => {
            let guards = [g.expected_version, guards.if_match];
            return Err(disagreeing_guards(svc, id, bearer, guards).await);
        }
    };
    let req = ActRequest {
        act,
        seat: g.seat,
        expected_version,
        idempotency_key: guards.idempotency_key,
    };
    Ok(match svc.act(id, bearer.0.as_deref(), req).await? {
        Acted::Applied(view) => respond::json_body(HttpResponse::Ok(), &view),
        Acted::Replayed(body) => HttpResponse::Ok()
            .content_type("application/json")
            .body(body),
    })
}

/// Refuses a seat number no variant has (the document's `Seat` is 0 to
/// 3) with `400`, before any token or seat is checked.
pub(super) fn check_seat(field: &str, seat: Option<Seat>) -> Result<(), Error> {
    match seat {
        Some(s) if s > 3 => Err(Error::InvalidRequest(format!(
            "{field} is a seat number, 0 to 3"
        ))),
        _ => Ok(()),
    }
}

/// The refusal of an action whose two version guards (`expected_version`,
/// `If-Match`) disagree: `409 version_conflict` naming one that is not the
/// match's version (once the token is checked, as for any action).
async fn disagreeing_guards(
    svc: &Service,
    id: &str,
    bearer: Bearer,
    guards: [Option<u64>; 2],
) -> ApiError {
    match svc.legal_moves(id, bearer.0.as_deref(), None).await {
        Err(e) => e.into(),
        Ok(now) => Error::VersionConflict {
            // They disagree, so one of them is not the version now.
            expected: guards
                .into_iter()
                .flatten()
                .find(|&v| v != now.version)
                .unwrap_or_default(),
            current: now.version,
        }
        .into(),
    }
}

macro_rules! action_doc {
    ($name:ident, $path:literal, $body:ty, $schema:ty, $summary:literal, $($example:tt)*) => {
        #[doc = $summary]
        #[utoipa::path(
            tag = "actions",
            params(
                ("id" = String, Path, description = "Match id"),
                ("If-Match" = Option<String>, Header, description = "Act only at this match version, e.g. `\"12\"`"),
                ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer and changes nothing; a seat's key is forgotten once it acts again with another"),
            ),
            request_body(content = $schema, examples($($example)*)),
            security(("seat_token" = []), ("player_key" = [])),
            responses(
                (status = 200, description = "Accepted: the caller's new view", body = MatchView),
                (status = 400, description = "Malformed body or header", body = Problem, content_type = "application/problem+json"),
                (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "The body names another seat", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = "wrong_phase, not_your_turn or version_conflict", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "illegal_move: the detail names the rule", body = Problem, content_type = "application/problem+json"),
                (status = 503, description = "Store unavailable; nothing changed", body = Problem, content_type = "application/problem+json"),
            )
        )]
        #[post($path)]
        pub async fn $name(svc: Data<Service>, id: Path<String>, bearer: Bearer, guards: Guards, body: JsonBytes) -> Result<HttpResponse, ApiError> {
            let (a, g) = <$body>::into_act(&body)?;
            act(&svc, &id, bearer, guards, a, g).await
        }
    };
}

trait IntoAct {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error>;
}

impl IntoAct for GuardBody {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
        Ok((Act::Action(Action::Deal), parse_body(body)?))
    }
}

/// [`IntoAct`] for a typed request: its one field `$field` makes the action
/// `Action::$variant`, its other fields are the guards.
macro_rules! typed_act {
    ($req:ty, $field:ident, $variant:ident) => {
        impl IntoAct for $req {
            fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
                let r: $req = parse_body(body)?;
                Ok((
                    Act::Action(Action::$variant { $field: r.$field }),
                    GuardBody {
                        expected_version: r.expected_version,
                        seat: r.seat,
                    },
                ))
            }
        }
    };
}

typed_act!(TrumpRequest, choice, Trump);
typed_act!(DoubleRequest, call, Double);
typed_act!(PlayRequest, card, Play);

/// `POST …/actions`: one object of `legal_actions` as listed (the
/// `Action` schema), optionally with guards beside its fields.
struct ActionRequest;

impl IntoAct for ActionRequest {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
        let Posted {
            action,
            expected_version,
            seat,
        } = parse_action(parse_body::<Value>(body)?)?;
        Ok((
            Act::Action(action),
            GuardBody {
                expected_version,
                seat,
            },
        ))
    }
}

/// What a resignation forfeits.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResignScope {
    /// The hand in progress (the default).
    #[default]
    Hand,
    /// The whole match, at once.
    Match,
}

/// `POST …/resign`: what to resign, and the guards.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// `hand` (the default): the caller's side forfeits the hand in
    /// progress; `match`: the caller's side loses the match at once.
    #[serde(default)]
    pub scope: ResignScope,
    /// Act only if the match is still at this version.
    #[serde(default, deserialize_with = "whole")]
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    #[schema(value_type = Option<SeatNumber>)]
    #[serde(default, deserialize_with = "whole")]
    pub seat: Option<Seat>,
}

impl IntoAct for ResignRequest {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
        let r: ResignRequest = parse_body(body)?;
        let act = match r.scope {
            ResignScope::Hand => Act::Resign,
            ResignScope::Match => Act::End(Ending::Resigned),
        };
        let guards = GuardBody {
            expected_version: r.expected_version,
            seat: r.seat,
        };
        Ok((act, guards))
    }
}

action_doc!(
    deal,
    "/v1/matches/{id}/deal",
    GuardBody,
    GuardBody,
    "Deal the next hand (the dealer, in phase `awaiting_deal`). The body is optional.",
    ("1: no guards" = (value = json!({}))),
    ("2: at version 0 (a new match)" = (value = json!({"expected_version": 0}))),
);
action_doc!(
    trump,
    "/v1/matches/{id}/trump",
    TrumpRequest,
    TrumpRequest,
    "Name trump, or hand the choice on (phase `choosing_trump`).",
    ("1: botifarra (whoever chooses)" = (value = json!({"choice": "botifarra"}))),
    ("2: hand the choice on (the dealer)" = (value = json!({"choice": "delegate"}))),
);
action_doc!(
    double_call,
    "/v1/matches/{id}/double",
    DoubleRequest,
    DoubleRequest,
    "Double or pass (phase `doubling`).",
    ("1: pass (whoever is to speak)" = (value = json!({"call": "pass"}))),
    ("2: contro (an opponent of the declarer, first to speak)" =
        (value = json!({"call": "contro"}))),
);
action_doc!(
    play,
    "/v1/matches/{id}/play",
    PlayRequest,
    PlayRequest,
    "Play a card (phase `playing`).",
    ("1: 9O (when it is in your hand and legal)" = (value = json!({"card": "9O"}))),
);
action_doc!(
    post_action,
    "/v1/matches/{id}/actions",
    ActionRequest,
    crate::rules::Action,
    "Post any action exactly as `legal_actions` lists it (the `Action` schema), optionally with `expected_version` (and `seat`) beside its fields.",
    ("1: deal (the dealer of a new match)" = (value = json!({"type": "deal"}))),
    ("2: deal at version 0 (a new match)" =
        (value = json!({"type": "deal", "expected_version": 0}))),
    ("3: botifarra (whoever chooses trump)" =
        (value = json!({"type": "trump", "choice": "botifarra"}))),
    ("4: pass (whoever is to double)" = (value = json!({"type": "double", "call": "pass"}))),
    ("5: play 9O (when it is in your hand and legal)" =
        (value = json!({"type": "play", "card": "9O"}))),
);

/// Resign the hand (the default) or the match.
///
/// `scope: hand`: the caller's side forfeits the hand in progress
/// (docs/rules.md 5); the other side records 36 × the multiplier in force.
/// `scope: match`: the caller's side loses the match at once, in any phase
/// (docs/api.md, "Ending a match early"); a rated match is rated (unless
/// no hand was played to its last trick). Never listed in
/// `legal_actions`. The body is optional and may carry the guards.
#[utoipa::path(
    tag = "actions",
    params(
        ("id" = String, Path, description = "Match id"),
        ("If-Match" = Option<String>, Header, description = "Act only at this match version"),
        ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer; a seat's key is forgotten once it acts again with another"),
    ),
    request_body(content = ResignRequest, description = "Optional: the scope and the guards", examples(
        ("1: the hand, no guards" = (value = json!({}))),
        ("2: the whole match" = (value = json!({"scope": "match"}))),
    )),
    security(("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The hand was forfeited, or the match lost: the caller's new view", body = MatchView),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The body names another seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "wrong_phase (no hand in progress, or the match is over) or version_conflict", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches/{id}/resign")]
pub async fn resign(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    guards: Guards,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let (a, g) = ResignRequest::into_act(&body)?;
    act(&svc, &id, bearer, guards, a, g).await
}
