//! A tournament's progress, pure: forming the units at the start (and a
//! late entrant's in an arena), applying the results read from finished
//! matches, and pairing the next round (Swiss, duplicate) or the next
//! wave of waiting units (arena). The caller reads the matches and writes
//! the record by compare-and-set; everything here is a function of the
//! record, the results and the time.

use std::collections::{HashMap, HashSet};

use rand::SeedableRng;
use rand::rngs::ChaCha20Rng;
use rand::seq::SliceRandom;

use super::pairing;
use super::record::{
    Format, Partners, Round, Table, TableResult, TournamentRecord, TournamentStatus, Unit,
};
use super::scoring::standings;
use crate::bots;
use crate::service::SeatPlayer;

/// What a step changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Results were recorded.
    pub results: bool,
    /// Tables were paired (a round or an arena wave).
    pub paired: bool,
    /// The tournament started, ended or was cancelled.
    pub status: bool,
}

impl Progress {
    /// Whether anything changed (the record is to be written).
    pub fn any(self) -> bool {
        self.results || self.paired || self.status
    }
}

/// The house bot that completes partnerships and tables.
pub fn filler(rec: &TournamentRecord) -> SeatPlayer {
    let bot = rec.fill_with.as_deref().unwrap_or(bots::DEFAULT);
    SeatPlayer::house(bot).unwrap_or_else(|| SeatPlayer::house(bots::DEFAULT).expect("default"))
}

/// One step of the tournament at `now`, given the results of its finished
/// matches by match id: starts it when due, records results, pairs what
/// is due, ends it when everything is in.
pub fn step(
    rec: &mut TournamentRecord,
    results: &HashMap<String, TableResult>,
    now: u64,
) -> Progress {
    let mut p = Progress::default();
    match rec.status {
        TournamentStatus::Open if now >= rec.starts_ms => {
            p.status = true;
            form_units(rec);
            let ready = rec.units.iter().filter(|u| !u.withdrawn).count();
            if ready < rec.per_table() && rec.fill_with.is_none() || ready == 0 {
                rec.status = TournamentStatus::Cancelled;
                rec.ended_ms = Some(now);
                rec.told_over = false;
                return p;
            }
            rec.status = TournamentStatus::Running;
            complete_with_house(rec);
        }
        TournamentStatus::Running => {}
        _ => return p,
    }
    for round in &mut rec.rounds {
        for t in round.tables.iter_mut().filter(|t| t.result.is_none()) {
            if let Some(r) = results.get(&t.match_id) {
                t.result = Some(r.clone());
                p.results = true;
            }
        }
    }
    match rec.format {
        Format::Arena { duration_ms } => {
            let playing = rec.rounds.iter().any(|r| !r.done());
            if now < rec.starts_ms + duration_ms {
                p.paired = pair_wave(rec, now);
            } else if !playing {
                finish(rec, now, &mut p);
            }
        }
        Format::Swiss { rounds } | Format::Duplicate { rounds, .. } => {
            if rec.current().is_none_or(Round::done) {
                if rec.rounds.len() < rounds as usize {
                    pair_round(rec, now, rounds as usize - rec.rounds.len());
                    p.paired = true;
                } else {
                    finish(rec, now, &mut p);
                }
            }
        }
    }
    p
}

fn finish(rec: &mut TournamentRecord, now: u64, p: &mut Progress) {
    rec.status = TournamentStatus::Over;
    rec.ended_ms = Some(now);
    rec.told_over = false;
    p.status = true;
}

/// Forms the units from the entries at the start: each player alone in
/// the individual variants; in the pairs game the partnerships named both
/// ways (fixed), or the entrants drawn two by two from the tournament's
/// seed, the odd one out with a house bot.
pub fn form_units(rec: &mut TournamentRecord) {
    let entrants: Vec<usize> = (0..rec.entries.len())
        .filter(|&i| !rec.entries[i].withdrawn && rec.entries[i].unit.is_none())
        .collect();
    if !rec.variant.table().pairs {
        for i in entrants {
            add_unit(rec, &[i]);
        }
        return;
    }
    match rec.partners {
        Partners::Fixed => {
            for &i in &entrants {
                if let Some(j) = mutual_partner(rec, i) {
                    add_unit(rec, &[i, j]);
                }
            }
        }
        Partners::Drawn => {
            let mut drawn = entrants;
            let seed = hex::decode(rec.derived_seed("partners")).unwrap_or_default();
            let mut rng = ChaCha20Rng::from_seed(seed.try_into().unwrap_or([0; 32]));
            drawn.shuffle(&mut rng);
            for two in drawn.chunks(2) {
                add_unit(rec, two);
            }
        }
    }
}

/// The entry `i`'s partner when both named each other and neither plays
/// in a unit yet (and `i` comes first, so each partnership is formed once).
pub fn mutual_partner(rec: &TournamentRecord, i: usize) -> Option<usize> {
    let e = &rec.entries[i];
    let j = rec
        .entries
        .iter()
        .position(|o| Some(&o.player.id) == e.partner.as_ref())?;
    let o = &rec.entries[j];
    let mutual = o.partner.as_deref() == Some(e.player.id.as_str());
    (mutual && j > i && !o.withdrawn && o.unit.is_none() && e.unit.is_none()).then_some(j)
}

/// Adds the unit of entries `members` (in the pairs game a single one is
/// completed with a house bot).
pub fn add_unit(rec: &mut TournamentRecord, members: &[usize]) {
    let at = rec.units.len();
    let mut players: Vec<SeatPlayer> = members
        .iter()
        .map(|&i| rec.entries[i].player.clone())
        .collect();
    if rec.variant.table().pairs && players.len() == 1 {
        players.push(filler(rec));
    }
    let rating = members.iter().map(|&i| rec.entries[i].rating).sum::<f64>() / members.len() as f64;
    for &i in members {
        rec.entries[i].unit = Some(at);
    }
    rec.units.push(Unit {
        players,
        rating,
        withdrawn: false,
        house: false,
    });
}

/// A unit of house bots only.
fn house_unit(rec: &TournamentRecord) -> Unit {
    let per = if rec.variant.table().pairs { 2 } else { 1 };
    Unit {
        players: vec![filler(rec); per],
        rating: 0.0,
        withdrawn: false,
        house: true,
    }
}

/// In a Swiss or duplicate tournament with a house bot to fill, adds house
/// units until the units fill whole tables (no byes then).
fn complete_with_house(rec: &mut TournamentRecord) {
    if rec.fill_with.is_none() || matches!(rec.format, Format::Arena { .. }) {
        return;
    }
    let k = rec.per_table();
    while rec.units.iter().filter(|u| !u.withdrawn).count() % k != 0 {
        let u = house_unit(rec);
        rec.units.push(u);
    }
}

/// Every two units that met at a table, once each (the lower first).
fn pairs_met(rec: &TournamentRecord) -> HashSet<(usize, usize)> {
    let mut met = HashSet::new();
    for t in rec.rounds.iter().flat_map(|r| &r.tables) {
        for (i, &a) in t.units.iter().enumerate() {
            for &b in &t.units[i + 1..] {
                met.insert((a.min(b), a.max(b)));
            }
        }
    }
    met
}

/// Pairs the next Swiss or duplicate round: the units not withdrawn in
/// the order of the standings (house units last), by [`pairing::swiss`],
/// with `left` rounds to pair (this one included).
fn pair_round(rec: &mut TournamentRecord, now: u64, left: usize) {
    let ranked = ranked_units(rec);
    let byes_of = |u: usize| rec.rounds.iter().filter(|r| r.byes.contains(&u)).count() as u32;
    let pairs = pairs_met(rec);
    let met = |a: usize, b: usize| pairs.contains(&(a.min(b), a.max(b)));
    let (tables, byes) = pairing::swiss(&ranked, rec.per_table(), left, &met, &byes_of);
    let number = rec.rounds.len() as u32 + 1;
    let tables = seat_tables(rec, number, tables);
    rec.rounds.push(Round {
        number,
        started_ms: now,
        tables,
        byes,
        announced: false,
        told: Some(false),
    });
}

/// The units to pair, not withdrawn, in the order of the standings,
/// house units last. Before the first round every line is level (no
/// score, tie-break or points difference yet), so the standings' last
/// tie-breaks order them: by rating, best first, then by unit.
fn ranked_units(rec: &TournamentRecord) -> Vec<usize> {
    let mut order: Vec<usize> = standings(rec).into_iter().map(|s| s.unit).collect();
    order.extend((0..rec.units.len()).filter(|&u| rec.units[u].house));
    order.retain(|&u| !rec.units[u].withdrawn);
    order
}

/// Pairs an arena wave: the units waiting (not withdrawn, not at an
/// unfinished table) in the order of the standings, the last opponents
/// avoided where another waits; with a house bot to fill, those left over
/// play house units. Returns whether a table was paired.
fn pair_wave(rec: &mut TournamentRecord, now: u64) -> bool {
    let busy: HashSet<usize> = rec
        .rounds
        .iter()
        .flat_map(|r| &r.tables)
        .filter(|t| t.result.is_none())
        .flat_map(|t| t.units.iter().copied())
        .collect();
    let mut last_met: HashMap<usize, &[usize]> = HashMap::new();
    for t in rec.rounds.iter().flat_map(|r| &r.tables) {
        for &u in &t.units {
            last_met.insert(u, &t.units);
        }
    }
    let waiting: Vec<usize> = ranked_units(rec)
        .into_iter()
        .filter(|&u| !rec.units[u].house && !busy.contains(&u))
        .collect();
    let last = |a: usize, b: usize| last_met.get(&a).is_some_and(|t| t.contains(&b));
    let k = rec.per_table();
    let (mut tables, left) = pairing::arena(&waiting, k, &last);
    drop(last_met);
    if rec.fill_with.is_some() && !left.is_empty() {
        let mut table = left;
        while table.len() < k {
            let free = (0..rec.units.len())
                .find(|&u| rec.units[u].house && !busy.contains(&u) && !table.contains(&u));
            let u = free.unwrap_or_else(|| {
                let unit = house_unit(rec);
                rec.units.push(unit);
                rec.units.len() - 1
            });
            table.push(u);
        }
        tables.push(table);
    }
    if tables.is_empty() {
        return false;
    }
    let number = rec.rounds.len() as u32 + 1;
    let tables = seat_tables(rec, number, tables);
    rec.rounds.push(Round {
        number,
        started_ms: now,
        tables,
        byes: Vec::new(),
        announced: false,
        told: Some(false),
    });
    true
}

/// Seats the units of each table of round `number`: in the pairs game the
/// unit that sat at side 0 less often takes side 0 (the better ranked on
/// a tie), so directions alternate; in the individual variants the seats
/// rotate by the round's number.
fn seat_tables(rec: &TournamentRecord, number: u32, tables: Vec<Vec<usize>>) -> Vec<Table> {
    let side0 = |u: usize| {
        rec.rounds
            .iter()
            .flat_map(|r| &r.tables)
            .filter(|t| t.units.first() == Some(&u))
            .count()
    };
    tables
        .into_iter()
        .enumerate()
        .map(|(i, mut units)| {
            if rec.variant.table().pairs {
                if side0(units[1]) < side0(units[0]) {
                    units.swap(0, 1);
                }
            } else {
                let n = units.len();
                units.rotate_left(number as usize % n);
            }
            Table {
                match_id: rec.match_id(number, i),
                units,
                created: false,
                result: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(units: Vec<usize>) -> Table {
        Table {
            match_id: String::new(),
            units,
            created: true,
            result: None,
        }
    }

    #[test]
    fn every_two_units_at_a_table_met_once_whichever_order() {
        let mut rec = super::super::record::tests::record(&[1000.0; 6]);
        rec.rounds.push(Round {
            number: 1,
            started_ms: 0,
            tables: vec![table(vec![4, 1, 2]), table(vec![5, 0, 3])],
            byes: Vec::new(),
            announced: true,
            told: Some(true),
        });
        let met = pairs_met(&rec);
        assert_eq!(met.len(), 6);
        for pair in [(1, 4), (2, 4), (1, 2), (0, 5), (3, 5), (0, 3)] {
            assert!(met.contains(&pair), "{pair:?}");
        }
        assert!(!met.contains(&(1, 5)), "units at different tables");
    }
}
