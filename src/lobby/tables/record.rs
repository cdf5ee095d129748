//! A table as the lobby stores it: a match to be, its seats (open,
//! remote or house bots), its visibility and where it stands.

use serde::{Deserialize, Serialize};

use crate::rules::Rules;
use crate::service::{OnTimeout, SeatPlayer};

/// Whether a table is public (listed in the lobby) or joined by its
/// invite code only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed in `GET /v1/lobby`.
    #[default]
    Public,
    /// Joined only by its invite code.
    Private,
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are open.
    Open,
    /// Every seat is taken; the match is being created.
    Starting,
    /// The match exists, under the table's id.
    Started,
    /// It expired with seats open (shown, never stored).
    Expired,
}

/// Who holds a table seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableSeatKind {
    /// Free to join.
    Open,
    /// A client with the seat token (or the seated player's key).
    Remote,
    /// A house bot.
    Bot,
    /// Held for one invited player (its `player`), who takes it with its
    /// key or declines it (then it is open).
    Reserved,
}

/// A seat of a table as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSeat {
    /// Open, remote or bot.
    pub kind: TableSeatKind,
    /// The house bot (bot seats, and the stand-in on a timeout).
    pub bot: String,
    /// The display name.
    pub name: Option<String>,
    /// The player seated, if any.
    pub player: Option<SeatPlayer>,
    /// SHA-256 of the seat token, hex (taken remote seats).
    pub token_sha256: Option<String>,
}

/// A table: a match to be, with open seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRecord {
    /// Its id, which the match will have.
    pub id: String,
    /// The rule options.
    pub rules: Rules,
    /// The seed of the match, hex (never shown before the match is over).
    pub seed: String,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// Listed or not.
    pub visibility: Visibility,
    /// The invite code (private tables).
    pub invite: Option<String>,
    /// One entry per seat.
    pub seats: Vec<TableSeat>,
    /// Open, starting or started.
    pub status: TableStatus,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// When it expires if seats are still open.
    pub expires_ms: u64,
    /// Whether its match is rated (tables made by the queue or a rated
    /// challenge).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The player who made it with its key (who reserved its reserved
    /// seats, and holds their slots among its pending invitations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

impl TableRecord {
    /// How many seats are open.
    pub fn open_seats(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.kind == TableSeatKind::Open)
            .count()
    }

    /// How many seats are still to be taken: open or reserved.
    pub fn unfilled(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| matches!(s.kind, TableSeatKind::Open | TableSeatKind::Reserved))
            .count()
    }

    /// The seat reserved for player `id`, if any.
    pub fn reserved_for(&self, id: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.kind == TableSeatKind::Reserved && s.player.as_ref().is_some_and(|p| p.id == id)
        })
    }

    /// The players its reserved seats wait for.
    pub fn invited(&self) -> Vec<&str> {
        self.seats
            .iter()
            .filter(|s| s.kind == TableSeatKind::Reserved)
            .filter_map(|s| s.player.as_ref().map(|p| p.id.as_str()))
            .collect()
    }

    /// The status as of `now`: an open table past its expiry is expired.
    pub fn status_at(&self, now: u64) -> TableStatus {
        if self.status == TableStatus::Open && now >= self.expires_ms {
            TableStatus::Expired
        } else {
            self.status
        }
    }

    /// Its entry in the lobby index: ordered by creation, then id.
    pub fn index_entry(&self) -> String {
        format!("{:015}:{}", self.created_ms, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_table_past_its_expiry_reads_as_expired() {
        let mut t = TableRecord {
            id: "t".into(),
            rules: Rules::default(),
            seed: String::new(),
            auto_deal: false,
            move_timeout_ms: None,
            on_timeout: OnTimeout::Bot,
            visibility: Visibility::Public,
            invite: None,
            seats: Vec::new(),
            status: TableStatus::Open,
            created_ms: 0,
            expires_ms: 1000,
            rated: false,
            host: None,
        };
        assert_eq!(t.status_at(999), TableStatus::Open);
        assert_eq!(t.status_at(1000), TableStatus::Expired);
        t.status = TableStatus::Started;
        assert_eq!(
            t.status_at(5000),
            TableStatus::Started,
            "a started table never expires"
        );
    }
}
