//! Each player's pending invitations, counted so that a cap holds under
//! races: the challenges (and reserved table seats) it made that wait for
//! an answer, and those it was sent.
//!
//! One document per player ([`Doc::Pending`], under the player's id)
//! lists both, each entry with its expiry. An invitation takes its slots
//! before it is stored, each by one compare-and-set update of a player's
//! document that first drops the entries past their expiry and then
//! refuses a full list, so two instances racing can never both take the
//! last slot. The slots are given back when the invitation is answered,
//! cancelled or expires (after the write that closes it, best effort);
//! an entry whose release failed, or whose invitation was never stored
//! (a crash between the two writes), frees itself at its expiry, so no
//! slot is lost for longer than the invitation could have lived.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::LobbyCore;
use super::store::Doc;
use super::update::{Step, upsert};
use crate::service::{Error, clock_now_ms};

/// Most pending invitations (challenges and reserved seats) one player
/// may have made at once.
pub const MAX_MADE: usize = 50;
/// Most pending invitations one player may have been sent at once.
pub const MAX_RECEIVED: usize = 50;

/// How long a player's document outlives its last entry's expiry.
const KEEP_AFTER: Duration = Duration::from_secs(60);

/// An invitation holding a slot: its id (a challenge's or a table's) and
/// when it expires unanswered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The challenge or table id.
    pub id: String,
    /// Its expiry (milliseconds since the Unix epoch): past it, the slot
    /// is free whatever became of the invitation.
    pub expires_ms: u64,
}

/// A player's pending invitations, both ways.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Those it made.
    #[serde(default)]
    pub made: Vec<Slot>,
    /// Those it was sent.
    #[serde(default)]
    pub received: Vec<Slot>,
}

/// Which list of a player's document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Invitations the player made.
    Made,
    /// Invitations the player was sent.
    Received,
}

impl Pending {
    fn list(&mut self, way: Way) -> &mut Vec<Slot> {
        match way {
            Way::Made => &mut self.made,
            Way::Received => &mut self.received,
        }
    }

    /// Drops the entries past their expiry as of `now`; whether any was.
    fn drop_expired(&mut self, now: u64) -> bool {
        let before = self.made.len() + self.received.len();
        self.made.retain(|s| s.expires_ms > now);
        self.received.retain(|s| s.expires_ms > now);
        before != self.made.len() + self.received.len()
    }

    /// Takes a slot for `slot` in list `way` as of `now`, unless the
    /// list holds `cap` live entries: whether it was taken (an entry of
    /// the same id counts as taken already).
    pub fn take(&mut self, way: Way, slot: &Slot, cap: usize, now: u64) -> bool {
        self.drop_expired(now);
        let list = self.list(way);
        if list.iter().any(|s| s.id == slot.id) {
            return true;
        }
        if list.len() >= cap {
            return false;
        }
        list.push(slot.clone());
        true
    }

    /// Gives back the slot of invitation `id` in list `way`; whether the
    /// document changed.
    pub fn give_back(&mut self, way: Way, id: &str, now: u64) -> bool {
        let expired = self.drop_expired(now);
        let list = self.list(way);
        let before = list.len();
        list.retain(|s| s.id != id);
        expired || list.len() != before
    }

    /// How long the store keeps it, written at `now`.
    fn ttl(&self, now: u64) -> Duration {
        let last = self
            .made
            .iter()
            .chain(&self.received)
            .map(|s| s.expires_ms)
            .max()
            .unwrap_or(now);
        Duration::from_millis(last.saturating_sub(now)) + KEEP_AFTER
    }
}

/// Who takes which slot for one invitation: the maker, and everyone sent it.
pub struct Invitation<'a> {
    /// The player who makes it.
    pub maker: &'a str,
    /// The players it is sent to.
    pub to: Vec<&'a str>,
    /// The invitation's id and expiry.
    pub slot: Slot,
}

impl LobbyCore {
    /// Takes the slots of `inv` before it is stored: the maker's (at most
    /// [`MAX_MADE`]) then each invited player's (at most
    /// [`MAX_RECEIVED`]); on a refusal the slots already taken are given
    /// back.
    ///
    /// # Errors
    /// `TooManyChallenges` for a maker with [`MAX_MADE`] pending
    /// invitations; `InboxFull` for an invited player with
    /// [`MAX_RECEIVED`]; `Busy`; `StoreUnavailable`.
    pub async fn take_slots(&self, inv: &Invitation<'_>) -> Result<(), Error> {
        if !self
            .take_slot(inv.maker, Way::Made, &inv.slot, MAX_MADE)
            .await?
        {
            return Err(Error::TooManyChallenges(format!(
                "a player may have {MAX_MADE} pending invitations (challenges and reserved seats) \
                 at once; cancel one, or wait for answers"
            )));
        }
        for (i, to) in inv.to.iter().enumerate() {
            let taken = self
                .take_slot(to, Way::Received, &inv.slot, MAX_RECEIVED)
                .await;
            if !matches!(taken, Ok(true)) {
                let taken_before: Vec<&str> = inv.to[..i].to_vec();
                self.give_back_slots(Some(inv.maker), &taken_before, &inv.slot.id)
                    .await;
                taken?;
                return Err(Error::InboxFull(format!(
                    "player {to} has {MAX_RECEIVED} pending invitations waiting for its answer; \
                     try again later"
                )));
            }
        }
        Ok(())
    }

    /// Gives back the slots invitation `id` holds: the maker's (when
    /// given: nobody is left to answer), and each of `to`'s. A failure is
    /// logged: the slot frees itself at expiry.
    pub async fn give_back_slots(&self, maker: Option<&str>, to: &[&str], id: &str) {
        let made = maker.map(|m| (m, Way::Made));
        let ways = made
            .into_iter()
            .chain(to.iter().map(|p| (*p, Way::Received)));
        for (player, way) in ways {
            let now = clock_now_ms();
            let given = upsert(
                self.store(),
                Doc::Pending,
                player,
                |p: &Pending| Some(p.ttl(now)),
                |p: &mut Pending| {
                    Ok(if p.give_back(way, id, clock_now_ms()) {
                        Step::Write(())
                    } else {
                        Step::Keep(())
                    })
                },
            )
            .await;
            if let Err(e) = given {
                tracing::warn!(player, invitation = id, error = %e, "invitation slot not given back");
            }
        }
    }

    /// Takes one slot in `player`'s list `way`; whether it was free.
    async fn take_slot(
        &self,
        player: &str,
        way: Way,
        slot: &Slot,
        cap: usize,
    ) -> Result<bool, Error> {
        let taken = upsert(
            self.store(),
            Doc::Pending,
            player,
            |p: &Pending| Some(p.ttl(clock_now_ms())),
            |p: &mut Pending| {
                Ok(if p.take(way, slot, cap, clock_now_ms()) {
                    Step::Write(true)
                } else {
                    Step::Keep(false)
                })
            },
        )
        .await?;
        Ok(taken.answer)
    }

    /// A player's pending invitations as stored (the entries past their
    /// expiry dropped).
    ///
    /// # Errors
    /// `StoreUnavailable`.
    pub async fn pending_of(&self, player: &str) -> Result<Pending, Error> {
        let mut p: Pending = match self.store().get(Doc::Pending, player).await? {
            Some(snap) => super::update::decode(&snap.state)?,
            None => Pending::default(),
        };
        p.drop_expired(clock_now_ms());
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(id: &str, expires_ms: u64) -> Slot {
        Slot {
            id: id.into(),
            expires_ms,
        }
    }

    #[test]
    fn a_full_list_refuses_until_an_entry_expires_or_is_given_back() {
        let mut p = Pending::default();
        for i in 0..3 {
            assert!(p.take(Way::Made, &slot(&format!("c{i}"), 100 + i), 3, 0));
        }
        assert!(!p.take(Way::Made, &slot("c9", 500), 3, 0), "full");
        assert!(
            p.take(Way::Made, &slot("c1", 101), 3, 0),
            "its own id is taken"
        );
        assert!(
            p.take(Way::Received, &slot("c9", 500), 3, 0),
            "the other list"
        );
        assert!(p.give_back(Way::Made, "c1", 0));
        assert!(
            !p.give_back(Way::Made, "c1", 0),
            "nothing more to give back"
        );
        assert!(p.take(Way::Made, &slot("c9", 500), 3, 0));
        assert!(!p.take(Way::Made, &slot("c8", 500), 3, 0));
        assert!(
            p.take(Way::Made, &slot("c8", 500), 3, 100),
            "c0 expired at 100"
        );
        assert_eq!(p.made.len(), 3);
        assert_eq!(p.ttl(0), Duration::from_millis(500) + KEEP_AFTER);
    }
}
