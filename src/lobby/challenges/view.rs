//! What the players of a challenge see of it: every seat with its side,
//! role and acceptance, who is still awaited, the match once started, and
//! the times as RFC 3339. The seed and the house bot standing in at an
//! invited player's seat are never shown. A view is taken as of a given
//! moment, so a pending challenge past its expiry shows as expired even
//! before any writer marked it so.

use crate::lobby::records::SeatPlayer;
use crate::rules::{Rules, Seat, Side};
use crate::service::rfc3339;

use super::record::{ChallengeRecord, ChallengeRole, ChallengeStatus};

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
    /// The finished match this challenge is the rematch of.
    pub rematch_of: Option<String>,
}

/// A player's pending challenges.
#[derive(Clone, Debug)]
pub struct ChallengeList {
    /// Challenges the player is invited to, oldest first.
    pub incoming: Vec<ChallengeView>,
    /// Challenges the player made, oldest first.
    pub outgoing: Vec<ChallengeView>,
    /// The cursor of the rest of `incoming`; `None` when it is all shown.
    pub next_incoming: Option<String>,
    /// The cursor of the rest of `outgoing`; `None` when it is all shown.
    pub next_outgoing: Option<String>,
}

impl ChallengeRecord {
    /// The view its players see, as of `now`.
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
            rematch_of: self.rematch_of.clone(),
        }
    }
}
