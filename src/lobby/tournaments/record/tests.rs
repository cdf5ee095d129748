//! A record to test the pure parts with.

use super::*;
use crate::service::PlayerKind;

/// A running three-round Swiss of abarrotada for three, one unit of one
/// player a rating, no round paired yet.
pub fn record(ratings: &[f64]) -> TournamentRecord {
    let player = |i: usize| SeatPlayer {
        id: format!("p{i:024x}"),
        name: format!("player {i}"),
        kind: PlayerKind::Human,
    };
    TournamentRecord {
        id: "t000000000000000000000000".into(),
        name: "test".into(),
        owner: player(0),
        variant: Variant::Abarrotada3,
        format: Format::Swiss { rounds: 3 },
        partners: Partners::Drawn,
        rules: Rules {
            variant: Variant::Abarrotada3,
            ..Rules::default()
        },
        rated: false,
        code_sha256: None,
        starts_ms: 0,
        move_timeout_ms: 30_000,
        fill_with: None,
        max_entrants: ratings.len(),
        seed: "5e".repeat(32),
        status: TournamentStatus::Running,
        created_ms: 0,
        ended_ms: None,
        entries: Vec::new(),
        units: ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| Unit {
                players: vec![player(i)],
                rating,
                withdrawn: false,
                house: false,
            })
            .collect(),
        rounds: Vec::new(),
        told_over: true,
    }
}

#[test]
fn a_tournament_match_id_names_its_tournament() {
    let rec = record(&[1000.0; 3]);
    assert_eq!(tournament_of(&rec.match_id(2, 5)), Some(rec.id.as_str()));
    assert_eq!(
        tournament_of("0123456789abcdef01234567"),
        None,
        "a match's own"
    );
    assert_eq!(tournament_of(&format!("{}-00", rec.id)), None);
}
