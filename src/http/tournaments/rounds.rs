//! A round as the API shows it: its tables and results, and in duplicate
//! every board's traveller (each table's result on it, scored against the
//! others in the same direction). While a duplicate round is played, its
//! tables' matches and results are not shown: every table plays the same
//! deals, so nobody may follow another table's boards before its own are
//! done.

use serde::Serialize;
use utoipa::ToSchema;

use crate::lobby::tournaments::{Format, Round, TournamentRecord, board_scores};
use crate::service::rfc3339;

/// A finished table's result.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableResultView {
    /// Match points per side at the end.
    pub scores: Vec<u32>,
    /// The winning sides: one, several on equal highest totals, none when
    /// aborted.
    pub winners: Vec<u8>,
    /// The side whose seat ended the match early, if one did.
    pub at_fault: Option<u8>,
}

/// A table of a round.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableView {
    /// Its number in the round, from 0.
    pub table: u32,
    /// Its match (null while a duplicate round is played).
    pub match_id: Option<String>,
    /// The unit at each side (pairs game: side 0 at seats 0 and 2).
    pub units: Vec<u32>,
    /// Whether its match is over.
    pub finished: bool,
    /// Its result (null until over, and while a duplicate round is
    /// played).
    pub result: Option<TableResultView>,
}

/// One side's score on a board.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SideScore {
    /// Its net: its recorded points less the other side's (individual
    /// variants: its points times the others' count less the sum of all);
    /// null when the table did not play the board.
    pub net: Option<i64>,
    /// 2 for each result in the same direction it beat, 1 for each tie.
    pub matchpoints: u32,
    /// 2 for each other result in the same direction.
    pub top: u32,
    /// Matchpoints over top, in percent (50 alone; an unplayed board 40
    /// for the side that ended its match early, 60 for the other).
    pub percent: f64,
    /// The mean of its net less each other net in the same direction.
    pub difference: f64,
}

/// A table's line in a board's traveller.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TravellerRow {
    /// The table.
    pub table: u32,
    /// Its match.
    pub match_id: String,
    /// The unit at each side.
    pub units: Vec<u32>,
    /// The match points each side recorded on the board (null: not
    /// played).
    pub recorded: Option<Vec<u32>>,
    /// Each side's score against its direction.
    pub sides: Vec<SideScore>,
}

/// A board of a duplicate round.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BoardView {
    /// Its number, from 1 (the match's hand number).
    pub board: u32,
    /// Every table's result on it.
    pub traveller: Vec<TravellerRow>,
}

/// A round.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RoundView {
    /// Its number (in an arena, the wave of pairings).
    pub number: u32,
    /// When it was paired (RFC 3339).
    pub started_at: String,
    /// Whether every table is finished.
    pub done: bool,
    /// Units with a bye.
    pub byes: Vec<u32>,
    /// Its tables.
    pub tables: Vec<TableView>,
    /// Duplicate, once the round is done: every board's traveller.
    pub boards: Vec<BoardView>,
}

impl RoundView {
    /// Round `round` of `rec`, as everyone may see it.
    pub fn of(rec: &TournamentRecord, round: &Round) -> RoundView {
        let boards = match rec.format {
            Format::Duplicate { boards, .. } => Some(boards),
            _ => None,
        };
        let hidden = boards.is_some() && !round.done();
        let tables = round
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| TableView {
                table: i as u32,
                match_id: (!hidden).then(|| t.match_id.clone()),
                units: t.units.iter().map(|&u| u as u32).collect(),
                finished: t.result.is_some(),
                result: t
                    .result
                    .as_ref()
                    .filter(|_| !hidden)
                    .map(|r| TableResultView {
                        scores: r.scores.clone(),
                        winners: r.winners.clone(),
                        at_fault: r.at_fault,
                    }),
            })
            .collect();
        let sides = usize::from(rec.variant.table().sides());
        let boards = match boards {
            Some(n) if !hidden => (0..n as usize)
                .map(|b| board_view(round, b, sides))
                .collect(),
            _ => Vec::new(),
        };
        RoundView {
            number: round.number,
            started_at: rfc3339(round.started_ms),
            done: round.done(),
            byes: round.byes.iter().map(|&u| u as u32).collect(),
            tables,
            boards,
        }
    }
}

fn board_view(round: &Round, b: usize, sides: usize) -> BoardView {
    let scores = board_scores(round, b, sides);
    let traveller = round
        .tables
        .iter()
        .zip(scores)
        .enumerate()
        .filter_map(|(i, (t, s))| {
            let s = s?;
            Some(TravellerRow {
                table: i as u32,
                match_id: t.match_id.clone(),
                units: t.units.iter().map(|&u| u as u32).collect(),
                recorded: t.result.as_ref().and_then(|r| r.boards.get(b).cloned()),
                sides: s
                    .into_iter()
                    .map(|x| SideScore {
                        net: x.net,
                        matchpoints: x.matchpoints,
                        top: x.top,
                        percent: x.percent,
                        difference: x.difference,
                    })
                    .collect(),
            })
        })
        .collect();
    BoardView {
        board: b as u32 + 1,
        traveller,
    }
}
