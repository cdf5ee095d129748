//! `GET /v1/players/me/matches`: the caller's ongoing matches, then its
//! finished ones, newest first, a page at a time; and the list of ongoing
//! matches a fresh player event stream opens with.

use actix_web::web::{Data, Query};
use actix_web::{HttpResponse, get};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::http::middleware::extract::{Bearer, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::lobby::{self, Lobby, MAX_MATCHES_PAGE, MatchesFilter};
use crate::rules::{Phase, Seat};
use crate::service::rfc3339;

/// The page size when none is asked.
const DEFAULT_PAGE: usize = 20;

/// Which of the caller's matches to list.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchesStatus {
    /// The ongoing ones, then the finished ones (the default).
    #[default]
    All,
    /// Only the ongoing ones.
    Ongoing,
    /// Only the finished ones.
    Finished,
}

/// Query of `GET /v1/players/me/matches`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MatchesQuery {
    /// `all` (default), `ongoing` or `finished`.
    #[param(inline)]
    pub status: Option<MatchesStatus>,
    /// The `next` of the previous page.
    pub cursor: Option<String>,
    /// Most matches on the page (default 20, at most 100).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
}

/// One of the caller's matches, as stored now.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerMatch {
    /// The match id.
    pub match_id: String,
    /// The caller's seat (its token is the caller's key).
    #[schema(value_type = crate::http::openapi::schema::SeatNumber)]
    pub seat: Seat,
    /// The variant: `pairs`, `abarrotada` or `abarrotada3`.
    pub variant: String,
    /// Whether the match is rated.
    pub rated: bool,
    /// When the match was created (RFC 3339).
    pub created_at: String,
    /// The match's phase.
    pub phase: Phase,
    /// Whether the match is over.
    pub over: bool,
    /// The seat to act, null once the match is over.
    #[schema(value_type = Option<crate::http::openapi::schema::SeatNumber>)]
    pub turn: Option<Seat>,
    /// Whether the caller's seat is to act.
    pub your_turn: bool,
    /// The match version (`expected_version` of the next action).
    pub version: u64,
    /// The number of the match's last event: follow the match from here.
    pub last_seq: u64,
}

impl From<lobby::PlayerMatch> for PlayerMatch {
    fn from(m: lobby::PlayerMatch) -> PlayerMatch {
        let lobby::PlayerMatch {
            match_id,
            seat,
            variant,
            rated,
            created_ms,
            phase,
            turn,
            your_turn,
            version,
            last_seq,
        } = m;
        PlayerMatch {
            match_id,
            seat,
            variant,
            rated,
            created_at: rfc3339(created_ms),
            over: phase == Phase::MatchOver,
            phase,
            turn,
            your_turn,
            version,
            last_seq,
        }
    }
}

/// A page of the caller's matches.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerMatchesPage {
    /// The ongoing matches first, then the finished ones, each newest
    /// first.
    pub matches: Vec<PlayerMatch>,
    /// The `cursor` of the next page; null once the list is done.
    pub next: Option<String>,
}

impl From<lobby::PlayerMatchesPage> for PlayerMatchesPage {
    fn from(p: lobby::PlayerMatchesPage) -> PlayerMatchesPage {
        let lobby::PlayerMatchesPage { matches, next } = p;
        PlayerMatchesPage {
            matches: matches.into_iter().map(PlayerMatch::from).collect(),
            next,
        }
    }
}

/// The caller's matches: the ongoing ones, then the last finished ones,
/// each newest first, with the caller's seat and whether it is to act. A
/// restarted bot finds its games here. Each match is read as stored now; a
/// match no longer stored (see `MATCH_TTL_SECS`) is left out.
#[utoipa::path(
    tag = "players",
    params(MatchesQuery),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "A page of the caller's matches", body = PlayerMatchesPage),
        (status = 400, description = "Bad query or cursor", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me/matches")]
pub async fn my_matches(
    lobby: Data<Lobby>,
    bearer: Bearer,
    q: Query<MatchesQuery>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let (_, player) = lobby.core().authenticate(&key).await?;
    let filter = match q.status.unwrap_or_default() {
        MatchesStatus::All => MatchesFilter::All,
        MatchesStatus::Ongoing => MatchesFilter::Ongoing,
        MatchesStatus::Finished => MatchesFilter::Finished,
    };
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    let page = lobby
        .player_matches(&player.id, filter, q.cursor.as_deref(), limit)
        .await?;
    Ok(HttpResponse::Ok().json(PlayerMatchesPage::from(page)))
}

/// The event a fresh player stream opens with: the player's ongoing
/// matches (`type` `matches`).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OngoingMatches {
    /// Always `matches`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The player's ongoing matches, newest first (at most 100).
    pub ongoing: Vec<PlayerMatch>,
    /// Where `GET /v1/players/me/matches?status=ongoing` goes on when
    /// there are more; null otherwise.
    pub next: Option<String>,
    /// The number of the player's last event when the list was read: the
    /// list accounts for every event up to it.
    pub last_seq: u64,
}

/// The ongoing matches of `player`, read after its event `last_seq`.
///
/// # Errors
/// `StoreUnavailable`.
pub async fn ongoing(
    lobby: &Lobby,
    player: &str,
    last_seq: u64,
) -> Result<OngoingMatches, ApiError> {
    let page = lobby
        .player_matches(player, MatchesFilter::Ongoing, None, MAX_MATCHES_PAGE)
        .await?;
    let page = PlayerMatchesPage::from(page);
    Ok(OngoingMatches {
        kind: "matches",
        ongoing: page.matches,
        next: page.next,
        last_seq,
    })
}
