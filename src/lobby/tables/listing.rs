//! The lobby (public tables with open seats, paginated) and invite codes.

use super::create::{TableView, variant_index};
use crate::lobby::Lobby;
use crate::lobby::records::{self, TableStatus};
use crate::lobby::store::Doc;
use crate::rules::Variant;
use crate::service::{self, Error, clock_now_ms};

/// The letters of invite codes (Crockford's base 32: no I, L, O, U).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in an invite code: 40 random bits.
pub const CODE_LEN: usize = 8;
/// Index pages read at most per lobby request (stale entries are skipped).
const SCANS: usize = 4;

/// A page of the lobby.
#[derive(Clone, Debug)]
pub struct LobbyPage {
    /// Open public tables, oldest first.
    pub tables: Vec<TableView>,
    /// Pass as `after` for the next page; `None` at the end.
    pub next: Option<String>,
}

/// An invite code as typed by a person: case, dashes and spaces ignored,
/// `O` read as 0 and `I`/`L` as 1; `None` if it cannot be a code.
pub fn normalize_code(code: &str) -> Option<String> {
    let code: String = code
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

impl Lobby {
    /// A new invite code for `table`, stored with the table's life.
    pub(super) async fn new_invite(
        &self,
        table: &records::TableRecord,
        now: u64,
    ) -> Result<String, Error> {
        let ttl = std::time::Duration::from_millis(table.expires_ms.saturating_sub(now));
        for _ in 0..4 {
            let bits = u64::from_le_bytes({
                let mut b = [0u8; 8];
                b[..5].copy_from_slice(&service::random_bytes::<5>()?);
                b
            });
            let code: String = (0..CODE_LEN)
                .map(|i| ALPHABET[((bits >> (5 * i)) & 31) as usize] as char)
                .collect();
            if self
                .store()
                .insert(Doc::Invite, &code, &table.id, Some(ttl))
                .await?
            {
                return Ok(code);
            }
        }
        Err(Error::Internal("invite code collisions".into()))
    }

    /// The table an invite code opens.
    ///
    /// # Errors
    /// `InviteNotFound` for an unknown or expired code; `StoreUnavailable`.
    pub async fn table_of_invite(&self, code: &str) -> Result<String, Error> {
        let code = normalize_code(code).ok_or(Error::InviteNotFound)?;
        match self.store().get(Doc::Invite, &code).await? {
            Some(snap) => Ok(snap.state),
            None => Err(Error::InviteNotFound),
        }
    }

    /// Public tables with open seats, oldest first, `limit` at most, after
    /// the cursor `after` of the previous page.
    ///
    /// # Errors
    /// `InvalidRequest` for a bad limit or cursor; `StoreUnavailable`.
    pub async fn lobby(
        &self,
        variant: Option<Variant>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<LobbyPage, Error> {
        if !(1..=100).contains(&limit) {
            return Err(Error::InvalidRequest("limit is between 1 and 100".into()));
        }
        if after.is_some_and(|a| {
            a.len() > 100 || !a.bytes().all(|b| b.is_ascii_alphanumeric() || b == b':')
        }) {
            return Err(Error::InvalidRequest(
                "after must be a cursor from a previous page".into(),
            ));
        }
        let index = variant.map_or_else(|| "all".to_string(), variant_index);
        let store = self.store();
        let now = clock_now_ms();
        let mut tables = Vec::new();
        let mut cursor = after.map(str::to_owned);
        for _ in 0..SCANS {
            let entries = store.index_page(&index, cursor.as_deref(), limit).await?;
            let exhausted = entries.len() < limit;
            for entry in entries {
                cursor = Some(entry.clone());
                let id = entry.rsplit(':').next().unwrap_or_default();
                let loaded = match self.load_table(id).await {
                    Ok((_, t)) => Some(t),
                    Err(Error::TableNotFound) => None,
                    Err(e) => return Err(e),
                };
                // Entries of tables no longer open are skipped; the
                // housekeeping drops them (a read writes nothing).
                if let Some(t) = loaded.filter(|t| t.status_at(now) == TableStatus::Open) {
                    tables.push(t.view(now));
                    if tables.len() == limit {
                        return Ok(LobbyPage {
                            tables,
                            next: cursor,
                        });
                    }
                }
            }
            if exhausted {
                return Ok(LobbyPage { tables, next: None });
            }
        }
        Ok(LobbyPage {
            tables,
            next: cursor,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_as_people_type_them() {
        assert_eq!(normalize_code("ab12-cd34").as_deref(), Some("AB12CD34"));
        assert_eq!(normalize_code("o1il 0000").as_deref(), Some("01110000"));
        assert_eq!(normalize_code("AB12CD3"), None, "too short");
        assert_eq!(normalize_code("AB12CD3U"), None, "U is not in the alphabet");
        assert_eq!(normalize_code("AB12CD3\u{0}"), None);
    }
}
