//! Every event of a player's stream reads back through the named schemas.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::PlayerEvent;
use crate::http::players::wire::PlayerEventsPage;
use crate::lobby::records::{PlayerEvent as Lobby, PlayerKind, RatingChange, SeatPlayer, Unrated};

/// The `type` of a lobby event, naming every variant and field: a field
/// added to the lobby's events fails to compile here, to be described.
fn type_of(e: &Lobby) -> &'static str {
    match e {
        Lobby::SeatFilled {
            table_id: _,
            seat: _,
            name: _,
            player: _,
            open_seats: _,
        } => "seat_filled",
        Lobby::SeatFreed {
            table_id: _,
            seat: _,
            open_seats: _,
        } => "seat_freed",
        Lobby::TableInvited {
            table_id: _,
            from: _,
            seat: _,
            variant: _,
            expires_at: _,
        } => "table_invited",
        Lobby::MatchStarted {
            match_id: _,
            seat: _,
        } => "match_started",
        Lobby::QueueMatched {
            ticket_id: _,
            match_id: _,
            seat: _,
        } => "queue_matched",
        Lobby::PartyInvited {
            party_id: _,
            from: _,
            variant: _,
            rated: _,
            expires_at: _,
        } => "party_invited",
        Lobby::PartyAccepted {
            party_id: _,
            ticket_id: _,
        } => "party_accepted",
        Lobby::PartyDeclined { party_id: _ } => "party_declined",
        Lobby::PartyCancelled { party_id: _ } => "party_cancelled",
        _ => match_type_of(e),
    }
}

/// The rest of [`type_of`]: turns, challenges, matches and tournaments
/// (the events above are matched there).
fn match_type_of(e: &Lobby) -> &'static str {
    match e {
        Lobby::YourTurn {
            match_id: _,
            seat: _,
            version: _,
        } => "your_turn",
        Lobby::ChallengeReceived {
            challenge_id: _,
            from: _,
            variant: _,
            rated: _,
            seat: _,
            expires_at: _,
            rematch_of: _,
        } => "challenge_received",
        Lobby::ChallengeAccepted {
            challenge_id: _,
            player: _,
            waiting_for: _,
        } => "challenge_accepted",
        Lobby::ChallengeDeclined {
            challenge_id: _,
            player: _,
        } => "challenge_declined",
        Lobby::ChallengeCancelled { challenge_id: _ } => "challenge_cancelled",
        Lobby::ChallengeExpired { challenge_id: _ } => "challenge_expired",
        Lobby::MatchOver {
            match_id: _,
            seat: _,
            winner: _,
            scores: _,
            rating: _,
        } => "match_over",
        Lobby::RoundStarted {
            tournament_id: _,
            round: _,
            match_id: _,
            seat: _,
        } => "round_started",
        Lobby::TournamentOver {
            tournament_id: _,
            status: _,
            rank: _,
        } => "tournament_over",
        Lobby::SeatFilled { .. }
        | Lobby::SeatFreed { .. }
        | Lobby::TableInvited { .. }
        | Lobby::MatchStarted { .. }
        | Lobby::QueueMatched { .. }
        | Lobby::PartyInvited { .. }
        | Lobby::PartyAccepted { .. }
        | Lobby::PartyDeclined { .. }
        | Lobby::PartyCancelled { .. } => unreachable!("matched in type_of"),
    }
}

/// One of each lobby event, with every optional field set and unset.
fn every_event() -> Vec<Lobby> {
    let mut all = table_and_party_events();
    all.extend(match_and_challenge_events());
    all
}

/// One of each lobby event about tables, seats and parties.
fn table_and_party_events() -> Vec<Lobby> {
    let from = SeatPlayer {
        id: "p6f1c0a9e2b4d8c7a5e3f1b2c".into(),
        name: "robobot".into(),
        kind: PlayerKind::Bot,
    };
    let (t, m, q) = ("t1", "m1", "q1");
    let at = "2026-01-01T00:00:00Z".to_string();
    vec![
        Lobby::SeatFilled {
            table_id: t.into(),
            seat: 2,
            name: Some("Pere".into()),
            player: Some(from.id.clone()),
            open_seats: 1,
        },
        Lobby::SeatFilled {
            table_id: t.into(),
            seat: 3,
            name: None,
            player: None,
            open_seats: 0,
        },
        Lobby::SeatFreed {
            table_id: t.into(),
            seat: 2,
            open_seats: 1,
        },
        Lobby::TableInvited {
            table_id: t.into(),
            from: from.clone(),
            seat: 2,
            variant: "pairs".into(),
            expires_at: at.clone(),
        },
        Lobby::MatchStarted {
            match_id: m.into(),
            seat: 0,
        },
        Lobby::QueueMatched {
            ticket_id: q.into(),
            match_id: m.into(),
            seat: 3,
        },
        Lobby::PartyInvited {
            party_id: q.into(),
            from: from.clone(),
            variant: "abarrotada".into(),
            rated: true,
            expires_at: at.clone(),
        },
        Lobby::PartyAccepted {
            party_id: q.into(),
            ticket_id: q.into(),
        },
        Lobby::PartyDeclined { party_id: q.into() },
        Lobby::PartyCancelled { party_id: q.into() },
    ]
}

/// One of each lobby event about matches and challenges.
fn match_and_challenge_events() -> Vec<Lobby> {
    let from = SeatPlayer {
        id: "p6f1c0a9e2b4d8c7a5e3f1b2c".into(),
        name: "robobot".into(),
        kind: PlayerKind::Bot,
    };
    let (m, c) = ("m1", "c1");
    let at = "2026-01-01T00:00:00Z".to_string();
    let change = |unrated| RatingChange {
        pool: "pairs".into(),
        before: 1500.0,
        after: 1512.5,
        deviation: 180.0,
        score: 1.0,
        unrated,
    };
    let over = |winner: Value, rating| Lobby::MatchOver {
        match_id: m.into(),
        seat: 1,
        winner,
        scores: vec![101, 40],
        rating,
    };
    vec![
        Lobby::YourTurn {
            match_id: m.into(),
            seat: 2,
            version: 7,
        },
        Lobby::ChallengeReceived {
            challenge_id: c.into(),
            from,
            variant: "abarrotada3".into(),
            rated: false,
            seat: 1,
            expires_at: at,
            rematch_of: Some("0a1b2c3d4e5f60718293a4b5".into()),
        },
        Lobby::ChallengeAccepted {
            challenge_id: c.into(),
            player: "p0a1b2c3d4e5f60718293a4b5".into(),
            waiting_for: 1,
        },
        Lobby::ChallengeDeclined {
            challenge_id: c.into(),
            player: "p0a1b2c3d4e5f60718293a4b5".into(),
        },
        Lobby::ChallengeCancelled {
            challenge_id: c.into(),
        },
        Lobby::ChallengeExpired {
            challenge_id: c.into(),
        },
        over(json!(0), Some(change(None))),
        over(json!("draw"), Some(change(Some(Unrated::SameAddress)))),
        over(Value::Null, None),
        Lobby::RoundStarted {
            tournament_id: "t1".into(),
            round: 2,
            match_id: Some(m.into()),
            seat: Some(3),
        },
        Lobby::RoundStarted {
            tournament_id: "t1".into(),
            round: 3,
            match_id: None,
            seat: None,
        },
        Lobby::TournamentOver {
            tournament_id: "t1".into(),
            status: "over".into(),
            rank: Some(4),
        },
        Lobby::TournamentOver {
            tournament_id: "t1".into(),
            status: "cancelled".into(),
            rank: None,
        },
    ]
}

#[test]
fn every_player_event_reads_back_through_the_named_schemas() {
    let events: Vec<(u64, Value)> = every_event()
        .iter()
        .zip(1..)
        .map(|(e, seq)| (seq, serde_json::to_value(e).unwrap()))
        .collect();
    let page = crate::lobby::PlayerEventsPage {
        events,
        last_seq: 23,
    };
    let page = serde_json::to_value(PlayerEventsPage::from(page)).unwrap();
    let mut types = BTreeSet::new();
    for sent in page["events"].as_array().unwrap() {
        let read: PlayerEvent = serde_json::from_value(sent.clone())
            .unwrap_or_else(|e| panic!("{sent} does not read as a PlayerEvent: {e}"));
        assert_eq!(serde_json::to_value(&read).unwrap(), *sent);
        types.insert(sent["type"].as_str().unwrap().to_string());
    }
    let every: BTreeSet<String> = every_event()
        .iter()
        .map(|e| type_of(e).to_string())
        .collect();
    assert_eq!(types, every);
    assert_eq!(every.len(), 18);
}

#[test]
fn an_unknown_field_or_type_is_refused() {
    let extra =
        json!({"type": "your_turn", "seq": 1, "match_id": "m", "seat": 0, "version": 3, "x": 1});
    assert!(serde_json::from_value::<PlayerEvent>(extra).is_err());
    let unknown = json!({"type": "lunch", "seq": 1});
    assert!(serde_json::from_value::<PlayerEvent>(unknown).is_err());
}
