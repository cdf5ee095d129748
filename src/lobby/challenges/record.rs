//! The stored challenge and what follows from the record alone, with no
//! store and no clock of its own (the time is always passed in): where it
//! stands at a given moment (a pending challenge past its expiry reads as
//! expired), who made it, who is invited and who has yet to accept, what
//! an accept, a decline or a cancel does to it and when each is refused,
//! what a reader must finish that its last writer left undone, how long
//! the store keeps it, and the index entries that list it.
//!
//! The operations in the sibling files read and write the record through
//! the lobby's update helper; every decision they write is taken here, so
//! that it is tested here without a store.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lobby::pending::{Invitation, Slot};
use crate::lobby::records::SeatPlayer;
use crate::rules::Rules;
use crate::service::{Error, OnTimeout};

/// How long a stored challenge outlives its expiry (so that late readers
/// learn what became of it).
const KEEP_AFTER_EXPIRY: Duration = Duration::from_secs(24 * 3600);

/// The index of pending challenges, ordered by expiry (`<ms>:<id>`).
pub(super) const PENDING_INDEX: &str = "challenges:pending";

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
    /// The finished match it is the rematch of, if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
}

/// The answer to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// An invited player takes its seat.
    Accept,
    /// An invited player refuses: the challenge is closed.
    Decline,
    /// The challenger withdraws it.
    Cancel,
}

/// What a challenge's last writer left for its next reader to finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unsettled {
    /// Pending past its expiry: to be written expired, and announced.
    Expire,
    /// Fully accepted, its match maybe not created yet: to be started.
    Start,
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

    /// Every player in it (bot seats have none).
    pub(super) fn players(&self) -> impl Iterator<Item = &SeatPlayer> {
        self.seats.iter().filter_map(|s| s.player.as_ref())
    }

    /// How long the store keeps it, written at `now`.
    pub(super) fn ttl(&self, now: u64) -> Duration {
        Duration::from_millis(self.expires_ms.saturating_sub(now)) + KEEP_AFTER_EXPIRY
    }

    /// Its entry in [`PENDING_INDEX`].
    pub(super) fn pending_entry(&self) -> String {
        format!("{:015}:{}", self.expires_ms, self.id)
    }

    /// Its entry in each of its players' indexes.
    pub(super) fn player_entry(&self) -> String {
        format!("{:015}:{}", self.created_ms, self.id)
    }

    /// Every player's index: the challenger's outgoing, the others'
    /// incoming.
    pub(super) fn player_indexes(&self) -> Vec<String> {
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

    /// The slots it holds in its players' pending lists: the
    /// challenger's, and each invited player's, until its expiry.
    pub(super) fn invitation(&self) -> Invitation<'_> {
        Invitation {
            maker: self.challenger(),
            to: self
                .seats
                .iter()
                .filter(|s| s.role != ChallengeRole::Challenger)
                .filter_map(|s| s.player.as_ref().map(|p| p.id.as_str()))
                .collect(),
            slot: Slot {
                id: self.id.clone(),
                expires_ms: self.expires_ms,
            },
        }
    }

    /// What its next reader must finish before anything else, as of
    /// `now`: expire it (pending past its expiry) or start it (found
    /// `starting`); `None` when it is settled.
    pub(super) fn unsettled(&self, now: u64) -> Option<Unsettled> {
        match (self.status, self.status_at(now)) {
            (ChallengeStatus::Starting, _) => Some(Unsettled::Start),
            (ChallengeStatus::Pending, ChallengeStatus::Expired) => Some(Unsettled::Expire),
            _ => None,
        }
    }

    /// Whether `player` may give `answer` as of `now`: the seat it changes,
    /// or `None` when there is nothing to change (an acceptance already
    /// made, or a match it already started).
    ///
    /// # Errors
    /// `Forbidden` for a player not in it, an invited player cancelling or
    /// the challenger answering its own challenge; `ChallengeExpired`;
    /// `ChallengeClosed` once declined, cancelled or (but for an
    /// acceptance) started.
    pub(super) fn check_answer(
        &self,
        player: &str,
        answer: Answer,
        now: u64,
    ) -> Result<Option<usize>, Error> {
        let seat = self.seat_of(player).ok_or_else(|| {
            Error::Forbidden("this challenge is not addressed to this player".into())
        })?;
        match (answer, self.seats[seat].role) {
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
        match self.status_at(now) {
            ChallengeStatus::Pending => {}
            ChallengeStatus::Expired => return Err(Error::ChallengeExpired),
            // Accepted already (only acceptances start a match).
            ChallengeStatus::Starting | ChallengeStatus::Started if answer == Answer::Accept => {
                return Ok(None);
            }
            status => return Err(closed(status)),
        }
        if answer == Answer::Accept && self.seats[seat].accepted {
            return Ok(None);
        }
        Ok(Some(seat))
    }

    /// Gives `player`'s `answer` as of `now`: the last acceptance makes it
    /// `starting`, a decline or a cancel closes it. Returns whether it
    /// changed (a repeated acceptance does not).
    ///
    /// # Errors
    /// As [`check_answer`](Self::check_answer); nothing changed then.
    pub(super) fn answer(&mut self, player: &str, answer: Answer, now: u64) -> Result<bool, Error> {
        let Some(seat) = self.check_answer(player, answer, now)? else {
            return Ok(false);
        };
        match answer {
            Answer::Accept => {
                self.seats[seat].accepted = true;
                if self.waiting_for() == 0 {
                    self.status = ChallengeStatus::Starting;
                }
            }
            Answer::Decline => {
                self.status = ChallengeStatus::Declined;
                self.declined_by = Some(player.to_string());
            }
            Answer::Cancel => self.status = ChallengeStatus::Cancelled,
        }
        Ok(true)
    }
}

/// The index of the challenges a player made (`out`) or is invited to
/// (`in`).
pub(super) fn player_index(direction: &str, player: &str) -> String {
    format!("challenges:{direction}:{player}")
}

/// Whether `id` can name a challenge (24 lowercase hex digits), so that
/// anything else is refused before the store is asked.
///
/// # Errors
/// `ChallengeNotFound` for any other text.
pub(super) fn check_id(id: &str) -> Result<(), Error> {
    let hex = id
        .bytes()
        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if id.len() == 24 && hex {
        Ok(())
    } else {
        Err(Error::ChallengeNotFound)
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
    use crate::lobby::records::PlayerKind;

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
            rematch_of: None,
        }
    }

    fn player(id: &str) -> SeatPlayer {
        SeatPlayer {
            id: id.into(),
            name: id.into(),
            kind: PlayerKind::Bot,
        }
    }

    fn seat(role: ChallengeRole, p: Option<SeatPlayer>) -> ChallengeSeat {
        ChallengeSeat {
            role,
            player: p,
            bot: "random".into(),
            accepted: role != ChallengeRole::Opponent,
        }
    }

    /// `a` challenges `b` and `c`, a bot in the last seat.
    fn three_players() -> ChallengeRecord {
        let mut rec = record(ChallengeStatus::Pending);
        rec.seats = vec![
            seat(ChallengeRole::Challenger, Some(player("a"))),
            seat(ChallengeRole::Opponent, Some(player("b"))),
            seat(ChallengeRole::Opponent, Some(player("c"))),
            seat(ChallengeRole::Bot, None),
        ];
        rec
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

    #[test]
    fn the_last_acceptance_makes_it_starting_and_a_repeat_changes_nothing() {
        let mut rec = three_players();
        assert!(rec.answer("b", Answer::Accept, 0).unwrap());
        assert_eq!(rec.status, ChallengeStatus::Pending);
        assert!(!rec.answer("b", Answer::Accept, 0).unwrap());
        assert!(rec.answer("c", Answer::Accept, 0).unwrap());
        assert_eq!(rec.status, ChallengeStatus::Starting);
        assert_eq!(rec.waiting_for(), 0);
        assert_eq!(rec.unsettled(0), Some(Unsettled::Start));
        assert!(!rec.answer("c", Answer::Accept, 0).unwrap());
        assert!(matches!(
            rec.answer("b", Answer::Decline, 0),
            Err(Error::ChallengeClosed(_))
        ));
    }

    #[test]
    fn a_decline_or_a_cancel_closes_it_for_everyone() {
        let mut rec = three_players();
        assert!(rec.answer("c", Answer::Decline, 0).unwrap());
        assert_eq!(rec.status, ChallengeStatus::Declined);
        assert_eq!(rec.declined_by.as_deref(), Some("c"));
        for (who, answer) in [("b", Answer::Accept), ("a", Answer::Cancel)] {
            assert!(matches!(
                rec.answer(who, answer, 0),
                Err(Error::ChallengeClosed(m)) if m.contains("declined")
            ));
        }
        let mut rec = three_players();
        assert!(rec.answer("a", Answer::Cancel, 0).unwrap());
        assert_eq!(rec.status, ChallengeStatus::Cancelled);
        assert!(matches!(
            rec.answer("b", Answer::Accept, 0),
            Err(Error::ChallengeClosed(m)) if m.contains("cancelled")
        ));
    }

    #[test]
    fn only_the_invited_answer_and_only_the_challenger_cancels() {
        let rec = three_players();
        for (who, answer) in [
            ("z", Answer::Accept),
            ("z", Answer::Cancel),
            ("a", Answer::Accept),
            ("a", Answer::Decline),
            ("b", Answer::Cancel),
        ] {
            assert!(
                matches!(rec.clone().answer(who, answer, 0), Err(Error::Forbidden(_))),
                "{who} {answer:?}"
            );
        }
    }

    #[test]
    fn past_its_expiry_it_is_to_be_expired_and_refuses_every_answer() {
        let mut rec = three_players();
        assert_eq!(rec.unsettled(999), None);
        assert_eq!(rec.unsettled(1000), Some(Unsettled::Expire));
        assert!(matches!(
            rec.answer("b", Answer::Accept, 1000),
            Err(Error::ChallengeExpired)
        ));
        assert!(matches!(
            rec.answer("a", Answer::Cancel, 1000),
            Err(Error::ChallengeExpired)
        ));
        assert_eq!(rec, three_players(), "a refusal changes nothing");
    }

    #[test]
    fn only_24_lowercase_hex_digits_name_a_challenge() {
        assert!(check_id("0123456789abcdef01234567").is_ok());
        for id in [
            "",
            "nothex",
            "ABCDEF000000000000000000",
            "0123456789abcdef0123456",
        ] {
            assert!(
                matches!(check_id(id), Err(Error::ChallengeNotFound)),
                "{id}"
            );
        }
    }
}
