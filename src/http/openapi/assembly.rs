//! The OpenAPI document, assembled: the routes' own annotations
//! (collected by utoipa-actix-web from [`routes`]), then the answers every
//! operation shares ([`super::common_errors`]), the headers the middleware
//! sets ([`super::spec_headers`]), the notes no schema can carry
//! ([`super::spec_notes`]) and the finishing touches
//! ([`super::schema::document`]).

use actix_web::App;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use super::{common_errors, schema, spec_headers, spec_notes};
use crate::http::routes::routes;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Botifarra engine",
        version = "1.0.0",
        description = "The reference game server for Botifarra, the Catalan trick-taking card game.\n\n\
            Create a match, then act for a seat with its token (`Authorization: Bearer <token>`, or the \
            Authorize button here). Every view lists `legal_actions`: post one of them verbatim to \
            `/v1/matches/{id}/actions`. Every error is `application/problem+json` with a stable `code`.",
        license(name = "MIT", identifier = "MIT")
    ),
    servers((url = "/", description = "The server that serves this document")),
    modifiers(&SeatTokenScheme),
    tags(
        (name = "matches", description = "Create matches and read them"),
        (name = "actions", description = "Act for a seat"),
        (name = "players", description = "Players, their API keys and event streams"),
        (name = "tables", description = "Tables with open seats, the lobby, invite codes"),
        (name = "ratings", description = "Glicko-2 ratings of rated matches: leaderboards and rating histories"),
        (name = "challenges", description = "Challenge players to a match, rated or casual"),
        (name = "queue", description = "Matchmaking: queue for a match by rating"),
        (name = "tournaments", description = "Swiss, arena and duplicate tournaments: entries, standings, rounds and travellers"),
        (name = "health", description = "Liveness and readiness"),
    )
)]
struct ApiDoc;

struct SeatTokenScheme;

impl Modify for SeatTokenScheme {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        let components = api.components.get_or_insert_with(Default::default);
        let mut scheme = Http::new(HttpAuthScheme::Bearer);
        scheme.description =
            Some("The secret token of one seat, from the match creation answer.".into());
        components.add_security_scheme("seat_token", SecurityScheme::Http(scheme));
        let mut player = Http::new(HttpAuthScheme::Bearer);
        player.description = Some(
            "A player's API key (`bp_…`), from `POST /v1/players`: acts for the player and for \
             its seats in any match."
                .into(),
        );
        components.add_security_scheme("player_key", SecurityScheme::Http(player));
        let mut metrics = Http::new(HttpAuthScheme::Bearer);
        metrics.description =
            Some("The server's metrics token (`--metrics-token`), when it sets one.".into());
        components.add_security_scheme("metrics_token", SecurityScheme::Http(metrics));
    }
}

/// The OpenAPI document, generated from the handlers and types.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut api = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes)
        .split_for_parts()
        .1;
    common_errors::add(&mut api);
    spec_headers::add(&mut api);
    spec_notes::add(&mut api);
    schema::document::finish(&mut api);
    schema::unions::bare_refs(&mut api);
    api
}

/// The OpenAPI document as pretty JSON (what `openapi/openapi.json` holds).
///
/// # Errors
/// When the document does not serialize (a bug in a schema).
pub fn openapi_json() -> Result<String, serde_json::Error> {
    let mut s = openapi().to_pretty_json()?;
    s.push('\n');
    Ok(s)
}
