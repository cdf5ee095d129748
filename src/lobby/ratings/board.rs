//! Reading ratings: a pool's leaderboard and a player's rating history.
//!
//! The leaderboard is an index of the lobby store per pool whose entries
//! sort as text in rating order (see [`leaderboard_entry`]); applying a
//! rating moves its player's entry. An entry that no longer matches its
//! player's rating (the applying instance stopped between the two writes)
//! is skipped and removed when read. The house bots are listed among the
//! players at their fixed anchor ratings, never stored in the index.

use super::apply::{leaderboard_entry, leaderboard_id, leaderboard_index};
use crate::lobby::Lobby;
use crate::lobby::records::{self, PlayerRating, PlayerRecord, RatingHistory};
use crate::rating;
use crate::rules::Variant;
use crate::service::Error;

/// Index pages read at most per leaderboard request (stale entries are
/// skipped).
const SCANS: usize = 4;

/// Most rows of a leaderboard page.
pub const MAX_BOARD_PAGE: usize = 100;

/// A row of a leaderboard.
#[derive(Clone, Debug)]
pub struct BoardRow {
    /// The row's place in the order: pass the last one as `after`.
    pub entry: String,
    /// The player (a house bot's player for anchors).
    pub player: PlayerRecord,
    /// Its standing in the pool.
    pub standing: PlayerRating,
    /// Whether this is a house bot, rated at its fixed anchor.
    pub anchor: bool,
}

/// A page of a leaderboard.
#[derive(Clone, Debug)]
pub struct BoardPage {
    /// The pool.
    pub pool: &'static str,
    /// Highest rating first.
    pub rows: Vec<BoardRow>,
    /// Pass as `after` for the next page; `None` at the end.
    pub next: Option<String>,
}

/// Whether `after` may be a leaderboard cursor: seven digits, `:`, an id.
pub fn valid_board_cursor(after: &str) -> bool {
    after.len() <= 60
        && after.split_once(':').is_some_and(|(rank, id)| {
            rank.len() == 7
                && rank.bytes().all(|b| b.is_ascii_digit())
                && !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
}

/// The house bots' rows of `pool`, in order.
fn anchor_rows(pool: &str) -> Vec<BoardRow> {
    let mut rows: Vec<BoardRow> = crate::bots::NAMES
        .iter()
        .filter_map(|bot| {
            let player = records::house_player(&format!("{}{bot}", records::HOUSE_PREFIX))?;
            let standing = player.ratings.get(pool)?.clone();
            Some(BoardRow {
                entry: leaderboard_entry(&standing.rating, &player.id),
                player,
                standing,
                anchor: true,
            })
        })
        .collect();
    rows.sort_by(|a, b| a.entry.cmp(&b.entry));
    rows
}

impl Lobby {
    /// The players of `variant`'s pool by rating, highest first, after the
    /// cursor `after`: at most `limit` (1 to [`MAX_BOARD_PAGE`]).
    ///
    /// # Errors
    /// `InvalidRequest` for a bad limit or cursor; `StoreUnavailable`.
    pub async fn leaderboard(
        &self,
        variant: Variant,
        after: Option<&str>,
        limit: usize,
    ) -> Result<BoardPage, Error> {
        if !(1..=MAX_BOARD_PAGE).contains(&limit) {
            return Err(Error::InvalidRequest(format!(
                "limit is between 1 and {MAX_BOARD_PAGE}"
            )));
        }
        if after.is_some_and(|a| !valid_board_cursor(a)) {
            return Err(Error::InvalidRequest(
                "after must be a cursor from a previous page".into(),
            ));
        }
        let pool = rating::pool(variant);
        let index = leaderboard_index(pool);
        let store = self.store();
        let mut rows = Vec::new();
        let mut cursor = after.map(str::to_owned);
        let mut exhausted = false;
        'scan: for _ in 0..SCANS {
            let entries = store.index_page(&index, cursor.as_deref(), limit).await?;
            exhausted = entries.len() < limit;
            for entry in entries {
                cursor = Some(entry.clone());
                let id = leaderboard_id(&entry).unwrap_or_default();
                let standing = match self.core.load_player(id).await? {
                    Some((_, p)) => p.ratings.get(pool).cloned().map(|s| (p, s)),
                    None => None,
                };
                match standing {
                    Some((player, standing))
                        if standing.games > 0
                            && leaderboard_entry(&standing.rating, id) == entry =>
                    {
                        rows.push(BoardRow {
                            entry,
                            player,
                            standing,
                            anchor: false,
                        });
                        if rows.len() == limit {
                            break 'scan;
                        }
                    }
                    _ => store.index_remove(&index, &entry).await?,
                }
            }
            if exhausted {
                break;
            }
        }
        // What the index was read through: the anchors up to there join.
        let through = if exhausted { None } else { cursor };
        rows.extend(anchor_rows(pool).into_iter().filter(|r| {
            after.is_none_or(|a| r.entry.as_str() > a)
                && through.as_deref().is_none_or(|t| r.entry.as_str() <= t)
        }));
        rows.sort_by(|a, b| a.entry.cmp(&b.entry));
        let next = if rows.len() > limit {
            rows.truncate(limit);
            rows.last().map(|r| r.entry.clone())
        } else {
            through
        };
        Ok(BoardPage { pool, rows, next })
    }

    /// A player, its standing per pool (`variant`: that pool only) and
    /// its rating history.
    ///
    /// # Errors
    /// `PlayerNotFound`; `StoreUnavailable`.
    pub async fn ratings(
        &self,
        id: &str,
        variant: Option<Variant>,
    ) -> Result<(PlayerRecord, Vec<(String, PlayerRating)>, RatingHistory), Error> {
        let player = self.profile(id).await?;
        let pools: Vec<(String, PlayerRating)> = player
            .ratings
            .iter()
            .filter(|(pool, _)| variant.is_none_or(|v| rating::pool(v) == pool.as_str()))
            .map(|(pool, r)| (pool.clone(), r.clone()))
            .collect();
        let history = if records::house_player(id).is_some() {
            RatingHistory::default()
        } else {
            self.core.rating_history(id).await?.1
        };
        Ok((player, pools, history))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::Rating;

    #[test]
    fn entries_sort_as_text_highest_rating_first() {
        let r = |rating| Rating {
            rating,
            ..Rating::default()
        };
        let mut entries = vec![
            leaderboard_entry(&r(1499.994), "pb"),
            leaderboard_entry(&r(2100.5), "pc"),
            leaderboard_entry(&r(-30.0), "pd"),
            leaderboard_entry(&r(1500.0), "pa"),
            leaderboard_entry(&r(999.0), "pe"),
        ];
        entries.sort();
        let ids: Vec<_> = entries.iter().filter_map(|e| leaderboard_id(e)).collect();
        assert_eq!(ids, ["pc", "pa", "pb", "pe", "pd"]);
        assert!(entries.iter().all(|e| valid_board_cursor(e)), "{entries:?}");
    }

    #[test]
    fn the_anchors_are_listed_strongest_first() {
        let rows = anchor_rows("pairs");
        let ids: Vec<_> = rows.iter().map(|r| r.player.id.as_str()).collect();
        assert_eq!(ids.first(), Some(&"house-expert"));
        assert_eq!(ids.last(), Some(&"house-random"));
        assert_eq!(rows.len(), crate::bots::NAMES.len());
        assert!(
            rows.iter()
                .all(|r| r.anchor && r.standing.rating.deviation == 30.0)
        );
    }

    #[test]
    fn cursors_have_their_shape() {
        assert!(valid_board_cursor("9849999:p0123456789abcdef01234567"));
        assert!(valid_board_cursor("9849999:house-medium"));
        for bad in [
            "",
            "984999:pa",
            "98499999:pa",
            "9849999:",
            "9849999:P_A",
            "x",
        ] {
            assert!(!valid_board_cursor(bad), "{bad}");
        }
    }
}
