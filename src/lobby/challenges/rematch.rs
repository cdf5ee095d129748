//! Rematch: a challenge made from a finished match, with the same players,
//! rules, rating and clock, each player one seat further on.
//!
//! `new seat i` takes the player of `old seat i + 1` (mod the seats): in
//! the pairs game the partnerships stay and the sides switch, and in
//! every variant the first deal falls to another player. The player who
//! asks is its challenger (accepted); every other player of the match is
//! invited and answers as to any challenge; house bots accept at once.
//! Its id is derived from the match's, so there is one rematch offer per
//! match: a second player asking for it accepts the offer already made,
//! whichever instance it asks, since the store takes the id once.

use sha2::{Digest, Sha256};

use crate::lobby::Lobby;
use crate::rules::Phase;
use crate::service::{self, Error, SeatKind, SeatRecord, clock_now_ms};

use super::create::DEFAULT_EXPIRY_S;
use super::record::{ChallengeRecord, ChallengeRole, ChallengeSeat, ChallengeStatus};
use super::view::ChallengeView;

/// The id of match `match_id`'s rematch: 24 hex digits of a hash of it.
pub fn rematch_id(match_id: &str) -> String {
    let digest = Sha256::digest(format!("rematch:{match_id}").as_bytes());
    hex::encode(&digest[..12])
}

/// The seats of the rematch of a match seated as `seats`, asked by player
/// `caller`: each player one seat further on (new seat `i` is old seat
/// `i + 1`), `caller` the challenger, its partner (pairs game) the
/// partner, the other players opponents, house bots bot seats at their
/// level. Every seat keeps its stand-in bot.
///
/// # Errors
/// `InvalidRequest` when a seat is held by a seat token rather than a
/// player (it cannot be invited).
pub(super) fn rematch_seats(
    seats: &[SeatRecord],
    caller: &str,
    pairs: bool,
) -> Result<Vec<ChallengeSeat>, Error> {
    let n = seats.len();
    let caller_at = seats
        .iter()
        .position(|s| s.player.as_ref().is_some_and(|p| p.id == caller));
    (0..n)
        .map(|i| {
            let old = (i + 1) % n;
            let s = &seats[old];
            if s.kind == SeatKind::Bot {
                return Ok(ChallengeSeat {
                    role: ChallengeRole::Bot,
                    player: None,
                    bot: s.bot.clone(),
                    accepted: true,
                });
            }
            let player = s.player.clone().ok_or_else(|| {
                Error::InvalidRequest(format!(
                    "seat {old} is held by a seat token, not a player: only matches of \
                     players and house bots have rematches"
                ))
            })?;
            let role = match caller_at {
                Some(c) if c == old => ChallengeRole::Challenger,
                Some(c) if pairs && (c + 2) % n == old => ChallengeRole::Partner,
                _ => ChallengeRole::Opponent,
            };
            Ok(ChallengeSeat {
                accepted: role == ChallengeRole::Challenger,
                role,
                player: Some(player),
                bot: s.bot.clone(),
            })
        })
        .collect()
}

impl Lobby {
    /// Asks for the rematch of finished match `match_id` as the player
    /// whose key is `key`: offers it (a challenge with `rematch_of`) and
    /// answers it with `true`, or, when another player of the match
    /// offered it already, accepts that offer and answers `false`.
    ///
    /// # Errors
    /// `Unauthorized`; `MatchNotFound`; `Forbidden` for a player not in
    /// the match; `MatchNotOver`; `InvalidRequest` for a match with a seat
    /// held by a token; the errors of accepting a challenge (a declined,
    /// cancelled or expired offer); `StoreUnavailable`.
    pub async fn rematch(&self, match_id: &str, key: &str) -> Result<(ChallengeView, bool), Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let game = self.svc.record(match_id).await?;
        if !game
            .seats
            .iter()
            .any(|s| s.player.as_ref().is_some_and(|p| p.id == me.id))
        {
            return Err(Error::Forbidden(
                "only a player of the match asks for its rematch".into(),
            ));
        }
        if game.game.phase() != Phase::MatchOver {
            return Err(Error::MatchNotOver(
                "a rematch is offered once the match is over".into(),
            ));
        }
        let id = rematch_id(match_id);
        if let Some(existing) = self.answer_rematch(&id, key, &me.id).await? {
            return Ok((existing, false));
        }
        let rules = game.game.rules.clone();
        let seats = rematch_seats(&game.seats, &me.id, rules.variant.table().pairs)?;
        let now = clock_now_ms();
        let rec = ChallengeRecord {
            id: id.clone(),
            rules,
            rated: game.rated.is_some(),
            seed: hex::encode(service::random_bytes::<32>()?),
            auto_deal: game.auto_deal,
            move_timeout_ms: game.move_timeout_ms,
            on_timeout: game.on_timeout,
            status: if seats.iter().all(|s| s.accepted) {
                ChallengeStatus::Starting
            } else {
                ChallengeStatus::Pending
            },
            seats,
            declined_by: None,
            created_ms: now,
            expires_ms: now + DEFAULT_EXPIRY_S * 1000,
            rematch_of: Some(match_id.to_string()),
        };
        if !self.offer(&rec).await? {
            // Another player's offer was stored first: accept it.
            let view = self.answer_rematch(&id, key, &me.id).await?;
            return view.map(|v| (v, false)).ok_or(Error::ChallengeNotFound);
        }
        Ok((self.announce_or_start(&rec, me.seat_player()).await, true))
    }

    /// The rematch offer `id` as player `me` (whose key is `key`) answers
    /// it: accepted by it, or as it is when `me` made it; `None` when
    /// there is no offer yet.
    ///
    /// # Errors
    /// The errors of accepting a challenge.
    async fn answer_rematch(
        &self,
        id: &str,
        key: &str,
        me: &str,
    ) -> Result<Option<ChallengeView>, Error> {
        let rec = match self.load_challenge(id).await {
            Ok(rec) => rec,
            Err(Error::ChallengeNotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        if rec.challenger() == me {
            return Ok(Some(rec.view(clock_now_ms())));
        }
        self.accept_challenge(id, key).await.map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::records::{PlayerKind, SeatPlayer};

    fn player(id: &str) -> SeatRecord {
        SeatRecord {
            kind: SeatKind::Remote,
            bot: "medium".into(),
            name: None,
            token_sha256: None,
            player: Some(SeatPlayer {
                id: id.into(),
                name: id.into(),
                kind: PlayerKind::Bot,
            }),
        }
    }

    fn house(bot: &str) -> SeatRecord {
        SeatRecord {
            kind: SeatKind::Bot,
            bot: bot.into(),
            name: None,
            token_sha256: None,
            player: SeatPlayer::house(bot),
        }
    }

    #[test]
    fn in_pairs_partners_stay_together_and_the_sides_switch() {
        let seats = [player("a"), player("b"), player("c"), house("easy")];
        let new = rematch_seats(&seats, "c", true).unwrap();
        let who: Vec<_> = new
            .iter()
            .map(|s| s.player.as_ref().map_or(s.bot.as_str(), |p| p.id.as_str()))
            .collect();
        assert_eq!(who, ["b", "c", "easy", "a"]);
        // a and c, partners at seats 0 and 2, now sit at 3 and 1.
        let roles: Vec<_> = new.iter().map(|s| s.role).collect();
        assert_eq!(
            roles,
            [
                ChallengeRole::Opponent,
                ChallengeRole::Challenger,
                ChallengeRole::Bot,
                ChallengeRole::Partner,
            ]
        );
        let accepted: Vec<_> = new.iter().map(|s| s.accepted).collect();
        assert_eq!(accepted, [false, true, true, false]);
    }

    #[test]
    fn a_seat_held_by_a_token_has_no_rematch() {
        let mut token = player("x");
        token.player = None;
        let seats = [player("a"), token, house("easy")];
        assert!(matches!(
            rematch_seats(&seats, "a", false),
            Err(Error::InvalidRequest(_))
        ));
    }

    #[test]
    fn the_rematch_id_is_the_match_s_own_and_looks_like_a_challenge_id() {
        let id = rematch_id("0123456789abcdef01234567");
        assert_eq!(id, rematch_id("0123456789abcdef01234567"));
        assert_ne!(id, rematch_id("0123456789abcdef01234568"));
        assert!(super::super::record::check_id(&id).is_ok());
    }
}
