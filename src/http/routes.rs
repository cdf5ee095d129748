//! Every operation of the API, registered in one place: the server serves
//! them ([`super::server`]) and the OpenAPI document is collected from them
//! ([`super::openapi()`]).

use utoipa_actix_web::service_config::ServiceConfig;

use super::{challenges, matches, ops, players, queue, ratings, tables, tournaments};

/// Registers every operation of the API, in the order the document lists
/// them (the web client and Swagger UI are not operations of the API).
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(matches::handlers::create_match)
        .service(matches::handlers::get_match)
        .service(matches::actions::deal)
        .service(matches::actions::trump)
        .service(matches::actions::double_call)
        .service(matches::actions::play)
        .service(matches::actions::post_action)
        .service(matches::actions::resign)
        .service(matches::endings::abort)
        .service(matches::endings::claim)
        .service(matches::handlers::legal_moves)
        .service(matches::handlers::events)
        .service(matches::stream::stream_events)
        .service(matches::handlers::history)
        .service(matches::analysis::analysis)
        .service(players::handlers::create_player)
        .service(players::handlers::me)
        .service(players::handlers::rotate_key)
        .service(players::handlers::revoke_key)
        .service(players::handlers::events)
        .service(players::matches::my_matches)
        .service(players::handlers::profile)
        .service(ratings::handlers::player_ratings)
        .service(ratings::handlers::leaderboard)
        .service(tables::handlers::create_table)
        .service(tables::handlers::get_table)
        .service(tables::handlers::join)
        .service(tables::handlers::leave)
        .service(tables::handlers::decline)
        .service(tables::handlers::lobby)
        .service(tables::handlers::invite)
        .service(tables::handlers::join_invite)
        .service(challenges::handlers::create_challenge)
        .service(challenges::handlers::list_challenges)
        .service(challenges::handlers::get_challenge)
        .service(challenges::handlers::accept_challenge)
        .service(challenges::handlers::decline_challenge)
        .service(challenges::handlers::cancel_challenge)
        .service(challenges::handlers::rematch)
        .service(queue::parties::propose_party)
        .service(queue::parties::get_party)
        .service(queue::parties::accept_party)
        .service(queue::parties::decline_party)
        .service(queue::parties::cancel_party)
        .service(queue::handlers::join_queue)
        .service(queue::handlers::get_ticket)
        .service(queue::handlers::leave_queue)
        .service(tournaments::handlers::create_tournament)
        .service(tournaments::handlers::list_tournaments)
        .service(tournaments::handlers::get_tournament)
        .service(tournaments::handlers::get_round)
        .service(tournaments::handlers::enter_tournament)
        .service(tournaments::handlers::withdraw)
        .service(tournaments::handlers::start)
        .service(ops::health::healthz)
        .service(ops::health::readyz)
        .service(ops::metrics::metrics_text);
}
