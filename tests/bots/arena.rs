//! The arena: duplicate deals, match mode, and an external bot over HTTP.

use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
        per_deal: None,
    }
}

#[test]
fn a_deterministic_bot_against_itself_scores_exactly_zero_over_duplicate_deals() {
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let r = run(&args("heuristic", "heuristic", 30, variant)).unwrap();
        assert_eq!(r.recorded.mean, 0.0, "{variant:?}");
        assert_eq!(r.points.mean, 0.0, "{variant:?}");
        // Pairs: A as either team; the individual variants: every split of
        // the seats between A and B.
        let games = if variant == Variant::Pairs { 2 } else { 6 };
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
fn each_players_doubles_are_counted_and_shown() {
    let r = run(&args("heuristic", "heuristic", 200, Variant::Pairs)).unwrap();
    let (a, b) = (r.a.doubles, r.b.doubles);
    // The same deterministic bot on both sides of every duplicate deal:
    // each side defends in exactly one of the deal's two seatings, and
    // says the same doubles there.
    assert_eq!(a, b);
    assert_eq!(a.defending, 200);
    assert!(a.contros > 0 && a.contros <= a.defending, "{a:?}");
    assert!(a.doubled >= a.contros.min(1) && a.won <= a.doubled, "{a:?}");
    let text = r.to_string();
    assert!(text.contains("| contros (of hands defended) |"), "{text}");
    assert!(
        text.contains(&format!("| heuristic | {} (", a.contros)),
        "{text}"
    );
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
    let err = run(&args("nobody", "random", 1, Variant::Pairs)).unwrap_err();
    assert!(matches!(err, ArenaError::UnknownBot(_)));
    // The message lists every form of name the arena reads.
    let msg = err.to_string();
    for form in [
        "\"nobody\"",
        "expert-v1 to expert-v4",
        "montecarlo:<playouts>:<max_ms>",
        "[:hdoubles]",
        "expert-v4:<deals>:<nodes>[:<played>]",
        "http://",
    ] {
        assert!(msg.contains(form), "{form} missing from: {msg}");
    }
}

/// A tiny external bot: an HTTP endpoint that receives the seat's view and
/// answers one of its legal actions (or, with `honest = false`, a deal,
/// which the arena never asks for). Returns its URL and the views it got.
fn spawn_external_bot(honest: bool) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let counter = web::Data::new(AtomicU64::new(0));
            let log = web::Data::from(log);
            HttpServer::new(move || {
                App::new()
                    .app_data(counter.clone())
                    .app_data(log.clone())
                    .route(
                        "/act",
                        web::post().to(
                            move |view: web::Json<Value>,
                                  n: web::Data<AtomicU64>,
                                  log: web::Data<Mutex<Vec<Value>>>| async move {
                                log.lock().unwrap().push(view.0.clone());
                                if !honest {
                                    return HttpResponse::Ok().json(json!({"type": "deal"}));
                                }
                                let legal = view["legal_actions"]
                                    .as_array()
                                    .cloned()
                                    .unwrap_or_default();
                                let i =
                                    n.fetch_add(7, Ordering::Relaxed) as usize % legal.len().max(1);
                                HttpResponse::Ok()
                                    .json(legal.get(i).cloned().unwrap_or(Value::Null))
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
    (format!("http://127.0.0.1:{port}/act"), seen)
}

#[test]
fn an_external_http_bot_plays_the_arena_with_the_apis_own_view() {
    let (url, seen) = spawn_external_bot(true);
    let r = run(&args(&url, "heuristic", 6, Variant::Pairs)).unwrap();
    assert!(
        r.a.decisions >= 6 * 2 * 2 * 12,
        "the external bot played its cards: {}",
        r.a.decisions
    );
    assert_eq!(r.hands, 12);
    let views = seen.lock().unwrap();
    assert_eq!(views.len() as u64, r.a.decisions);
    for v in views.iter() {
        // The view `GET /v1/matches/{id}` shows the seat's token.
        assert!(v["match_id"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
        assert!(v["version"].is_u64(), "{v}");
        let seats = v["seats"].as_array().expect("seats");
        assert_eq!(seats.len(), 4);
        let you = v["you"].as_u64().expect("you") as usize;
        assert_eq!(seats[you]["kind"], "remote", "{v}");
        assert_eq!(seats[(you + 1) % 4]["kind"], "bot", "{v}");
        assert!(v["hand"].is_array() && v["phase"].is_string(), "{v}");
        // Only a client's decisions: the arena deals itself.
        assert!(
            v["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["type"] != "deal"),
            "{v}"
        );
    }
    // Versions increase through a hand, as the server counts them.
    let first = views.iter().map(|v| v["version"].as_u64().unwrap()).min();
    assert!(first >= Some(1), "the deal came first");
    // Its time is the wall time of its round trips, not the arena's CPU.
    assert!(r.a.wall_clock && !r.b.wall_clock);
    assert!(r.a.seconds > 0.0);
    assert_eq!(r.a.cpu_seconds, 0.0);
    assert!(r.to_string().contains("| wall, HTTP round trip |"), "{r}");
}

#[test]
fn an_external_bot_answering_an_illegal_action_stops_the_arena_with_a_clear_error() {
    let (url, _) = spawn_external_bot(false);
    let err = run(&args(&url, "random", 2, Variant::Pairs)).unwrap_err();
    assert!(matches!(err, ArenaError::External { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains(&url), "{text}");
    // The action as JSON, never Rust's debug format.
    assert!(text.contains(r#"{"type":"deal"}"#), "{text}");
    assert!(text.contains("legal now: [{"), "{text}");
    assert!(!text.contains("Deal"), "{text}");
}
