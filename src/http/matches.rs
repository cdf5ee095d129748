//! The `/v1/matches` resources.

use actix_web::web::{Bytes, Data, Path, Query};
use actix_web::{HttpResponse, get, post};
use serde::Deserialize;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::error::{ApiError, Problem};
use super::extract::{Bearer, Guards, expected_version, parse_body};
use crate::rules::view::HistoryView;
use crate::rules::{Action, Call, Card, Seat, TrumpChoice};
use crate::service::{
    Act, ActRequest, CreateMatch, Created, Error, EventsPage, LegalMoves, MatchView, Service,
};

/// Guards any action body may carry.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuardBody {
    /// Act only if the match is still at this version (same as `If-Match`).
    pub expected_version: Option<u64>,
    /// The seat the client acts for; refused with `403` if the token's seat differs.
    pub seat: Option<Seat>,
}

/// `POST …/trump`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TrumpRequest {
    /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` (or `estevet` in abarrotada).
    pub choice: TrumpChoice,
    /// Act only if the match is still at this version.
    pub expected_version: Option<u64>,
    /// The seat the client acts for.
    pub seat: Option<Seat>,
}

/// `POST …/double`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DoubleRequest {
    /// `contro`, `recontro`, `sant_vicenc` or `pass`.
    pub call: Call,
    /// Act only if the match is still at this version.
    pub expected_version: Option<u64>,
    /// The seat the client acts for.
    pub seat: Option<Seat>,
}

/// `POST …/play`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The card, e.g. `9O` (case-insensitive).
    pub card: Card,
    /// Act only if the match is still at this version.
    pub expected_version: Option<u64>,
    /// The seat the client acts for.
    pub seat: Option<Seat>,
}

/// `POST …/actions`: one object of `legal_actions`, optionally with guards.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ActionRequest {
    /// The action, exactly as listed in `legal_actions`.
    #[schema(inline)]
    action: Action,
    /// Act only if the match is still at this version.
    expected_version: Option<u64>,
    /// The seat the client acts for.
    seat: Option<Seat>,
}

/// Query of `GET …/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Return events numbered after this (default 0: from the start).
    pub after: Option<u64>,
    /// Wait up to this long for an event when there is none yet (default 0, at most 30000).
    pub wait_ms: Option<u64>,
    /// Most events to return (default and maximum 1000).
    pub limit: Option<usize>,
}

/// Query of `GET …/legal-moves`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LegalQuery {
    /// A house bot (`random`, `heuristic`, `montecarlo`, `expert`, or a strength level `easy`, `medium`, `hard`, `expert`) whose choice to include as `hint`.
    pub hint: Option<String>,
}

async fn act(
    svc: &Service,
    id: &str,
    bearer: Bearer,
    guards: Guards,
    act: Act,
    g: GuardBody,
) -> Result<HttpResponse, ApiError> {
    let req = ActRequest {
        act,
        seat: g.seat,
        expected_version: expected_version(g.expected_version, guards.if_match)?,
        idempotency_key: guards.idempotency_key,
    };
    let body = svc.act(id, bearer.0.as_deref(), req).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(body))
}

/// Create a match.
///
/// Rules default to RULES.md; seats default to four remote seats. The answer
/// holds one secret token per remote seat — shown only here.
#[utoipa::path(
    tag = "matches",
    request_body(content = CreateMatch, examples(
        ("one player against three house bots" = (value = json!({"seats": [{"kind": "remote", "name": "me"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}], "auto_deal": true}))),
        ("four remote seats, defaults" = (value = json!({}))),
        ("abarrotada for three" = (value = json!({"rules": {"variant": "abarrotada3", "max_hands": 6}, "seats": [{"kind": "remote"}, {"kind": "bot"}, {"kind": "bot"}]}))),
    )),
    responses(
        (status = 201, description = "Created: ids, seat tokens and the spectator view", body = Created),
        (status = 400, description = "Invalid rules, seats or seed", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many matches created", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Store unavailable", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches")]
pub async fn create_match(svc: Data<Service>, body: Bytes) -> Result<HttpResponse, ApiError> {
    let req: CreateMatch = parse_body(&body)?;
    let created = svc.create(req).await?;
    Ok(HttpResponse::Created().json(created))
}

/// The match as the token's seat sees it (spectator view without a token).
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id")),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The view", body = MatchView),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}")]
pub async fn get_match(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(svc.view(&id, bearer.0.as_deref()).await?))
}

macro_rules! action_doc {
    ($name:ident, $path:literal, $body:ty, $summary:literal) => {
        #[doc = $summary]
        #[utoipa::path(
            tag = "actions",
            params(
                ("id" = String, Path, description = "Match id"),
                ("If-Match" = Option<String>, Header, description = "Act only at this match version, e.g. `\"12\"`"),
                ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer and changes nothing; a seat's key is forgotten once it acts again with another"),
            ),
            request_body = $body,
            security(("seat_token" = [])),
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
        pub async fn $name(svc: Data<Service>, id: Path<String>, bearer: Bearer, guards: Guards, body: Bytes) -> Result<HttpResponse, ApiError> {
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

impl IntoAct for ActionRequest {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
        let mut v: Value = parse_body(body)?;
        let obj = v
            .as_object_mut()
            .ok_or_else(|| Error::InvalidRequest("the body must be an action object".into()))?;
        let guard_field =
            |obj: &mut serde_json::Map<String, Value>, k: &str| -> Result<Option<u64>, Error> {
                match obj.remove(k) {
                    None | Some(Value::Null) => Ok(None),
                    Some(x) => x.as_u64().map(Some).ok_or_else(|| {
                        Error::InvalidRequest(format!("{k} must be a non-negative integer"))
                    }),
                }
            };
        let expected_version = guard_field(obj, "expected_version")?;
        let seat = guard_field(obj, "seat")?
            .map(|s| {
                u8::try_from(s)
                    .map_err(|_| Error::InvalidRequest("seat must be a seat number".into()))
            })
            .transpose()?;
        let action: Action = serde_json::from_value(v).map_err(|e| {
            Error::InvalidRequest(format!("not an action ({e}); post one object of legal_actions, like {{\"type\": \"play\", \"card\": \"9O\"}}"))
        })?;
        Ok((
            Act::Action(action),
            GuardBody {
                expected_version,
                seat,
            },
        ))
    }
}

struct ResignRequest;

impl IntoAct for ResignRequest {
    fn into_act(body: &[u8]) -> Result<(Act, GuardBody), Error> {
        Ok((Act::Resign, parse_body(body)?))
    }
}

action_doc!(
    deal,
    "/v1/matches/{id}/deal",
    GuardBody,
    "Deal the next hand (the dealer, in phase `awaiting_deal`)."
);
action_doc!(
    trump,
    "/v1/matches/{id}/trump",
    TrumpRequest,
    "Name trump, or hand the choice on (phase `choosing_trump`)."
);
action_doc!(
    double,
    "/v1/matches/{id}/double",
    DoubleRequest,
    "Double or pass (phase `doubling`)."
);
action_doc!(
    play,
    "/v1/matches/{id}/play",
    PlayRequest,
    "Play a card (phase `playing`)."
);
action_doc!(
    post_action,
    "/v1/matches/{id}/actions",
    ActionRequest,
    "Post any action exactly as listed in `legal_actions`."
);

/// Resign: the caller's side forfeits the hand in progress (RULES.md 5).
///
/// The other side records 36 × the multiplier in force. Never listed in
/// `legal_actions`. The body may carry the guards.
#[utoipa::path(
    tag = "actions",
    params(
        ("id" = String, Path, description = "Match id"),
        ("If-Match" = Option<String>, Header, description = "Act only at this match version"),
        ("Idempotency-Key" = Option<String>, Header, description = "A retry of this seat's latest action with the same key returns the first answer; a seat's key is forgotten once it acts again with another"),
    ),
    request_body(content = Option<GuardBody>),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The hand was forfeited: the caller's new view", body = MatchView),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The body names another seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No hand in progress, or version_conflict", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches/{id}/resign")]
pub async fn resign(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    guards: Guards,
    body: Bytes,
) -> Result<HttpResponse, ApiError> {
    let (a, g) = ResignRequest::into_act(&body)?;
    act(&svc, &id, bearer, guards, a, g).await
}

/// The caller's legal actions now (empty when it is not its turn).
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id"), LegalQuery),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The legal actions", body = LegalMoves),
        (status = 400, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/legal-moves")]
pub async fn legal_moves(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    q: Query<LegalQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(
        svc.legal_moves(&id, bearer.0.as_deref(), q.hint.as_deref())
            .await?,
    ))
}

/// Events after `after`, as the caller may see them; a long poll with `wait_ms`.
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id"), EventsQuery),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The events", body = EventsPage),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/events")]
pub async fn events(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    q: Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = q.limit.unwrap_or(svc.limits().max_events_page);
    let page = svc
        .events(
            &id,
            bearer.0.as_deref(),
            q.after.unwrap_or(0),
            q.wait_ms.unwrap_or(0),
            limit,
        )
        .await?;
    Ok(HttpResponse::Ok().json(page))
}

/// The full record: every hand's deal, calls, tricks and score. A hand's
/// cards are shown once it is over; the seed once the match is over.
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id")),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The record", body = HistoryView),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/history")]
pub async fn history(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(svc.history(&id, bearer.0.as_deref()).await?))
}
