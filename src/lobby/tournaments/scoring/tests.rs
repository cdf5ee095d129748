use super::*;
use crate::lobby::tournaments::record::{Table, TableResult};

fn played(boards: Vec<Vec<u32>>) -> Table {
    let scores = (0..2)
        .map(|s| boards.iter().map(|b| b[s]).sum())
        .collect::<Vec<u32>>();
    let winners = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => vec![0],
        std::cmp::Ordering::Less => vec![1],
        std::cmp::Ordering::Equal => vec![0, 1],
    };
    Table {
        match_id: String::new(),
        units: vec![],
        created: true,
        result: Some(TableResult {
            scores,
            winners,
            boards,
            at_fault: None,
            finished_ms: 0,
        }),
    }
}

fn round(tables: Vec<Table>) -> Round {
    Round {
        number: 1,
        started_ms: 0,
        tables,
        byes: vec![],
        announced: true,
        told: Some(true),
    }
}

/// The worked example of docs/api.md ("Duplicate scoring").
#[test]
fn the_documented_board_scores() {
    let r = round(vec![
        played(vec![vec![10, 0]]),
        played(vec![vec![0, 4]]),
        played(vec![vec![10, 0]]),
    ]);
    let s = board_scores(&r, 0, 2);
    let side = |t: usize, d: usize| s[t].as_ref().unwrap()[d].clone();
    assert_eq!(side(0, 0).net, Some(10));
    assert_eq!((side(0, 0).matchpoints, side(0, 0).top), (3, 4));
    assert_eq!(side(0, 0).percent, 75.0);
    assert_eq!(side(1, 0).percent, 0.0);
    assert_eq!(side(1, 1).percent, 100.0);
    assert_eq!(side(0, 1).percent, 25.0);
    assert_eq!(side(0, 0).difference, 7.0);
    assert_eq!(side(1, 0).difference, -14.0);
    assert_eq!(side(1, 1).difference, 14.0);
    // Each comparison gives its 2 matchpoints to one side or splits them.
    for d in 0..2 {
        let total: u32 = (0..3).map(|t| side(t, d).matchpoints).sum();
        assert_eq!(total, 2 * 3);
    }
}

#[test]
fn an_unplayed_board_is_adjusted_and_left_out_of_the_others_field() {
    let mut short = played(vec![vec![0, 6]]);
    if let Some(r) = short.result.as_mut() {
        r.at_fault = Some(1);
    }
    let r = round(vec![
        played(vec![vec![5, 0], vec![0, 8]]),
        played(vec![vec![0, 2], vec![3, 0]]),
        short,
    ]);
    let s = board_scores(&r, 1, 2);
    let third = s[2].as_ref().unwrap();
    assert_eq!((third[0].percent, third[1].percent), (60.0, 40.0));
    assert_eq!(third[0].net, None);
    let first = s[0].as_ref().unwrap();
    assert_eq!(
        first[0].top, 2,
        "only the other table that played it counts"
    );
    assert_eq!(first[0].percent, 0.0);
}

#[test]
fn a_table_still_playing_has_no_score() {
    let mut going = played(vec![vec![1, 0]]);
    going.result = None;
    let r = round(vec![played(vec![vec![1, 0]]), going]);
    let s = board_scores(&r, 0, 2);
    assert!(s[1].is_none());
    assert_eq!(s[0].as_ref().unwrap()[0].percent, 50.0);
}

#[test]
fn game_points_split_draws_and_aborts() {
    let r = |winners: Vec<u8>| TableResult {
        scores: vec![0; 4],
        winners,
        boards: vec![],
        at_fault: None,
        finished_ms: 0,
    };
    assert_eq!(game_points(&r(vec![2]), 2, 4), 1.0);
    assert_eq!(game_points(&r(vec![2]), 1, 4), 0.0);
    assert_eq!(game_points(&r(vec![1, 3]), 3, 4), 0.5);
    assert_eq!(game_points(&r(vec![]), 0, 2), 0.5);
    assert_eq!(net(&[5, 2, 1], 0), 7);
    assert_eq!(net(&[40, 101], 1), 61);
}

/// What the pairing of a first round relies on: with no round played,
/// the standings rank by rating, best first, equal ratings by unit.
#[test]
fn before_any_round_the_standings_follow_the_ratings() {
    let ratings = [1200.0, 1500.0, 900.0, 1500.0, 1350.0, -0.0, 0.0];
    let mut rec = crate::lobby::tournaments::record::tests::record(&ratings);
    let order = |rec: &TournamentRecord| -> Vec<usize> {
        standings(rec).into_iter().map(|s| s.unit).collect()
    };
    assert_eq!(order(&rec), vec![1, 3, 4, 0, 2, 6, 5]);
    for format in [
        Format::Arena {
            duration_ms: 60_000,
        },
        Format::Duplicate {
            rounds: 2,
            boards: 4,
        },
    ] {
        rec.format = format;
        assert_eq!(order(&rec), vec![1, 3, 4, 0, 2, 6, 5], "{format:?}");
    }
    assert!(
        standings(&rec).iter().all(|l| l.rank == 1),
        "every line level"
    );
}
