//! Rated matches always have a clock: a player who stops moving is played
//! for by its house bot on the server's clock, with nobody reading, and
//! the match ends and is rated once.

use std::sync::Arc;
use std::time::Duration;

use botifarra::lobby::records::PlayerKind;
use botifarra::lobby::{Lobby, NewPlayer};
use botifarra::rating::rated_rules;
use botifarra::rules::Variant;
use botifarra::service::{Limits, NewMatch, NewSeat, SeatKind, Service};
use reqwest::StatusCode;
use serde_json::Value;
use tokio::time::Instant;

use crate::app::{Backend, lobby_store_for, spawn_service, store_for, unlimited};
use crate::backends::both_stores;
use crate::ratings::{rated_match, rated_match_with};

async fn lobby(backend: Backend, limits: Limits) -> Lobby {
    let store = store_for(backend, None).await;
    Lobby::new(
        Service::new(store, limits).unwrap(),
        lobby_store_for(backend).await,
    )
}

async fn a_silent_player_s_rated_match_ends_on_the_clock_rated_once(backend: Backend) {
    // No abandonment (tests/api/endings.rs has it): the stand-in plays
    // the silent seat to the match's end.
    let limits = Limits {
        rated_bot_clock_ms: 20,
        abandon_after_missed: 0,
        ..Limits::default()
    };
    let lobby = lobby(backend, limits).await;
    let (id, players) = rated_match(&lobby, Variant::Pairs, 1).await;
    let rec = lobby.service().record(&id).await.unwrap();
    assert_eq!(rec.move_timeout_ms, Some(20), "the bots' rated clock");
    // The player never moves, and nobody reads the match.
    let app = spawn_service(lobby.clone(), unlimited());
    let me = format!("/v1/players/{}", players[0].id);
    let rated = |p: &Value| p["ratings"].as_array().is_some_and(|r| !r.is_empty());
    let until = Instant::now() + Duration::from_secs(90);
    loop {
        let p = app.get(&me, None).await;
        assert_eq!(p.status, StatusCode::OK, "{}", p.text);
        if rated(&p.json) {
            break;
        }
        assert!(Instant::now() < until, "never rated: {}", p.text);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let rec = lobby.service().record(&id).await.unwrap();
    assert!(rec.game.winner.is_some(), "the match ended");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ratings = app.get(&format!("{me}/ratings"), None).await.json;
    assert_eq!(ratings["pools"][0]["games"], 1, "rated once: {ratings}");
    assert_eq!(app.get(&me, None).await.json["matches_played"], 1);
}

async fn rated_clocks_default_by_who_plays_and_an_asked_clock_stands(backend: Backend) {
    let lobby = lobby(backend, Limits::default()).await;
    let (bots, _) = rated_match(&lobby, Variant::Pairs, 2).await;
    let asked = NewMatch {
        move_timeout_ms: Some(5_000),
        ..NewMatch::default()
    };
    let (chosen, _) = rated_match_with(&lobby, Variant::Pairs, 2, asked).await;
    let svc = lobby.service();
    let clock = |id: String| {
        let svc = Arc::clone(svc);
        async move { svc.record(&id).await.unwrap().move_timeout_ms }
    };
    assert_eq!(
        clock(bots).await,
        Some(Limits::default().rated_bot_clock_ms)
    );
    assert_eq!(clock(chosen).await, Some(5_000));
    // A person at a client seat gets the people's clock.
    let person = lobby
        .register(NewPlayer {
            name: "a person".into(),
            kind: PlayerKind::Human,
        })
        .await
        .unwrap();
    let bot = || NewSeat {
        kind: SeatKind::Bot,
        bot: Some("random".into()),
        ..NewSeat::default()
    };
    let seats = vec![
        NewSeat {
            player: Some(person.player.id.clone()),
            ..NewSeat::default()
        },
        bot(),
        bot(),
        bot(),
    ];
    let created = svc
        .create(NewMatch {
            rules: rated_rules(Variant::Pairs),
            seats: Some(seats),
            auto_deal: true,
            rated: true,
            ..NewMatch::default()
        })
        .await
        .unwrap();
    assert_eq!(
        clock(created.match_id).await,
        Some(Limits::default().rated_clock_ms)
    );
}

both_stores!(
    a_silent_player_s_rated_match_ends_on_the_clock_rated_once,
    rated_clocks_default_by_who_plays_and_an_asked_clock_stands,
);
