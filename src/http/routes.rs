//! Every operation of the API, registered in one place: the server serves
//! them ([`super::server`]) and the OpenAPI document is collected from them
//! ([`super::openapi`]).

use utoipa_actix_web::service_config::ServiceConfig;

use super::ops;
use super::{actions, challenges, matches, players, queue, ratings, stream, tables};

/// Registers every operation of the API, in the order the document lists
/// them (the web client and Swagger UI are not operations of the API).
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(matches::create_match)
        .service(matches::get_match)
        .service(actions::deal)
        .service(actions::trump)
        .service(actions::double)
        .service(actions::play)
        .service(actions::post_action)
        .service(actions::resign)
        .service(matches::legal_moves)
        .service(matches::events)
        .service(stream::stream_events)
        .service(matches::history)
        .service(players::create_player)
        .service(players::me)
        .service(players::rotate_key)
        .service(players::revoke_key)
        .service(players::events)
        .service(players::profile)
        .service(ratings::player_ratings)
        .service(ratings::leaderboard)
        .service(tables::create_table)
        .service(tables::get_table)
        .service(tables::join)
        .service(tables::leave)
        .service(tables::lobby)
        .service(tables::invite)
        .service(tables::join_invite)
        .service(challenges::create_challenge)
        .service(challenges::list_challenges)
        .service(challenges::get_challenge)
        .service(challenges::accept_challenge)
        .service(challenges::decline_challenge)
        .service(challenges::cancel_challenge)
        .service(queue::join_queue)
        .service(queue::get_ticket)
        .service(queue::leave_queue)
        .service(ops::health::healthz)
        .service(ops::health::readyz)
        .service(ops::metrics::metrics_text);
}
