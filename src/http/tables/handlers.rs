//! `/v1/tables`, `/v1/lobby` and `/v1/invites`: tables with open seats,
//! the list of public ones, invite codes, joining and leaving.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{CreateTable, JoinTable, Joined, LobbyPage, Table, TableCreated};
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::{Join, Lobby};
use crate::rules::Variant;
use crate::service::Error;

/// Create a table with open seats.
///
/// Seats are `open` (anyone may join), `remote` (its token is in the
/// answer; with `player`, that player's key acts for it too) or `bot`. A
/// seat names the caller's own `player` only with that player's key as
/// the bearer; a seat naming another player is `reserved` for it: no
/// token is issued for it, that player hears `table_invited` and takes it
/// with its own key (`POST /v1/tables/{id}/join`) or declines it
/// (`POST /v1/tables/{id}/decline`). Reserved seats count among the
/// caller's and the invited player's pending invitations (at most 50
/// each way). A
/// `public` table is listed in `GET /v1/lobby`; a `private` one is joined
/// with the invite code of the answer. When the last open seat is taken,
/// the match is created under the table's id. A table whose seats are not
/// all taken by `expires_at` expires.
#[utoipa::path(
    tag = "tables",
    security((), ("player_key" = [])),
    request_body(content = CreateTable, examples(
        ("me against three open seats" = (value = json!({"seats": [{"kind": "remote", "name": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}], "auto_deal": true}))),
        ("two bots, two open seats, private" = (value = json!({"seats": [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}], "visibility": "private", "expires_in_s": 300}))),
    )),
    responses(
        (status = 201, description = "Created: the table, its invite code (private) and the remote seats' tokens", body = TableCreated),
        (status = 400, description = "Invalid rules, seats, player or expiry", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seat names a player, and the bearer is not a current player key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A seat names a player without a key (`consent_required`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The caller has 50 pending invitations of its own (`too_many_challenges`), or a player a seat is reserved for has 50 waiting for its answer (`inbox_full`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many created", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables")]
pub async fn create_table(
    tables: Data<Lobby>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let req: CreateTable = parse_body(&body)?;
    let created = tables.create_table(req.into(), bearer.0.as_deref()).await?;
    let location = format!("/v1/tables/{}", created.table.table_id);
    Ok(respond::created(location).json(TableCreated::from(created)))
}

/// A table: its seats, who sits there, and its match once started.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "Table id")),
    responses(
        (status = 200, description = "The table", body = Table),
        (status = 404, description = "No such table", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tables/{id}")]
pub async fn get_table(tables: Data<Lobby>, id: Path<String>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(Table::from(tables.table(&id).await?)))
}

/// Joins table `id`; `invited` when the caller came with its invite code
/// (the only way into a private table).
async fn join_table(
    tables: &Lobby,
    id: &str,
    invited: bool,
    bearer: Bearer,
    body: &[u8],
) -> Result<HttpResponse, ApiError> {
    let req: JoinTable = parse_body(body)?;
    let req = Join {
        invited,
        ..req.into()
    };
    let joined = tables.join(id, bearer.0.as_deref(), req).await?;
    Ok(HttpResponse::Ok().json(Joined::from(joined)))
}

/// Take a seat: as the player whose API key is sent, or anonymously
/// without one. A player a seat is reserved for takes that seat (by the
/// table's id even when the table is private); seats reserved for others
/// are never open to it. The answer holds the seat's token (shown only here); the
/// join that takes the last seat starts the match. A private table is
/// joined only with its invite code (`POST /v1/invites/{code}/join`): by
/// its id it is `403 forbidden`, and nothing changes.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "Table id")),
    security((), ("player_key" = [])),
    request_body(content = JoinTable, examples(
        ("the first open seat" = (value = json!({}))),
        ("a named guest in seat 2" = (value = json!({"seat": 2, "name": "Pere"}))),
        ("opposite a partner" = (description = "The id is a placeholder: put that of a player seated at the table (its `seats[].player`), with the key of a player who may join.", value = json!({"opposite": "p6f1c0a9e2b4d8c7a5e3f1b2c"}))),
        ("a pair together" = (value = json!({"name": "Anna", "partner": {"name": "Jordi"}}))),
    )),
    responses(
        (status = 200, description = "Seated: the token, and the table", body = Joined),
        (status = 400, description = "Bad request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A credential that is not a player key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A private table: join it with its invite code (`forbidden`)", body = Problem, content_type = "application/problem+json",
            example = json!({"type": "urn:botifarra:problem:forbidden", "title": "Forbidden", "status": 403, "detail": "this table is private: join it with its invite code, at POST /v1/invites/{code}/join", "code": "forbidden"})),
        (status = 404, description = "No such table", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No suitable seat open (`seat_taken`)", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "The table expired", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables/{id}/join")]
pub async fn join(
    tables: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    join_table(&tables, &id, false, bearer, &body).await
}

/// Decline the seat reserved for the caller (its key) at a table: the
/// seat is open again for anyone, and the players seated hear
/// `seat_freed`.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "Table id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Declined: the table", body = Table),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No seat here is reserved for this player (`seat_taken`), or the match has started (`table_started`)", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "The table expired", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables/{id}/decline")]
pub async fn decline(
    tables: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let table = tables.decline_seat(&id, &key).await?;
    Ok(HttpResponse::Ok().json(Table::from(table)))
}

/// Leave a table before its match starts: the seat is open again and its
/// token stops being a seat. Send the seat token, or the seated player's key.
#[utoipa::path(
    tag = "tables",
    params(("id" = String, Path, description = "Table id")),
    security(("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "Left: the table", body = Table),
        (status = 401, description = "The credential holds no seat here", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The match has started (`table_started`)", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "The table expired", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables/{id}/leave")]
pub async fn leave(
    tables: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let table = tables.leave(&id, bearer.0.as_deref()).await?;
    Ok(HttpResponse::Ok().json(Table::from(table)))
}

/// Query of `GET /v1/lobby`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LobbyQuery {
    /// Only tables of this variant: `pairs`, `abarrotada` or `abarrotada3`.
    #[param(pattern = "^(pairs|abarrotada|abarrotada3)$")]
    pub variant: Option<String>,
    /// The `next` cursor of the previous page.
    #[param(pattern = "^[A-Za-z0-9:]*$", max_length = 100)]
    pub after: Option<String>,
    /// Most tables per page (1 to 100, default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
}

/// Public tables with open seats, oldest first, a page at a time.
#[utoipa::path(
    tag = "tables",
    params(LobbyQuery),
    responses(
        (status = 200, description = "A page of tables", body = LobbyPage),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/lobby")]
pub async fn lobby(tables: Data<Lobby>, q: Query<LobbyQuery>) -> Result<HttpResponse, ApiError> {
    let variant = match &q.variant {
        None => None,
        Some(v) => Some(
            serde_json::from_value::<Variant>(serde_json::Value::String(v.clone())).map_err(
                |_| {
                    ApiError::from(Error::InvalidRequest(
                        "variant is pairs, abarrotada or abarrotada3".into(),
                    ))
                },
            )?,
        ),
    };
    let page = tables
        .lobby(variant, q.after.as_deref(), q.limit.unwrap_or(50))
        .await?;
    Ok(HttpResponse::Ok().json(LobbyPage::from(page)))
}

/// The table an invite code opens. Requests under `/v1/invites/` are
/// rate-limited per client address, so codes cannot be guessed.
#[utoipa::path(
    tag = "tables",
    params(("code" = String, Path, description = "The invite code (8 characters; case and dashes ignored)")),
    responses(
        (status = 200, description = "The table", body = Table),
        (status = 404, description = "No table has this code", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many invite requests", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/invites/{code}")]
pub async fn invite(tables: Data<Lobby>, code: Path<String>) -> Result<HttpResponse, ApiError> {
    let id = tables.table_of_invite(&code).await?;
    Ok(HttpResponse::Ok().json(Table::from(tables.table(&id).await?)))
}

/// Join the table of an invite code, as `POST /v1/tables/{id}/join` does.
#[utoipa::path(
    tag = "tables",
    params(("code" = String, Path, description = "The invite code")),
    security((), ("player_key" = [])),
    request_body(content = JoinTable, examples(("the first open seat" = (value = json!({"name": "Pere"}))))),
    responses(
        (status = 200, description = "Seated: the token, and the table", body = Joined),
        (status = 404, description = "No table has this code", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No suitable seat open (`seat_taken`)", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "The table expired", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many invite requests", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/invites/{code}/join")]
pub async fn join_invite(
    tables: Data<Lobby>,
    code: Path<String>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let id = tables.table_of_invite(&code).await?;
    join_table(&tables, &id, true, bearer, &body).await
}
