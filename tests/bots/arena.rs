//! The arena: duplicate deals, match mode, and an external bot over HTTP.

use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::{App, HttpResponse, HttpServer, web};
use botifarra::arena::{ArenaArgs, ArenaError, run};
use botifarra::rules::Variant;
use serde_json::{Value, json};

fn args(a: &str, b: &str, deals: u32, variant: Variant) -> ArenaArgs {
    ArenaArgs {
        a: a.to_string(),
        b: b.to_string(),
        deals,
        matches: None,
        variant,
        seed: 11,
        threads: Some(2),
        quiet: true,
    }
}

#[test]
fn a_deterministic_bot_against_itself_scores_exactly_zero_over_duplicate_deals() {
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let r = run(&args("heuristic", "heuristic", 30, variant)).unwrap();
        assert_eq!(r.recorded.mean, 0.0, "{variant:?}");
        assert_eq!(r.points.mean, 0.0, "{variant:?}");
        let games = if variant == Variant::Abarrotada3 {
            6
        } else {
            2
        };
        assert_eq!(r.hands, 30 * games);
    }
}

#[test]
fn heuristic_beats_random_and_the_report_prints_a_table() {
    let r = run(&args("heuristic", "random", 200, Variant::Pairs)).unwrap();
    assert!(r.recorded.low() > 0.0, "{r}");
    assert!(r.a.decisions > 0 && r.b.decisions > 0);
    let text = r.to_string();
    assert!(text.contains("| recorded points per deal |"), "{text}");
    assert!(text.contains("| heuristic |"), "{text}");
}

#[test]
fn match_mode_reports_a_win_rate() {
    let mut a = args("heuristic", "random", 0, Variant::Pairs);
    a.matches = Some(6);
    let r = run(&a).unwrap();
    let wins = r.wins.expect("a win rate in match mode");
    assert!((0.0..=1.0).contains(&wins.mean));
    assert!(r.hands >= 12, "whole matches have several hands");
    assert!(r.to_string().contains("win rate"));
}

#[test]
fn an_unknown_bot_is_refused() {
    assert!(matches!(
        run(&args("nobody", "random", 1, Variant::Pairs)),
        Err(ArenaError::UnknownBot(_))
    ));
}

/// A tiny external bot: an HTTP endpoint that receives the seat's view and
/// answers one of its legal actions (or, with `honest = false`, an action
/// that is never legal). Returns its URL.
fn spawn_external_bot(honest: bool) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let counter = web::Data::new(AtomicU64::new(0));
            HttpServer::new(move || {
                App::new().app_data(counter.clone()).route(
                    "/act",
                    web::post().to(
                        move |view: web::Json<Value>, n: web::Data<AtomicU64>| async move {
                            if !honest {
                                return HttpResponse::Ok()
                                    .json(json!({"type": "play", "card": "13O"}));
                            }
                            let legal = view["legal_actions"]
                                .as_array()
                                .cloned()
                                .unwrap_or_default();
                            let i = n.fetch_add(7, Ordering::Relaxed) as usize % legal.len().max(1);
                            HttpResponse::Ok().json(legal.get(i).cloned().unwrap_or(Value::Null))
                        },
                    ),
                )
            })
            .workers(1)
            .listen(listener)
            .unwrap()
            .run()
            .await
        })
    });
    format!("http://127.0.0.1:{port}/act")
}

#[test]
fn an_external_http_bot_plays_the_arena() {
    let url = spawn_external_bot(true);
    let r = run(&args(&url, "heuristic", 6, Variant::Pairs)).unwrap();
    assert!(
        r.a.decisions >= 6 * 2 * 2 * 12,
        "the external bot played its cards: {}",
        r.a.decisions
    );
    assert_eq!(r.hands, 12);
}

#[test]
fn an_external_bot_answering_an_illegal_action_stops_the_arena_with_a_clear_error() {
    let url = spawn_external_bot(false);
    let err = run(&args(&url, "random", 2, Variant::Pairs)).unwrap_err();
    assert!(matches!(err, ArenaError::External { .. }), "{err}");
    assert!(err.to_string().contains(&url), "{err}");
}
