//! Making a challenge, in the order its steps run: validate the request
//! (rules, then the seats in [`check_seats`], the move clock, the
//! expiry), resolve the seats (each named player looked up), build the
//! record (a fresh id, which the match will have, and a fresh seed), take
//! its slots in the players' pending lists (refused past a challenger's
//! [`MAX_MADE`] or an invited player's [`MAX_RECEIVED`], by
//! compare-and-set, so the caps hold under races; see `lobby/pending.rs`),
//! store it with its index entries, and tell each invited player.
//!
//! Who sits where: the challenger at seat 0; in the pairs game its
//! partner opposite (seat 2) and the opponents at seats 1 and 3; in the
//! individual variants the opponents in the order named. A seat left
//! without a player takes the house bot `fill_with`, which every seat
//! also keeps as its stand-in on a timeout. A house bot's player named
//! among the opponents or as the partner (`house-<level>`) takes a bot
//! seat at that level, accepted at once; when every player named is a
//! house bot the challenge is fully accepted as made and its match starts
//! at once.

use crate::bots;
use crate::lobby::Lobby;
use crate::lobby::match_rules::match_rules;
use crate::lobby::records::{self, PlayerEvent, PlayerRecord, SeatPlayer};
use crate::lobby::store::Doc;
use crate::rating;
use crate::rules::{Rules, Seat, Variant};
use crate::service::{
    self, Error, HOUSE_PREFIX, Holder, OnTimeout, SeatSpec, clock_now_ms, rfc3339,
};

use super::record::{ChallengeRecord, ChallengeRole, ChallengeSeat, ChallengeStatus};
use super::view::ChallengeView;

/// Default life of an unanswered challenge, in seconds.
pub const DEFAULT_EXPIRY_S: u64 = 600;
/// The longest life of an unanswered challenge, in seconds.
pub const MAX_EXPIRY_S: u64 = 86_400;
pub use crate::lobby::pending::{MAX_MADE, MAX_RECEIVED};

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

/// Who sits where in a challenge's match, as [`check_seats`] found it.
pub(super) struct SeatPlan<'a> {
    /// Each seat after the challenger's (seat 0), in order: the player
    /// invited there and its role (a house bot's player named at its
    /// level has the role `Bot`), or `None` for the `fill` house bot.
    pub others: Vec<Option<(&'a str, ChallengeRole)>>,
    /// The house bot at every seat without a player, and every seat's
    /// stand-in on a timeout.
    pub fill: String,
}

/// A request found valid: its rules, seats and life.
struct Checked<'a> {
    rules: Rules,
    seats: SeatPlan<'a>,
    expires_in_s: u64,
}

impl Lobby {
    /// Makes a challenge as the player whose key is `key`.
    ///
    /// # Errors
    /// `Unauthorized` for a key that is not current; `InvalidRequest` for
    /// bad rules, counts or players (the challenger itself, a player named
    /// twice, an unknown house bot); `PlayerNotFound` for an unknown player;
    /// `TooManyChallenges` past [`MAX_MADE`] pending invitations made;
    /// `InboxFull` for an invited player with [`MAX_RECEIVED`] pending;
    /// `Busy`; `StoreUnavailable`.
    pub async fn create_challenge(
        &self,
        key: &str,
        req: NewChallenge,
    ) -> Result<ChallengeView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let checked = check_request(&req, &me.id)?;
        let seats = self.challenge_seats(&me, checked.seats).await?;
        let rec = new_record(&req, checked.rules, seats, checked.expires_in_s)?;
        if !self.offer(&rec).await? {
            return Err(Error::Internal("challenge id collision".into()));
        }
        Ok(self.announce_or_start(&rec, me.seat_player()).await)
    }

    /// Takes the slots of the new challenge `rec` in its players' pending
    /// lists and stores it: whether it was stored (`false`, slots given
    /// back, when a challenge has its id already).
    ///
    /// # Errors
    /// `TooManyChallenges`; `InboxFull`; `StoreUnavailable` (slots given
    /// back).
    pub(super) async fn offer(&self, rec: &ChallengeRecord) -> Result<bool, Error> {
        let invitation = rec.invitation();
        self.core.take_slots(&invitation).await?;
        let stored = self.store_challenge(rec).await;
        if !matches!(stored, Ok(true)) {
            self.core
                .give_back_slots(Some(invitation.maker), &invitation.to, &rec.id)
                .await;
        }
        stored
    }

    /// After the new challenge `rec` from `from` is stored: each invited
    /// player hears of it, or, when every seat accepted already (house
    /// bots only), its match starts now. Its view.
    pub(super) async fn announce_or_start(
        &self,
        rec: &ChallengeRecord,
        from: SeatPlayer,
    ) -> ChallengeView {
        tracing::info!(challenge_id = %rec.id, rated = rec.rated, "challenge made");
        if rec.status == ChallengeStatus::Starting {
            // House bots accept at once: the match starts now (or, if this
            // fails, on the challenge's next read).
            self.unlist_challenge(rec).await;
            return match self.start_accepted(rec).await {
                Ok(started) => started.view(clock_now_ms()),
                Err(e) => {
                    tracing::warn!(challenge_id = %rec.id, error = %e, "match start deferred");
                    rec.view(rec.created_ms)
                }
            };
        }
        self.announce_challenge(rec, from).await;
        rec.view(rec.created_ms)
    }

    /// Every seat of the challenge `me` makes: `me` at seat 0 (accepted),
    /// each invited player as stored now (to accept), a house bot at each
    /// other seat.
    ///
    /// # Errors
    /// `PlayerNotFound` for a player who does not exist;
    /// `StoreUnavailable`.
    async fn challenge_seats(
        &self,
        me: &PlayerRecord,
        plan: SeatPlan<'_>,
    ) -> Result<Vec<ChallengeSeat>, Error> {
        let mut seats = Vec::with_capacity(plan.others.len() + 1);
        seats.push(ChallengeSeat {
            role: ChallengeRole::Challenger,
            player: Some(me.seat_player()),
            bot: plan.fill.clone(),
            accepted: true,
        });
        for spec in plan.others {
            seats.push(match spec {
                Some((id, ChallengeRole::Bot)) => ChallengeSeat {
                    role: ChallengeRole::Bot,
                    player: None,
                    bot: id.strip_prefix(HOUSE_PREFIX).unwrap_or(id).to_string(),
                    accepted: true,
                },
                Some((id, role)) => {
                    let (_, p) = self
                        .core
                        .load_player(id)
                        .await?
                        .ok_or(Error::PlayerNotFound)?;
                    ChallengeSeat {
                        role,
                        player: Some(p.seat_player()),
                        bot: plan.fill.clone(),
                        accepted: false,
                    }
                }
                None => ChallengeSeat {
                    role: ChallengeRole::Bot,
                    player: None,
                    bot: plan.fill.clone(),
                    accepted: true,
                },
            });
        }
        Ok(seats)
    }

    /// Stores a new challenge and lists it in the indexes: `false`, and
    /// nothing done, if its id is taken.
    ///
    /// # Errors
    /// `StoreUnavailable`.
    async fn store_challenge(&self, rec: &ChallengeRecord) -> Result<bool, Error> {
        let state = records::encode(rec)?;
        let ttl = Some(rec.ttl(rec.created_ms));
        if !self
            .store()
            .insert(Doc::Challenge, &rec.id, &state, ttl)
            .await?
        {
            return Ok(false);
        }
        self.list_challenge(rec).await?;
        Ok(true)
    }

    /// Tells each invited player of the new challenge `rec` from `from`.
    async fn announce_challenge(&self, rec: &ChallengeRecord, from: SeatPlayer) {
        let variant = rating::pool(rec.rules.variant).to_string();
        for (seat, s) in rec.seats.iter().enumerate() {
            if let Some(p) = s.player.as_ref().filter(|_| !s.accepted) {
                let event = PlayerEvent::ChallengeReceived {
                    challenge_id: rec.id.clone(),
                    from: from.clone(),
                    variant: variant.clone(),
                    rated: rec.rated,
                    seat: seat as Seat,
                    expires_at: rfc3339(rec.expires_ms),
                    rematch_of: rec.rematch_of.clone(),
                };
                self.core.publish(&p.id, &event).await;
            }
        }
    }
}

/// Validates a challenge request from player `challenger`, in order: the
/// rules, the seats, the move clock, the expiry.
///
/// # Errors
/// `InvalidRequest`, saying what is wrong first.
fn check_request<'a>(req: &'a NewChallenge, challenger: &str) -> Result<Checked<'a>, Error> {
    let rules = match_rules(
        req.variant,
        req.rules.as_ref(),
        req.rated,
        "challenge",
        |_| Ok(()),
    )?;
    let seats = check_seats(req, challenger)?;
    service::check_move_timeout(req.move_timeout_ms)?;
    let expires_in_s = req.expires_in_s.unwrap_or(DEFAULT_EXPIRY_S);
    if !(1..=MAX_EXPIRY_S).contains(&expires_in_s) {
        return Err(Error::InvalidRequest(format!(
            "expires_in_s must be between 1 and {MAX_EXPIRY_S}"
        )));
    }
    Ok(Checked {
        rules,
        seats,
        expires_in_s,
    })
}

/// Validates the seats a challenge asks for, made by player `challenger`,
/// and places them: as many players as the variant seats besides the
/// challenger (in the pairs game one or two opponents and maybe a
/// partner; a partner nowhere else), none of them the challenger or named
/// twice, a house bot's player (`house-<level>`) a known house bot; `fill_with` a house bot, and given whenever a seat
/// would have no player. Whether each named player exists is left to the
/// lookup that seats it.
///
/// # Errors
/// `InvalidRequest`, saying what is wrong first.
pub(super) fn check_seats<'a>(
    req: &'a NewChallenge,
    challenger: &str,
) -> Result<SeatPlan<'a>, Error> {
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
    let fill_with = req.fill_with.as_deref().unwrap_or(bots::DEFAULT);
    let mut named: Vec<&str> = Vec::new();
    for id in req.partner.iter().chain(&req.opponents) {
        if let Some(bot) = id.strip_prefix(HOUSE_PREFIX) {
            // A house bot named at its level: a bot seat, accepted at once.
            service::house_bot(bot)?;
            continue;
        }
        if id == challenger {
            return Err(Error::InvalidRequest(
                "a player cannot challenge itself or be its own partner".into(),
            ));
        }
        let seat = SeatSpec {
            holder: Holder::Remote,
            bot: fill_with,
            name: None,
            player: Some(id),
        };
        service::check_seat_spec(seat, &named, usize::MAX)?;
        named.push(id);
    }
    service::house_bot(fill_with)?;
    let others = seat_order(req);
    let empty = others.iter().filter(|s| s.is_none()).count();
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
    Ok(SeatPlan { others, fill })
}

/// The seats after the challenger's, in order, with the player named for
/// each: in the pairs game the first opponent at seat 1, the partner at
/// seat 2 and the second opponent at seat 3; otherwise the opponents in
/// the order named. The counts are already checked.
fn seat_order(req: &NewChallenge) -> Vec<Option<(&str, ChallengeRole)>> {
    let mut order = named_order(req);
    for (id, role) in order.iter_mut().flatten() {
        if id.starts_with(HOUSE_PREFIX) {
            *role = ChallengeRole::Bot;
        }
    }
    order
}

/// The seats after the challenger's with the role each was named for.
fn named_order(req: &NewChallenge) -> Vec<Option<(&str, ChallengeRole)>> {
    let layout = req.variant.table();
    let mut order: Vec<Option<(&str, ChallengeRole)>> = vec![None; usize::from(layout.seats)];
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
    order.remove(0);
    order
}

/// The record of a new challenge made now, pending: a fresh id (which
/// its match will have) and a fresh seed.
///
/// # Errors
/// `Internal` if the system's randomness fails.
fn new_record(
    req: &NewChallenge,
    rules: Rules,
    seats: Vec<ChallengeSeat>,
    expires_in_s: u64,
) -> Result<ChallengeRecord, Error> {
    let now = clock_now_ms();
    // Only house bots invited: every seat has accepted already.
    let status = if seats.iter().all(|s| s.accepted) {
        ChallengeStatus::Starting
    } else {
        ChallengeStatus::Pending
    };
    Ok(ChallengeRecord {
        id: hex::encode(service::random_bytes::<12>()?),
        rules,
        rated: req.rated,
        seed: hex::encode(service::random_bytes::<32>()?),
        auto_deal: req.auto_deal,
        move_timeout_ms: req.move_timeout_ms,
        on_timeout: req.on_timeout,
        seats,
        status,
        declined_by: None,
        created_ms: now,
        expires_ms: now + expires_in_s * 1000,
        rematch_of: None,
    })
}
