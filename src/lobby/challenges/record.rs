//! Challenges: a player invites others to a match (in the pairs game, with
//! a partner, against a pair or two players), rated or casual; each
//! invited player accepts or declines; the challenger may cancel; an
//! unanswered challenge expires.
//!
//! The challenge is one document written by compare-and-set, so two
//! acceptances racing on two instances cannot both be the last one. The
//! write that records the last acceptance marks it `starting`, and the
//! match is then created under the challenge's id through the ordinary
//! create path (which happens once); whoever reads a challenge found
//! `starting` finishes the start. A pending challenge past its expiry is
//! marked `expired` by whoever notices first (a read, or the sweep each
//! instance's lobby housekeeping makes over the index of pending
//! challenges), and only that write announces it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::bots;
use crate::lobby::Lobby;
use crate::lobby::records::{self, HOUSE_PREFIX, PlayerEvent, SeatPlayer};
use crate::lobby::store::Doc;
use crate::rating;
use crate::rules::{Rules, Seat, Side, Variant};
use crate::service::{self, Error, NewMatch, NewSeat, OnTimeout, SeatKind, clock_now_ms, rfc3339};

/// Compare-and-set attempts of a write before answering `busy`.
const ATTEMPTS: usize = 32;
/// How long a stored challenge outlives its expiry (so that late readers
/// learn what became of it).
const KEEP_AFTER_EXPIRY: Duration = Duration::from_secs(24 * 3600);
/// Default and longest life of an unanswered challenge, in seconds.
pub const DEFAULT_EXPIRY_S: u64 = 600;
/// The longest life of an unanswered challenge, in seconds.
pub const MAX_EXPIRY_S: u64 = 86_400;
/// Most challenges `GET /v1/challenges` lists in each direction.
pub const LIST_MAX: usize = 100;
/// Most pending challenges one player may have made at once.
pub const MAX_PENDING_OUT: usize = 50;
/// Most index entries one list reads (closed challenges are skipped).
const LIST_SCAN: usize = 500;
/// The index of pending challenges, ordered by expiry (`<ms>:<id>`).
const PENDING_INDEX: &str = "challenges:pending";
/// Challenges one housekeeping sweep expires, at most.
const SWEEP_BATCH: usize = 64;

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Waiting for the invited players.
    Pending,
    /// Everyone accepted; the match is being created.
    Starting,
    /// The match exists, under the challenge's id.
    Started,
    /// An invited player declined.
    Declined,
    /// The challenger withdrew it.
    Cancelled,
    /// It expired before everyone accepted.
    Expired,
}

/// What a seat of a challenge is to its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeRole {
    /// The player who made the challenge.
    Challenger,
    /// The challenger's partner (pairs game).
    Partner,
    /// An opponent.
    Opponent,
    /// A house bot, at the challenger's request.
    Bot,
}

/// A seat of a challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeSeat {
    /// Challenger, partner, opponent or bot.
    pub role: ChallengeRole,
    /// The player (none at a bot seat).
    pub player: Option<SeatPlayer>,
    /// The house bot (bot seats, and the stand-in on a timeout).
    pub bot: String,
    /// Whether the player accepted (the challenger and bots always have).
    pub accepted: bool,
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRecord {
    /// Its id, which the match will have.
    pub id: String,
    /// The rule options.
    pub rules: Rules,
    /// Whether the match is rated.
    pub rated: bool,
    /// The seed of the match, hex (never shown before the match is over).
    pub seed: String,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// One entry per seat of the match.
    pub seats: Vec<ChallengeSeat>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// The invited player who declined it.
    pub declined_by: Option<String>,
    /// When it was made (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// When it expires unanswered.
    pub expires_ms: u64,
}

impl ChallengeRecord {
    /// The status as of `now`: a pending challenge past its expiry is
    /// expired.
    pub fn status_at(&self, now: u64) -> ChallengeStatus {
        if self.status == ChallengeStatus::Pending && now >= self.expires_ms {
            ChallengeStatus::Expired
        } else {
            self.status
        }
    }

    /// The challenger's player id.
    pub fn challenger(&self) -> &str {
        self.seats
            .iter()
            .find(|s| s.role == ChallengeRole::Challenger)
            .and_then(|s| s.player.as_ref())
            .map_or("", |p| p.id.as_str())
    }

    /// The seat of player `id`, if it is in the challenge.
    pub fn seat_of(&self, id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == id))
    }

    /// Invited players yet to accept.
    pub fn waiting_for(&self) -> usize {
        self.seats.iter().filter(|s| !s.accepted).count()
    }

    fn players(&self) -> impl Iterator<Item = &SeatPlayer> {
        self.seats.iter().filter_map(|s| s.player.as_ref())
    }

    fn ttl(&self, now: u64) -> Duration {
        Duration::from_millis(self.expires_ms.saturating_sub(now)) + KEEP_AFTER_EXPIRY
    }

    fn pending_entry(&self) -> String {
        format!("{:015}:{}", self.expires_ms, self.id)
    }

    fn player_entry(&self) -> String {
        format!("{:015}:{}", self.created_ms, self.id)
    }
}

/// The index of the challenges a player made (`out`) or is invited to
/// (`in`).
fn player_index(direction: &str, player: &str) -> String {
    format!("challenges:{direction}:{player}")
}

impl ChallengeRecord {
    /// Every player's index entry: the challenger's outgoing, the others'
    /// incoming.
    fn player_indexes(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter_map(|s| {
                let p = s.player.as_ref()?;
                let direction = if s.role == ChallengeRole::Challenger {
                    "out"
                } else {
                    "in"
                };
                Some(player_index(direction, &p.id))
            })
            .collect()
    }
}

/// A new challenge, as the challenger asks for it.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The variant.
    pub variant: Variant,
    /// The rule options (default: the variant's standard rules, the only
    /// ones a rated challenge takes).
    pub rules: Option<Rules>,
    /// Whether the match is rated.
    pub rated: bool,
    /// The players challenged (1 to seats − 1; in the pairs game 1 or 2,
    /// who sit opposite each other).
    pub opponents: Vec<String>,
    /// The challenger's partner (pairs game).
    pub partner: Option<String>,
    /// The house bot for every seat not given to a player.
    pub fill_with: Option<String>,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// Seconds until it expires unanswered (default 600).
    pub expires_in_s: Option<u64>,
}

/// A seat of a challenge as its players see it.
#[derive(Clone, Debug)]
pub struct ChallengeSeatView {
    /// The seat number in the match.
    pub seat: Seat,
    /// The side it scores for.
    pub team: Side,
    /// Challenger, partner, opponent or bot.
    pub role: ChallengeRole,
    /// The player (none at a bot seat).
    pub player: Option<SeatPlayer>,
    /// The house bot of a bot seat.
    pub bot: Option<String>,
    /// Whether it accepted.
    pub accepted: bool,
}

/// A challenge as its players see it.
#[derive(Clone, Debug)]
pub struct ChallengeView {
    /// The challenge's id, which its match will have.
    pub challenge_id: String,
    /// The match, once started.
    pub match_id: Option<String>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// Whether the match is rated.
    pub rated: bool,
    /// The rule options.
    pub rules: Rules,
    /// Every seat.
    pub seats: Vec<ChallengeSeatView>,
    /// Invited players yet to accept.
    pub waiting_for: Vec<String>,
    /// The invited player who declined it.
    pub declined_by: Option<String>,
    /// Whether hands are dealt automatically.
    pub auto_deal: bool,
    /// The move clock.
    pub move_timeout_ms: Option<u64>,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// When it expires unanswered (RFC 3339).
    pub expires_at: String,
}

/// A player's pending challenges.
#[derive(Clone, Debug)]
pub struct ChallengeList {
    /// Challenges the player is invited to, oldest first.
    pub incoming: Vec<ChallengeView>,
    /// Challenges the player made, oldest first.
    pub outgoing: Vec<ChallengeView>,
}

impl ChallengeRecord {
    /// The view its players see.
    pub fn view(&self, now: u64) -> ChallengeView {
        let table = self.rules.variant.table();
        let status = self.status_at(now);
        ChallengeView {
            challenge_id: self.id.clone(),
            match_id: (status == ChallengeStatus::Started).then(|| self.id.clone()),
            status,
            rated: self.rated,
            rules: self.rules.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| ChallengeSeatView {
                    seat: i as Seat,
                    team: table.side(i as Seat),
                    role: s.role,
                    player: s.player.clone(),
                    bot: (s.role == ChallengeRole::Bot).then(|| s.bot.clone()),
                    accepted: s.accepted,
                })
                .collect(),
            waiting_for: self
                .seats
                .iter()
                .filter(|s| !s.accepted)
                .filter_map(|s| s.player.as_ref().map(|p| p.id.clone()))
                .collect(),
            declined_by: self.declined_by.clone(),
            auto_deal: self.auto_deal,
            move_timeout_ms: self.move_timeout_ms,
            created_at: rfc3339(self.created_ms),
            expires_at: rfc3339(self.expires_ms),
        }
    }
}

/// The answer to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Accept,
    Decline,
    Cancel,
}

impl Lobby {
    /// Makes a challenge as the player whose key is `key`.
    ///
    /// # Errors
    /// `Unauthorized` for a key that is not current; `InvalidRequest` for
    /// bad rules, counts or players (the challenger itself, a player named
    /// twice, a house bot); `PlayerNotFound` for an unknown player;
    /// `TooManyChallenges` past [`MAX_PENDING_OUT`] pending ones;
    /// `StoreUnavailable`.
    pub async fn create_challenge(
        &self,
        key: &str,
        req: NewChallenge,
    ) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let rules = req
            .rules
            .clone()
            .unwrap_or_else(|| rating::rated_rules(req.variant));
        if rules.variant != req.variant {
            return Err(Error::InvalidRequest(
                "`rules.variant` must be the challenge's `variant`".into(),
            ));
        }
        rules
            .validate()
            .map_err(|e| Error::InvalidRequest(e.to_string()))?;
        if req.rated && rules != rating::rated_rules(req.variant) {
            return Err(Error::InvalidRequest(
                "a rated challenge is played with the variant's standard rules: leave out `rules`"
                    .into(),
            ));
        }
        let layout = req.variant.table();
        let n = usize::from(layout.seats);
        if layout.pairs {
            if !(1..=2).contains(&req.opponents.len()) {
                return Err(Error::InvalidRequest(
                    "in the pairs game, challenge one or two opponents".into(),
                ));
            }
        } else {
            if req.partner.is_some() {
                return Err(Error::InvalidRequest(
                    "partners exist only in the pairs game".into(),
                ));
            }
            if !(1..n).contains(&req.opponents.len()) {
                return Err(Error::InvalidRequest(format!(
                    "this variant has {n} seats: challenge 1 to {} opponents",
                    n - 1
                )));
            }
        }
        let mut named: Vec<&str> = Vec::new();
        for id in req.partner.iter().chain(&req.opponents) {
            if *id == me.id {
                return Err(Error::InvalidRequest(
                    "a player cannot challenge itself or be its own partner".into(),
                ));
            }
            if id.starts_with(HOUSE_PREFIX) {
                return Err(Error::InvalidRequest(format!(
                    "{id} is a house bot: seat house bots with `fill_with`"
                )));
            }
            if named.contains(&id.as_str()) {
                return Err(Error::InvalidRequest(format!("player {id} is named twice")));
            }
            named.push(id);
        }
        if let Some(bot) = &req.fill_with {
            service::house_bot(bot)?;
        }
        service::check_move_timeout(req.move_timeout_ms)?;
        let expires_in = req.expires_in_s.unwrap_or(DEFAULT_EXPIRY_S);
        if !(1..=MAX_EXPIRY_S).contains(&expires_in) {
            return Err(Error::InvalidRequest(format!(
                "expires_in_s must be between 1 and {MAX_EXPIRY_S}"
            )));
        }
        if self.pending_in(&player_index("out", &me.id)).await?.len() >= MAX_PENDING_OUT {
            return Err(Error::TooManyChallenges(format!(
                "a player may have {MAX_PENDING_OUT} pending challenges at once; cancel one, or \
                 wait for answers"
            )));
        }
        // Who sits where: the challenger at seat 0; in the pairs game its
        // partner opposite (seat 2) and the opponents at seats 1 and 3.
        let mut order: Vec<Option<(&str, ChallengeRole)>> = vec![None; n];
        if layout.pairs {
            order[2] = req.partner.as_deref().map(|p| (p, ChallengeRole::Partner));
            order[1] = Some((req.opponents[0].as_str(), ChallengeRole::Opponent));
            order[3] = req
                .opponents
                .get(1)
                .map(|p| (p.as_str(), ChallengeRole::Opponent));
        } else {
            for (i, p) in req.opponents.iter().enumerate() {
                order[i + 1] = Some((p.as_str(), ChallengeRole::Opponent));
            }
        }
        let empty = order.iter().skip(1).filter(|s| s.is_none()).count();
        let fill = match (&req.fill_with, empty) {
            (Some(bot), _) => bot.clone(),
            (None, 0) => bots::DEFAULT.to_string(),
            (None, _) => {
                return Err(Error::InvalidRequest(format!(
                    "{empty} seat(s) would have no player: name more players, or seat house bots \
                     there with `fill_with`"
                )));
            }
        };
        let mut seats = Vec::with_capacity(n);
        seats.push(ChallengeSeat {
            role: ChallengeRole::Challenger,
            player: Some(me.seat_player()),
            bot: fill.clone(),
            accepted: true,
        });
        for spec in order.into_iter().skip(1) {
            seats.push(match spec {
                Some((id, role)) => {
                    let (_, p) = self
                        .core
                        .load_player(id)
                        .await?
                        .ok_or(Error::PlayerNotFound)?;
                    ChallengeSeat {
                        role,
                        player: Some(p.seat_player()),
                        bot: fill.clone(),
                        accepted: false,
                    }
                }
                None => ChallengeSeat {
                    role: ChallengeRole::Bot,
                    player: None,
                    bot: fill.clone(),
                    accepted: true,
                },
            });
        }
        let now = clock_now_ms();
        let rec = ChallengeRecord {
            id: hex::encode(service::random_bytes::<12>()?),
            rules,
            rated: req.rated,
            seed: hex::encode(service::random_bytes::<32>()?),
            auto_deal: req.auto_deal,
            move_timeout_ms: req.move_timeout_ms,
            on_timeout: req.on_timeout,
            seats,
            status: ChallengeStatus::Pending,
            declined_by: None,
            created_ms: now,
            expires_ms: now + expires_in * 1000,
        };
        let store = self.store();
        if !store
            .insert(
                Doc::Challenge,
                &rec.id,
                &records::encode(&rec)?,
                Some(rec.ttl(now)),
            )
            .await?
        {
            return Err(Error::Internal("challenge id collision".into()));
        }
        store.index_add(PENDING_INDEX, &rec.pending_entry()).await?;
        for index in rec.player_indexes() {
            store.index_add(&index, &rec.player_entry()).await?;
        }
        tracing::info!(challenge_id = %rec.id, rated = rec.rated, "challenge made");
        let variant = rating::pool(rec.rules.variant).to_string();
        for (seat, s) in rec.seats.iter().enumerate() {
            if let Some(p) = s.player.as_ref().filter(|_| !s.accepted) {
                let event = PlayerEvent::ChallengeReceived {
                    challenge_id: rec.id.clone(),
                    from: me.seat_player(),
                    variant: variant.clone(),
                    rated: rec.rated,
                    seat: seat as Seat,
                    expires_at: rfc3339(rec.expires_ms),
                };
                self.core.publish(&p.id, &event).await;
            }
        }
        Ok(rec.view(now))
    }

    /// A challenge, as one of its players (whose key is `key`) sees it.
    ///
    /// # Errors
    /// `Unauthorized`; `Forbidden` for a player not in it;
    /// `ChallengeNotFound`; `StoreUnavailable`.
    pub async fn challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let (_, rec) = self.load_challenge(id).await?;
        if rec.seat_of(&me.id).is_none() {
            return Err(Error::Forbidden(
                "this player is not in this challenge".into(),
            ));
        }
        Ok(rec.view(clock_now_ms()))
    }

    /// Accepts a challenge as an invited player; the last acceptance
    /// starts the match.
    ///
    /// # Errors
    /// As [`answer`](Self::answer).
    pub async fn accept_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer(id, key, Answer::Accept).await
    }

    /// Declines a challenge as an invited player: it is closed.
    ///
    /// # Errors
    /// As [`answer`](Self::answer).
    pub async fn decline_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer(id, key, Answer::Decline).await
    }

    /// Withdraws a challenge as its challenger.
    ///
    /// # Errors
    /// As [`answer`](Self::answer).
    pub async fn cancel_challenge(&self, id: &str, key: &str) -> Result<ChallengeView, Error> {
        self.answer(id, key, Answer::Cancel).await
    }

    /// One answer to a challenge, written by compare-and-set.
    ///
    /// # Errors
    /// `Unauthorized`; `Forbidden` for a player not invited (accept,
    /// decline) or not the challenger (cancel); `ChallengeNotFound`;
    /// `ChallengeClosed` once declined, cancelled or (but for an
    /// acceptance already made) started; `ChallengeExpired`; `Busy` after
    /// lost races.
    async fn answer(&self, id: &str, key: &str, answer: Answer) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        for _ in 0..ATTEMPTS {
            let (version, mut rec) = self.load_challenge(id).await?;
            let now = clock_now_ms();
            let seat = rec.seat_of(&me.id).ok_or_else(|| {
                Error::Forbidden("this challenge is not addressed to this player".into())
            })?;
            let role = rec.seats[seat].role;
            match (answer, role) {
                (Answer::Cancel, ChallengeRole::Challenger) => {}
                (Answer::Cancel, _) => {
                    return Err(Error::Forbidden(
                        "only the challenger cancels a challenge; decline it instead".into(),
                    ));
                }
                (_, ChallengeRole::Challenger) => {
                    return Err(Error::Forbidden(
                        "the challenger does not answer its own challenge; cancel it with DELETE"
                            .into(),
                    ));
                }
                _ => {}
            }
            match rec.status_at(now) {
                ChallengeStatus::Pending => {}
                ChallengeStatus::Expired => return Err(Error::ChallengeExpired),
                ChallengeStatus::Starting | ChallengeStatus::Started
                    if answer == Answer::Accept =>
                {
                    // Accepted already (only acceptances start a match).
                    return Ok(rec.view(now));
                }
                status => return Err(closed(status)),
            }
            if answer == Answer::Accept && rec.seats[seat].accepted {
                return Ok(rec.view(now));
            }
            match answer {
                Answer::Accept => {
                    rec.seats[seat].accepted = true;
                    if rec.waiting_for() == 0 {
                        rec.status = ChallengeStatus::Starting;
                    }
                }
                Answer::Decline => {
                    rec.status = ChallengeStatus::Declined;
                    rec.declined_by = Some(me.id.clone());
                }
                Answer::Cancel => rec.status = ChallengeStatus::Cancelled,
            }
            let state = records::encode(&rec)?;
            if !self
                .store()
                .replace(Doc::Challenge, id, version, &state, Some(rec.ttl(now)))
                .await?
            {
                continue;
            }
            tracing::info!(challenge_id = %id, player = %me.id, ?answer, status = ?rec.status, "challenge answered");
            let event = match answer {
                Answer::Accept => PlayerEvent::ChallengeAccepted {
                    challenge_id: id.to_string(),
                    player: me.id.clone(),
                    waiting_for: rec.waiting_for(),
                },
                Answer::Decline => PlayerEvent::ChallengeDeclined {
                    challenge_id: id.to_string(),
                    player: me.id.clone(),
                },
                Answer::Cancel => PlayerEvent::ChallengeCancelled {
                    challenge_id: id.to_string(),
                },
            };
            self.tell_challenged(&rec, Some(&me.id), &event).await;
            if rec.status != ChallengeStatus::Pending {
                self.unlist(&rec).await;
            }
            if rec.status == ChallengeStatus::Starting {
                match self.start_challenge(version + 1, &rec).await {
                    Ok(r) => rec = r,
                    Err(e) => {
                        tracing::warn!(challenge_id = %id, error = %e, "match start deferred");
                    }
                }
            }
            return Ok(rec.view(now));
        }
        Err(Error::Busy(format!(
            "the challenge changed under {ATTEMPTS} attempts in a row; nothing was done, retry"
        )))
    }

    /// The caller's pending challenges: those it is invited to and those it
    /// made, oldest first, at most [`LIST_MAX`] each.
    ///
    /// # Errors
    /// `Unauthorized`; `StoreUnavailable`.
    pub async fn challenges_of(&self, key: &str) -> Result<ChallengeList, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        Ok(ChallengeList {
            incoming: self.pending_in(&player_index("in", &me.id)).await?,
            outgoing: self.pending_in(&player_index("out", &me.id)).await?,
        })
    }

    /// The first [`LIST_MAX`] pending challenges of a player's index,
    /// reading at most [`LIST_SCAN`] entries; the entries of closed
    /// challenges a failed removal left behind are removed on the way.
    async fn pending_in(&self, index: &str) -> Result<Vec<ChallengeView>, Error> {
        let store = self.store();
        let mut out = Vec::new();
        let mut after: Option<String> = None;
        let mut scanned = 0;
        while out.len() < LIST_MAX && scanned < LIST_SCAN {
            let entries = store.index_page(index, after.as_deref(), LIST_MAX).await?;
            let Some(last) = entries.last().cloned() else {
                break;
            };
            scanned += entries.len();
            for entry in entries {
                let id = entry.rsplit(':').next().unwrap_or_default();
                let rec = match self.load_challenge(id).await {
                    Ok((_, rec)) => Some(rec),
                    Err(Error::ChallengeNotFound) => None,
                    Err(e) => return Err(e),
                };
                let now = clock_now_ms();
                match rec.filter(|r| r.status_at(now) == ChallengeStatus::Pending) {
                    Some(rec) if out.len() < LIST_MAX => out.push(rec.view(now)),
                    Some(_) => {}
                    None => store.index_remove(index, &entry).await?,
                }
            }
            after = Some(last);
        }
        Ok(out)
    }

    /// Expires the pending challenges past their expiry (at most
    /// [`SWEEP_BATCH`]); returns how many were found closed.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn sweep_challenges(&self) -> Result<usize, Error> {
        let store = self.store();
        let now = clock_now_ms();
        let mut done = 0;
        for entry in store.index_page(PENDING_INDEX, None, SWEEP_BATCH).await? {
            let (due, id) = entry.split_once(':').unwrap_or(("0", ""));
            if due.parse::<u64>().unwrap_or(0) > now {
                break;
            }
            // Loading a pending challenge past its expiry expires it.
            match self.load_challenge(id).await {
                Ok(_) | Err(Error::ChallengeNotFound) => {}
                Err(e) => return Err(e),
            }
            store.index_remove(PENDING_INDEX, &entry).await?;
            done += 1;
        }
        Ok(done)
    }

    /// Loads a challenge, finishing what its last writer may have left
    /// undone: a `starting` one is started, and a pending one past its
    /// expiry is marked expired (and announced by the write that does).
    async fn load_challenge(&self, id: &str) -> Result<(u64, ChallengeRecord), Error> {
        if id.len() != 24
            || !id
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        {
            return Err(Error::ChallengeNotFound);
        }
        let store = self.store();
        for _ in 0..ATTEMPTS {
            let snap = store
                .get(Doc::Challenge, id)
                .await?
                .ok_or(Error::ChallengeNotFound)?;
            let mut rec: ChallengeRecord = records::decode(&snap.state)?;
            let now = clock_now_ms();
            match (rec.status, rec.status_at(now)) {
                (ChallengeStatus::Starting, _) => {
                    let rec = self.start_challenge(snap.version, &rec).await?;
                    return Ok((snap.version + 1, rec));
                }
                (ChallengeStatus::Pending, ChallengeStatus::Expired) => {
                    rec.status = ChallengeStatus::Expired;
                    let state = records::encode(&rec)?;
                    if !store
                        .replace(Doc::Challenge, id, snap.version, &state, Some(rec.ttl(now)))
                        .await?
                    {
                        continue;
                    }
                    tracing::info!(challenge_id = %id, "challenge expired");
                    let event = PlayerEvent::ChallengeExpired {
                        challenge_id: id.to_string(),
                    };
                    self.tell_challenged(&rec, None, &event).await;
                    self.unlist(&rec).await;
                    return Ok((snap.version + 1, rec));
                }
                _ => return Ok((snap.version, rec)),
            }
        }
        Err(Error::Busy(format!(
            "the challenge changed under {ATTEMPTS} attempts in a row; retry"
        )))
    }

    /// Creates the match of a fully accepted challenge (stored at
    /// `version`) under its id, then marks the challenge started. Safe to
    /// repeat: the match is created once, and its creation tells its
    /// players.
    async fn start_challenge(
        &self,
        version: u64,
        rec: &ChallengeRecord,
    ) -> Result<ChallengeRecord, Error> {
        let seats = rec
            .seats
            .iter()
            .map(|s| NewSeat {
                kind: if s.player.is_some() {
                    SeatKind::Remote
                } else {
                    SeatKind::Bot
                },
                bot: Some(s.bot.clone()),
                name: None,
                player: s.player.as_ref().map(|p| p.id.clone()),
                token_sha256: None,
            })
            .collect();
        let req = NewMatch {
            rules: rec.rules.clone(),
            seats: Some(seats),
            seed: Some(rec.seed.clone()),
            auto_deal: rec.auto_deal,
            move_timeout_ms: rec.move_timeout_ms,
            on_timeout: rec.on_timeout,
            id: Some(rec.id.clone()),
            rated: rec.rated,
        };
        if self.svc.create_at(req).await?.is_some() {
            tracing::info!(challenge_id = %rec.id, "challenge match started");
        }
        let store = self.store();
        let (mut version, mut rec) = (version, rec.clone());
        let now = clock_now_ms();
        for _ in 0..ATTEMPTS {
            if rec.status != ChallengeStatus::Starting {
                break;
            }
            rec.status = ChallengeStatus::Started;
            let state = records::encode(&rec)?;
            if store
                .replace(Doc::Challenge, &rec.id, version, &state, Some(rec.ttl(now)))
                .await?
            {
                break;
            }
            let snap = store
                .get(Doc::Challenge, &rec.id)
                .await?
                .ok_or(Error::ChallengeNotFound)?;
            (version, rec) = (snap.version, records::decode(&snap.state)?);
        }
        Ok(rec)
    }

    /// Tells every player of `rec` (but `except`).
    async fn tell_challenged(
        &self,
        rec: &ChallengeRecord,
        except: Option<&str>,
        event: &PlayerEvent,
    ) {
        for p in rec.players() {
            if Some(p.id.as_str()) != except {
                self.core.publish(&p.id, event).await;
            }
        }
    }

    /// Takes a challenge no longer pending out of the indexes (a failure
    /// is logged: readers skip closed entries and remove them).
    async fn unlist(&self, rec: &ChallengeRecord) {
        let store = self.store();
        let mut removed = store
            .index_remove(PENDING_INDEX, &rec.pending_entry())
            .await;
        for index in rec.player_indexes() {
            if removed.is_ok() {
                removed = store.index_remove(&index, &rec.player_entry()).await;
            }
        }
        if let Err(e) = removed {
            tracing::warn!(challenge_id = %rec.id, error = %e, "challenge index not updated");
        }
    }
}

/// The refusal of an answer to a challenge that is no longer pending.
fn closed(status: ChallengeStatus) -> Error {
    Error::ChallengeClosed(
        match status {
            ChallengeStatus::Declined => "the challenge was declined",
            ChallengeStatus::Cancelled => "the challenge was cancelled",
            _ => "the challenge has started",
        }
        .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: ChallengeStatus) -> ChallengeRecord {
        ChallengeRecord {
            id: "c".into(),
            rules: Rules::default(),
            rated: false,
            seed: String::new(),
            auto_deal: true,
            move_timeout_ms: None,
            on_timeout: OnTimeout::Bot,
            seats: Vec::new(),
            status,
            declined_by: None,
            created_ms: 0,
            expires_ms: 1000,
        }
    }

    #[test]
    fn only_a_pending_challenge_past_its_expiry_reads_as_expired() {
        let pending = record(ChallengeStatus::Pending);
        assert_eq!(pending.status_at(999), ChallengeStatus::Pending);
        assert_eq!(pending.status_at(1000), ChallengeStatus::Expired);
        for closed in [
            ChallengeStatus::Starting,
            ChallengeStatus::Started,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
        ] {
            assert_eq!(record(closed).status_at(5000), closed);
        }
    }

    #[test]
    fn the_challenger_lists_it_as_outgoing_and_the_others_as_incoming() {
        let player = |id: &str| SeatPlayer {
            id: id.into(),
            name: id.into(),
            kind: records::PlayerKind::Bot,
        };
        let seat = |role, p: Option<SeatPlayer>| ChallengeSeat {
            role,
            player: p,
            bot: "random".into(),
            accepted: role != ChallengeRole::Opponent,
        };
        let mut rec = record(ChallengeStatus::Pending);
        rec.seats = vec![
            seat(ChallengeRole::Challenger, Some(player("a"))),
            seat(ChallengeRole::Opponent, Some(player("b"))),
            seat(ChallengeRole::Bot, None),
        ];
        assert_eq!(
            rec.player_indexes(),
            ["challenges:out:a", "challenges:in:b"]
        );
        assert_eq!(rec.challenger(), "a");
        assert_eq!(rec.waiting_for(), 1);
        assert_eq!(rec.seat_of("b"), Some(1));
        assert_eq!(rec.seat_of("c"), None);
    }
}
