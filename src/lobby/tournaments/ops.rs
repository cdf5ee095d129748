//! Making a tournament, entering and withdrawing, starting it early,
//! reading it and listing the public ones.

use std::time::Duration;

use super::progress::{add_unit, mutual_partner};
use super::record::{Entry, Format, Partners, TournamentRecord, TournamentStatus};
use crate::lobby::Lobby;
use crate::lobby::match_rules::match_rules;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, Updated, decode, encode, load, update};
use crate::rating;
use crate::rules::{FirstDealer, Rules, ShuffleMode, Variant};
use crate::service::{self, Error, HOUSE_PREFIX, clock_now_ms, hash_token, random_bytes};

/// The public listing, entries `<starts at, 15 digits>:<id>`.
pub const LISTING: &str = "tournaments";
/// Every tournament not yet over, for the housekeeping (`<id>`).
pub const ACTIVE: &str = "tournaments_active";
/// The most entrants a tournament takes.
pub const MAX_ENTRANTS: usize = 1000;
/// The most rounds of a Swiss or duplicate tournament.
pub const MAX_ROUNDS: u32 = 30;
/// The most boards of a duplicate round.
pub const MAX_BOARDS: u32 = 32;
/// The longest arena, and the furthest start.
pub const MAX_SPAN_S: u64 = 7 * 24 * 3600;
/// How long a tournament is kept once over.
const KEPT_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);
/// The target of a duplicate round's match: past reach, so that every
/// board is played.
const DUPLICATE_TARGET: u32 = 100_000;

/// What a new tournament is to be.
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// Its name.
    pub name: String,
    /// The variant played.
    pub variant: Variant,
    /// How it is run.
    pub format: Format,
    /// How partnerships are made (pairs game).
    pub partners: Partners,
    /// The rules of its matches (default: the variant's standard rules).
    pub rules: Option<Rules>,
    /// Whether its matches are rated.
    pub rated: bool,
    /// Private: entered with a code.
    pub private: bool,
    /// Seconds from now to its start.
    pub starts_in_s: u64,
    /// Each match's move clock (default 30 s).
    pub move_timeout_ms: Option<u64>,
    /// The house bot that completes partnerships and tables.
    pub fill_with: Option<String>,
    /// At most this many entrants (default and most: [`MAX_ENTRANTS`]).
    pub max_entrants: Option<usize>,
}

/// A tournament just made, and the code of a private one (shown once).
pub struct MadeTournament {
    /// The tournament.
    pub record: TournamentRecord,
    /// The code that enters it, when private.
    pub code: Option<String>,
}

fn closed(why: &str) -> Error {
    Error::TournamentClosed(why.into())
}

/// How long a record lives: for ever while it runs, a while once over.
pub(super) fn ttl(rec: &TournamentRecord) -> Option<Duration> {
    match rec.status {
        TournamentStatus::Open | TournamentStatus::Running => None,
        _ => Some(KEPT_AFTER),
    }
}

/// The rules of a tournament's matches, checked (see
/// [`match_rules`]): a rated tournament plays the standard rules; a
/// duplicate round plays its boards to the end, the first dealer at
/// seat 0 and a full shuffle.
fn tournament_rules(req: &NewTournament) -> Result<Rules, Error> {
    match_rules(
        req.variant,
        req.rules.as_ref(),
        req.rated,
        "tournament",
        |rules| {
            if let Format::Duplicate { boards, .. } = req.format {
                if req.rated {
                    return Err(Error::InvalidRequest(
                        "a duplicate tournament is unrated: its boards are hands, not matches"
                            .into(),
                    ));
                }
                rules.target = DUPLICATE_TARGET;
                rules.max_hands = Some(boards);
                rules.first_dealer = FirstDealer::Seat(0);
                rules.shuffle = ShuffleMode::Full;
            }
            Ok(())
        },
    )
}

/// Checks the counts and times of `req`.
fn check_request(req: &NewTournament) -> Result<(), Error> {
    let bad = |s: &str| Err(Error::InvalidRequest(s.into()));
    match req.format {
        Format::Swiss { rounds } | Format::Duplicate { rounds, .. }
            if !(1..=MAX_ROUNDS).contains(&rounds) =>
        {
            return bad("`rounds` must be between 1 and 30");
        }
        Format::Duplicate { boards, .. } if !(1..=MAX_BOARDS).contains(&boards) => {
            return bad("`boards` must be between 1 and 32");
        }
        Format::Arena { duration_ms } if !(1_000..=MAX_SPAN_S * 1000).contains(&duration_ms) => {
            return bad("`duration_s` must be between 1 and 604800");
        }
        _ => {}
    }
    if req.starts_in_s > MAX_SPAN_S {
        return bad("`starts_in_s` must be at most 604800");
    }
    if req.partners == Partners::Fixed && !req.variant.table().pairs {
        return bad("partnerships exist only in the pairs game");
    }
    if req
        .max_entrants
        .is_some_and(|m| !(1..=MAX_ENTRANTS).contains(&m))
    {
        return bad("`max_entrants` must be between 1 and 1000");
    }
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return bad("`name` must be 1 to 64 characters");
    }
    if let Some(bot) = &req.fill_with {
        service::house_bot(bot)?;
    }
    if let Some(ms) = req.move_timeout_ms {
        service::check_move_timeout(Some(ms))?;
    }
    Ok(())
}

impl Lobby {
    /// Changes tournament `id` by compare-and-set (see
    /// [`update`](crate::lobby::update::update)).
    ///
    /// # Errors
    /// `TournamentNotFound`; what `change` returns; `Busy`;
    /// `StoreUnavailable`.
    pub(super) async fn update_tournament<R>(
        &self,
        id: &str,
        change: impl FnMut(&mut TournamentRecord) -> Result<Step<R>, Error>,
    ) -> Result<Updated<TournamentRecord, R>, Error> {
        update(
            self.store(),
            Doc::Tournament,
            id,
            ttl,
            || Error::TournamentNotFound,
            change,
        )
        .await
    }

    /// Makes a tournament for the player of `key`.
    ///
    /// # Errors
    /// `Unauthorized`; `InvalidRequest`; `StoreUnavailable`.
    pub async fn create_tournament(
        &self,
        key: &str,
        req: NewTournament,
    ) -> Result<MadeTournament, Error> {
        let (_, me) = self.core().authenticate(key).await?;
        check_request(&req)?;
        let rules = tournament_rules(&req)?;
        let now = clock_now_ms();
        let id = format!("t{}", hex::encode(random_bytes::<12>()?));
        let code = if req.private {
            Some(hex::encode(random_bytes::<6>()?))
        } else {
            None
        };
        let record = TournamentRecord {
            id: id.clone(),
            name: req.name.trim().to_string(),
            owner: me.seat_player(),
            variant: req.variant,
            format: req.format,
            partners: req.partners,
            rules,
            rated: req.rated,
            code_sha256: code.as_deref().map(hash_token),
            starts_ms: now + req.starts_in_s * 1000,
            move_timeout_ms: req.move_timeout_ms.unwrap_or(30_000),
            fill_with: req.fill_with,
            max_entrants: req.max_entrants.unwrap_or(MAX_ENTRANTS),
            seed: hex::encode(random_bytes::<32>()?),
            status: TournamentStatus::Open,
            created_ms: now,
            ended_ms: None,
            entries: Vec::new(),
            units: Vec::new(),
            rounds: Vec::new(),
            told_over: true,
        };
        let store = self.store();
        store
            .insert(Doc::Tournament, &id, &encode(&record)?, None)
            .await?;
        store.index_add(ACTIVE, &id).await?;
        if code.is_none() {
            let entry = format!("{:015}:{id}", record.starts_ms);
            store.index_add(LISTING, &entry).await?;
        }
        Ok(MadeTournament { record, code })
    }

    /// Tournament `id` as stored.
    ///
    /// # Errors
    /// `TournamentNotFound`; `StoreUnavailable`.
    pub async fn tournament(&self, id: &str) -> Result<TournamentRecord, Error> {
        let (_, rec) = load(self.store(), Doc::Tournament, id, || {
            Error::TournamentNotFound
        })
        .await?;
        Ok(rec)
    }

    /// The player of `key` enters tournament `id` (with `code` when it is
    /// private), naming `partner` in fixed partnerships. In a running
    /// arena the entrant's unit is formed at once (in the pairs game once
    /// its partner is in, or with a house bot when drawn).
    ///
    /// # Errors
    /// `Unauthorized`; `TournamentNotFound`; `Forbidden` for a wrong code;
    /// `InvalidRequest` for a bad partner; `TournamentClosed` when it takes
    /// no more entries, is full, or the player is in already; `Busy`;
    /// `StoreUnavailable`.
    pub async fn enter_tournament(
        &self,
        key: &str,
        id: &str,
        partner: Option<String>,
        code: Option<&str>,
    ) -> Result<TournamentRecord, Error> {
        let (_, me) = self.core().authenticate(key).await?;
        let rec = self.tournament(id).await?;
        if let Some(hash) = &rec.code_sha256
            && !code.is_some_and(|c| service::hash_matches(&hash_token(c), hash))
        {
            return Err(Error::Forbidden(
                "a private tournament is entered with its code".into(),
            ));
        }
        match (&partner, rec.partners) {
            (Some(_), Partners::Drawn) => {
                return Err(Error::InvalidRequest(
                    "partners are drawn in this tournament: leave out `partner`".into(),
                ));
            }
            (None, Partners::Fixed) => {
                return Err(Error::InvalidRequest(
                    "this tournament has fixed partnerships: name your `partner`".into(),
                ));
            }
            (Some(p), _) if p == &me.id || p.starts_with(HOUSE_PREFIX) => {
                return Err(Error::InvalidRequest(
                    "the partner must be another registered player".into(),
                ));
            }
            _ => {}
        }
        let rating = me.rating_in(rating::pool(rec.variant)).rating;
        let player = me.seat_player();
        let updated = self
            .update_tournament(id, |rec: &mut TournamentRecord| {
                let now = clock_now_ms();
                if !rec.takes_entries(now) {
                    return Err(closed("the tournament takes no more entries"));
                }
                if rec.entry(&player.id).is_some() {
                    return Err(closed("this player has already entered"));
                }
                if rec.entered() >= rec.max_entrants {
                    return Err(closed("the tournament is full"));
                }
                rec.entries.push(Entry {
                    player: player.clone(),
                    partner: partner.clone(),
                    rating,
                    entered_ms: now,
                    withdrawn: false,
                    unit: None,
                });
                if rec.status == TournamentStatus::Running {
                    form_late_unit(rec);
                }
                Ok(Step::Write(()))
            })
            .await?;
        Ok(updated.record)
    }

    /// The player of `key` withdraws from tournament `id`: before the
    /// start its entry is dropped; after, its unit is paired no more (a
    /// match it plays goes on).
    ///
    /// # Errors
    /// `Unauthorized`; `TournamentNotFound`; `TournamentClosed` when it is
    /// over or the player is not in it; `Busy`; `StoreUnavailable`.
    pub async fn withdraw_tournament(
        &self,
        key: &str,
        id: &str,
    ) -> Result<TournamentRecord, Error> {
        let (_, me) = self.core().authenticate(key).await?;
        let updated = self
            .update_tournament(id, |rec: &mut TournamentRecord| {
                let Some(i) = rec
                    .entries
                    .iter()
                    .position(|e| e.player.id == me.id && !e.withdrawn)
                else {
                    return Err(closed("this player has not entered"));
                };
                match rec.status {
                    TournamentStatus::Open => {
                        rec.entries.remove(i);
                    }
                    TournamentStatus::Running => {
                        rec.entries[i].withdrawn = true;
                        if let Some(u) = rec.entries[i].unit {
                            rec.units[u].withdrawn = true;
                        }
                    }
                    _ => return Err(closed("the tournament is over")),
                }
                Ok(Step::Write(()))
            })
            .await?;
        Ok(updated.record)
    }

    /// The maker of tournament `id` starts it now rather than at its time
    /// (the next housekeeping tick starts it).
    ///
    /// # Errors
    /// `Unauthorized`; `TournamentNotFound`; `Forbidden` for another
    /// player; `TournamentClosed` once started; `Busy`; `StoreUnavailable`.
    pub async fn start_tournament_now(
        &self,
        key: &str,
        id: &str,
    ) -> Result<TournamentRecord, Error> {
        let (_, me) = self.core().authenticate(key).await?;
        let updated = self
            .update_tournament(id, |rec: &mut TournamentRecord| {
                if rec.owner.id != me.id {
                    return Err(Error::Forbidden(
                        "only the tournament's maker can start it".into(),
                    ));
                }
                if rec.status != TournamentStatus::Open {
                    return Err(closed("the tournament has started"));
                }
                let now = clock_now_ms();
                if rec.starts_ms <= now {
                    return Ok(Step::Keep(()));
                }
                rec.starts_ms = now;
                Ok(Step::Write(()))
            })
            .await?;
        Ok(updated.record)
    }

    /// At most `limit` public tournaments after `after` (a listing entry),
    /// by start time, and the cursor of the next page.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn tournaments_page(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<(Vec<TournamentRecord>, Option<String>), Error> {
        let entries = self.store().index_page(LISTING, after, limit).await?;
        let next = (entries.len() == limit)
            .then(|| entries.last().cloned())
            .flatten();
        let mut out = Vec::new();
        for e in entries {
            let id = e.split_once(':').map_or(e.as_str(), |(_, id)| id);
            if let Some(snap) = self.store().get(Doc::Tournament, id).await? {
                out.push(decode(&snap.state)?);
            }
        }
        Ok((out, next))
    }
}

/// In a running arena, forms the unit the entries now allow: a player
/// alone in the individual variants; in the pairs game a partnership
/// named both ways, or a drawn entrant with the next one waiting for a
/// partner (with a house bot at once when there is one to fill).
fn form_late_unit(rec: &mut TournamentRecord) {
    let last = rec.entries.len() - 1;
    if !rec.variant.table().pairs {
        add_unit(rec, &[last]);
        return;
    }
    match rec.partners {
        Partners::Fixed => {
            if let Some(i) = (0..last).find(|&i| mutual_partner(rec, i) == Some(last)) {
                add_unit(rec, &[i, last]);
            }
        }
        Partners::Drawn => {
            let waiting = (0..last).find(|&i| {
                let e = &rec.entries[i];
                e.unit.is_none() && !e.withdrawn
            });
            match waiting {
                Some(i) => add_unit(rec, &[i, last]),
                None if rec.fill_with.is_some() => add_unit(rec, &[last]),
                None => {}
            }
        }
    }
}
