//! Advancing tournaments with nobody reading: each instance's
//! housekeeping steps every tournament not yet over, once a second.
//!
//! A step reads the record once, and each of its writes starts from the
//! copy in hand (a lost race reads again). It is made of idempotent
//! parts, so that any instance may repeat one another left half-done:
//! (1) the matches of tables paired but not yet created are created
//! under their fixed ids (a second creation finds the match there and
//! changes nothing); (2) the matches of the tables without a result are
//! read, when one may have ended (`watch.rs`: at once when this instance
//! saw one end, else every few seconds); (3) one compare-and-set write
//! records the results of those over and pairs what is due ([`step`]),
//! or starts or ends the tournament; nothing is written when nothing
//! changed; (4) the tables just paired are created, and one
//! compare-and-set write marks them created and their round announced.
//!
//! Telling is owed in the record, so that an instance killed between a
//! write and its telling loses nothing: a round announced but not marked
//! `told`, or a tournament ended but not marked `told_over`, is told by
//! whichever instance steps it next (the one that wrote, at once), then
//! marked by a compare-and-set. Each player hears each round
//! (`round_started`) and the end (`tournament_over`) once however many
//! instances tell it: the events carry once-keys
//! ([`LobbyCore::publish_once`](crate::lobby::LobbyCore::publish_once)).

use std::collections::{HashMap, HashSet};

use super::ops::{ACTIVE, ttl};
use super::progress::step;
use super::record::{Round, Table, TableResult, TournamentRecord, TournamentStatus};
use super::scoring::standings;
use crate::lobby::Lobby;
use crate::lobby::records::PlayerEvent;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, Updated, load, update_from};
use crate::rules::{Phase, Seat, Winner};
use crate::service::{
    Error, HOUSE_PREFIX, NewMatch, NewSeat, OnTimeout, SeatKind, SeatPlayer, clock_now_ms,
};

/// Active tournaments read from their index at a time.
const PAGE: usize = 256;

impl Lobby {
    /// Steps every tournament not yet over (its index read [`PAGE`] ids
    /// at a time); returns how many were stepped. One not due yet, or
    /// whose matches are not due to be read (see `watch.rs`), costs the
    /// read of its record.
    ///
    /// # Errors
    /// `StoreUnavailable` listing them; a failure of one tournament is
    /// logged, and it is stepped again on the next tick.
    pub async fn advance_tournaments(&self) -> Result<usize, Error> {
        let mut after: Option<String> = None;
        let mut active = HashSet::new();
        loop {
            let ids = self
                .store()
                .index_page(ACTIVE, after.as_deref(), PAGE)
                .await?;
            for id in &ids {
                if let Err(e) = self.advance_tournament(id).await {
                    tracing::warn!(tournament = %id, error = %e, "tournament step failed");
                }
            }
            after = ids.last().cloned();
            let last = ids.len() < PAGE;
            active.extend(ids);
            if last {
                self.core().tournaments.keep_only(&active);
                return Ok(active.len());
            }
        }
    }

    /// One step of tournament `id` (see the module's notes). The record
    /// is read once: each write starts from the copy in hand, and reads
    /// again only after a lost race.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy`; a match's creation errors.
    pub async fn advance_tournament(&self, id: &str) -> Result<(), Error> {
        let missing = || Error::TournamentNotFound;
        let loaded: (u64, TournamentRecord) =
            match load(self.store(), Doc::Tournament, id, missing).await {
                Ok(loaded) => loaded,
                Err(Error::TournamentNotFound) => {
                    self.store().index_remove(ACTIVE, id).await?;
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
        let now = clock_now_ms();
        match loaded.1.status {
            TournamentStatus::Open if now < loaded.1.starts_ms => return Ok(()),
            TournamentStatus::Over | TournamentStatus::Cancelled => {
                return self.ended(loaded).await;
            }
            _ => {}
        }
        let watch = &self.core().tournaments;
        let read = watch.read_due(id, now);
        let stepped = self.step_running(loaded, read, now).await;
        if stepped.is_err() && read {
            watch.read_failed(id);
        }
        stepped
    }

    /// The step of a tournament due to start or running, from `loaded`
    /// (its record and version), its matches read if `read`.
    async fn step_running(
        &self,
        loaded: (u64, TournamentRecord),
        read: bool,
        now: u64,
    ) -> Result<(), Error> {
        let loaded = self.create_tables(loaded).await?;
        let results = if read {
            self.read_results(&loaded.1).await?
        } else {
            HashMap::new()
        };
        let updated = self
            .update_from_copy(loaded, |r: &mut TournamentRecord| {
                let p = step(r, &results, now);
                Ok(if p.any() {
                    Step::Write(p)
                } else {
                    Step::Keep(p)
                })
            })
            .await?;
        let (rec, progress) = (updated.record, updated.answer);
        let loaded = if progress.paired {
            self.create_tables((updated.version, rec)).await?
        } else {
            (updated.version, rec)
        };
        match loaded.1.status {
            TournamentStatus::Over | TournamentStatus::Cancelled => self.ended(loaded).await,
            _ => Ok(()),
        }
    }

    /// A tournament over or cancelled, `loaded` (its version and record):
    /// its entrants are told unless they were, then it leaves the index of
    /// those stepped.
    async fn ended(&self, loaded: (u64, TournamentRecord)) -> Result<(), Error> {
        let id = loaded.1.id.clone();
        if !loaded.1.told_over {
            self.tell_over(&loaded.1).await?;
            self.update_from_copy(loaded, |r: &mut TournamentRecord| {
                Ok(if r.told_over {
                    Step::Keep(())
                } else {
                    r.told_over = true;
                    Step::Write(())
                })
            })
            .await?;
        }
        self.store().index_remove(ACTIVE, &id).await?;
        Ok(())
    }

    /// Changes the tournament by compare-and-set from `loaded`, its record
    /// and version as just read (see [`update_from`]).
    async fn update_from_copy<R>(
        &self,
        loaded: (u64, TournamentRecord),
        change: impl FnMut(&mut TournamentRecord) -> Result<Step<R>, Error>,
    ) -> Result<Updated<TournamentRecord, R>, Error> {
        let id = loaded.1.id.clone();
        let missing = || Error::TournamentNotFound;
        update_from(
            self.store(),
            Doc::Tournament,
            &id,
            loaded,
            ttl,
            missing,
            change,
        )
        .await
    }

    /// Creates the match of every table of `loaded` (the record and its
    /// version) paired but not marked created, then marks them created and
    /// each round whose tables all exist announced, and tells the players
    /// of every round announced and not yet told ([`told`](Self::told)).
    /// The record as stored after (the one given when there was nothing to
    /// do).
    async fn create_tables(
        &self,
        loaded: (u64, TournamentRecord),
    ) -> Result<(u64, TournamentRecord), Error> {
        let rec = &loaded.1;
        let todo: Vec<(&Round, &Table)> = rec
            .rounds
            .iter()
            .flat_map(|r| r.tables.iter().map(move |t| (r, t)))
            .filter(|(_, t)| !t.created)
            .collect();
        let waiting = rec.rounds.iter().any(|r| !r.told());
        if todo.is_empty() && !waiting {
            return Ok(loaded);
        }
        for &(round, table) in &todo {
            self.create_promised(new_match(rec, round, table), Doc::Tournament)
                .await?;
        }
        let made: Vec<String> = todo.iter().map(|(_, t)| t.match_id.clone()).collect();
        let marked = self
            .update_from_copy(loaded, |r: &mut TournamentRecord| {
                let mut changed = false;
                for round in &mut r.rounds {
                    for t in &mut round.tables {
                        let now_made = !t.created && made.contains(&t.match_id);
                        t.created |= now_made;
                        changed |= now_made;
                    }
                    if !round.announced && round.tables.iter().all(|t| t.created) {
                        round.announced = true;
                        changed = true;
                    }
                }
                Ok(if changed {
                    Step::Write(())
                } else {
                    Step::Keep(())
                })
            })
            .await?;
        self.told((marked.version, marked.record)).await
    }

    /// Tells the players of every round of `loaded` (its version and
    /// record) announced and not yet told, then marks those rounds told.
    /// The record as stored after.
    async fn told(
        &self,
        loaded: (u64, TournamentRecord),
    ) -> Result<(u64, TournamentRecord), Error> {
        let owed: Vec<u32> = loaded
            .1
            .rounds
            .iter()
            .filter(|r| r.announced && !r.told())
            .map(|r| r.number)
            .collect();
        if owed.is_empty() {
            return Ok(loaded);
        }
        for round in loaded.1.rounds.iter().filter(|r| owed.contains(&r.number)) {
            self.tell_round(&loaded.1, round).await?;
        }
        let marked = self
            .update_from_copy(loaded, |r: &mut TournamentRecord| {
                let mut changed = false;
                for round in r.rounds.iter_mut().filter(|r| owed.contains(&r.number)) {
                    changed |= !round.told();
                    round.told = Some(true);
                }
                Ok(if changed {
                    Step::Write(())
                } else {
                    Step::Keep(())
                })
            })
            .await?;
        Ok((marked.version, marked.record))
    }

    /// The results of the tables without one whose matches are over, by
    /// match id.
    async fn read_results(
        &self,
        rec: &TournamentRecord,
    ) -> Result<HashMap<String, TableResult>, Error> {
        let mut out = HashMap::new();
        let sides = usize::from(rec.variant.table().sides());
        let now = clock_now_ms();
        for t in rec.rounds.iter().flat_map(|r| &r.tables) {
            if !t.created || t.result.is_some() {
                continue;
            }
            let m = match self.service().record(&t.match_id).await {
                Ok(m) => m,
                Err(Error::MatchNotFound) => continue,
                Err(e) => return Err(e),
            };
            if m.game.phase() != Phase::MatchOver {
                continue;
            }
            out.insert(t.match_id.clone(), table_result(&m.game, sides, now));
        }
        Ok(out)
    }

    /// Tells every player of `round` its match and seat, or its bye.
    async fn tell_round(&self, rec: &TournamentRecord, round: &Round) -> Result<(), Error> {
        let pairs = rec.variant.table().pairs;
        for t in &round.tables {
            for (side, &u) in t.units.iter().enumerate() {
                for (i, p) in rec.units[u].players.iter().enumerate() {
                    let seat = if pairs { side + 2 * i } else { side };
                    self.tell_player(rec, round, p, Some((&t.match_id, seat as Seat)))
                        .await?;
                }
            }
        }
        for &u in &round.byes {
            for p in &rec.units[u].players {
                self.tell_player(rec, round, p, None).await?;
            }
        }
        Ok(())
    }

    async fn tell_player(
        &self,
        rec: &TournamentRecord,
        round: &Round,
        p: &SeatPlayer,
        at: Option<(&String, Seat)>,
    ) -> Result<(), Error> {
        if p.is_house() {
            return Ok(());
        }
        let event = PlayerEvent::RoundStarted {
            tournament_id: rec.id.clone(),
            round: round.number,
            match_id: at.map(|(m, _)| m.clone()),
            seat: at.map(|(_, s)| s),
        };
        let once = format!("round:{}:{}", rec.id, round.number);
        self.core().publish_once(&p.id, &once, &event).await
    }

    /// Tells every entrant the tournament is over (with its rank) or
    /// cancelled.
    async fn tell_over(&self, rec: &TournamentRecord) -> Result<(), Error> {
        let ranks: HashMap<usize, usize> =
            standings(rec).iter().map(|s| (s.unit, s.rank)).collect();
        let status = match rec.status {
            TournamentStatus::Cancelled => "cancelled",
            _ => "over",
        };
        let once = format!("over:{}", rec.id);
        for e in &rec.entries {
            let event = PlayerEvent::TournamentOver {
                tournament_id: rec.id.clone(),
                status: status.into(),
                rank: e.unit.and_then(|u| ranks.get(&u).copied()),
            };
            self.core()
                .publish_once(&e.player.id, &once, &event)
                .await?;
        }
        Ok(())
    }
}

/// The match of `table` in `round`: the tournament's rules and clock
/// (a house bot stands in on a timeout), the units' players at their
/// seats (in the pairs game a partnership at seats s and s + 2), and the
/// round's board set in duplicate (every table the same seed) or a deal
/// of its own otherwise.
fn new_match(rec: &TournamentRecord, round: &Round, table: &Table) -> NewMatch {
    let layout = rec.variant.table();
    let mut seats = vec![NewSeat::default(); usize::from(layout.seats)];
    let stand_in = super::progress::filler(rec);
    for (side, &u) in table.units.iter().enumerate() {
        for (i, p) in rec.units[u].players.iter().enumerate() {
            let seat = if layout.pairs { side + 2 * i } else { side };
            seats[seat] = match p.id.strip_prefix(HOUSE_PREFIX) {
                Some(bot) => NewSeat {
                    kind: SeatKind::Bot,
                    bot: Some(bot.to_string()),
                    ..NewSeat::default()
                },
                None => NewSeat {
                    kind: SeatKind::Remote,
                    bot: stand_in.id.strip_prefix(HOUSE_PREFIX).map(str::to_string),
                    player: Some(p.id.clone()),
                    ..NewSeat::default()
                },
            };
        }
    }
    let index = round
        .tables
        .iter()
        .position(|t| t.match_id == table.match_id)
        .unwrap_or(0);
    let seed = match rec.format {
        super::record::Format::Duplicate { .. } => {
            rec.derived_seed(&format!("boards/{}", round.number))
        }
        _ => rec.derived_seed(&format!("deal/{}/{index}", round.number)),
    };
    NewMatch {
        rules: rec.rules.clone(),
        seats: Some(seats),
        seed: Some(seed),
        auto_deal: true,
        move_timeout_ms: Some(rec.move_timeout_ms),
        on_timeout: OnTimeout::Bot,
        id: Some(table.match_id.clone()),
        rated: rec.rated,
    }
}

/// A finished match's result for the tournament.
fn table_result(game: &crate::rules::Match, sides: usize, now: u64) -> TableResult {
    let scores: Vec<u32> = game.scores[..sides]
        .iter()
        .map(|&s| s.max(0) as u32)
        .collect();
    let winners = match game.winner {
        Some(Winner::Side(s)) => vec![s],
        Some(Winner::Draw) => {
            let top = scores.iter().copied().max().unwrap_or(0);
            (0..sides as u8)
                .filter(|&s| scores[usize::from(s)] == top)
                .collect()
        }
        None => Vec::new(),
    };
    TableResult {
        scores,
        winners,
        boards: game.results.iter().map(|h| h.recorded.clone()).collect(),
        at_fault: game
            .early_loser()
            .map(|s| game.rules.variant.table().side(s)),
        finished_ms: now,
    }
}
