//! Ratings: a pool's leaderboard and a player's rating history, both
//! public.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, get};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{Leaderboard, PlayerRatings};
use crate::http::problem::{ApiError, Problem};
use crate::lobby::Lobby;
use crate::rules::Variant;
use crate::service::Error;

/// A `variant` query value.
fn variant_of(v: &str) -> Result<Variant, ApiError> {
    serde_json::from_value::<Variant>(serde_json::Value::String(v.to_string())).map_err(|_| {
        ApiError::from(Error::InvalidRequest(
            "variant is pairs, abarrotada or abarrotada3".into(),
        ))
    })
}

/// Query of `GET /v1/players/{id}/ratings`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// Only this variant's pool: `pairs`, `abarrotada` or `abarrotada3`.
    #[param(value_type = Option<crate::rules::Variant>, example = "pairs")]
    pub variant: Option<String>,
}

/// A player's ratings and rating history.
///
/// Per pool it has played rated matches in: the rating, deviation,
/// volatility, rated matches played and whether the rating is still
/// provisional, and its latest 100 rated matches, newest first (each with
/// the rating before and after). A house bot (`house-<bot>`) shows its
/// fixed anchor in every pool and no history.
#[utoipa::path(
    tag = "ratings",
    operation_id = "player_ratings",
    params(("id" = String, Path, description = "Player id"), RatingsQuery),
    responses(
        (status = 200, description = "The ratings", body = PlayerRatings),
        (status = 400, description = "Bad variant", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}/ratings")]
pub async fn player_ratings(
    lobby: Data<Lobby>,
    id: Path<String>,
    q: Query<RatingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let variant = q.variant.as_deref().map(variant_of).transpose()?;
    let (player, pools, history) = lobby.ratings(&id, variant).await?;
    Ok(HttpResponse::Ok().json(PlayerRatings::of(&player, &pools, &history)))
}

/// Query of `GET /v1/leaderboard`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// The pool: `pairs`, `abarrotada` or `abarrotada3`.
    #[param(value_type = crate::rules::Variant, example = "pairs")]
    pub variant: String,
    /// The `next` cursor of the previous page.
    #[param(pattern = "^[0-9]{7}:[a-z0-9-]{1,52}$", max_length = 60)]
    pub after: Option<String>,
    /// Most players per page (1 to 100, default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
}

/// A pool's leaderboard: its players by rating, highest first.
///
/// Every player with a rated match finished in the pool, and the house
/// bots at their fixed anchor ratings (`anchor: true`; random 700, easy
/// 1200, medium and heuristic 1500, hard and montecarlo 1800, expert
/// 1850), a page at a time: pass `next` as `after` for the next page.
#[utoipa::path(
    tag = "ratings",
    operation_id = "leaderboard",
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/leaderboard")]
pub async fn leaderboard(
    lobby: Data<Lobby>,
    q: Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let variant = variant_of(&q.variant)?;
    let page = lobby
        .leaderboard(variant, q.after.as_deref(), q.limit.unwrap_or(50))
        .await?;
    Ok(HttpResponse::Ok().json(Leaderboard::from(page)))
}
