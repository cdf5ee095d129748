//! Joining and leaving a table, and the start of its match when the last
//! seat is taken.

use super::Lobby;
use super::records::{
    self, PlayerEvent, TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility,
};
use super::store::Doc;
use super::tables::{Join, Joined, TableView, indexes, taken_seat};
use crate::rules::Seat;
use crate::service::{self, Error, NewMatch, NewSeat, SeatKind, SeatToken, clock_now_ms};

/// Compare-and-set attempts of a join or a leave before answering `busy`.
const ATTEMPTS: usize = 32;

impl Lobby {
    /// Takes a seat (two for a pair) at table `id`, as the player whose
    /// key `caller` is, or anonymously without one.
    ///
    /// # Errors
    /// `Unauthorized` for a credential that is not a player key;
    /// `SeatTaken` when no suitable seat is open; `TableExpired`;
    /// `InvalidRequest` for a bad request; `Busy` after lost races.
    pub async fn join(&self, id: &str, caller: Option<&str>, req: Join) -> Result<Joined, Error> {
        let player = match caller {
            None => None,
            Some(key) if key.starts_with(records::KEY_PREFIX) => {
                Some(self.core.authenticate(key).await?.1.seat_player())
            }
            Some(_) => {
                return Err(Error::Unauthorized(
                    "join with a player's API key, or with no credentials".into(),
                ));
            }
        };
        let max_name = self.svc.limits().max_name_len;
        for name in [&req.name, &req.partner.clone().flatten()]
            .into_iter()
            .flatten()
        {
            service::check_display_name(name, max_name)?;
        }
        let name = req
            .name
            .clone()
            .or_else(|| player.as_ref().map(|p| p.name.clone()))
            .unwrap_or_else(|| "guest".to_string());
        for _ in 0..ATTEMPTS {
            let (version, mut table) = self.load_table(id).await?;
            let now = clock_now_ms();
            match table.status_at(now) {
                TableStatus::Open => {}
                TableStatus::Expired => return Err(Error::TableExpired),
                _ => return Err(Error::SeatTaken("every seat of this table is taken".into())),
            }
            if let Some(p) = &player
                && table.seat_of(None, Some(&p.id)).is_some()
            {
                return Err(Error::SeatTaken(
                    "this player already sits at this table".into(),
                ));
            }
            let (seat, partner_seat) = choose_seats(&table, &req)?;
            let (token, hash) = service::new_seat_token()?;
            table.seats[seat] = taken_seat(Some(name.clone()), player.clone(), hash);
            let partner = match (partner_seat, &req.partner) {
                (Some(p), Some(pname)) => {
                    let (token, hash) = service::new_seat_token()?;
                    let pname = pname.clone().unwrap_or_else(|| "guest".to_string());
                    table.seats[p] = taken_seat(Some(pname), None, hash);
                    Some(SeatToken {
                        seat: p as Seat,
                        token,
                    })
                }
                _ => None,
            };
            let full = table.open_seats() == 0;
            if full {
                table.status = TableStatus::Starting;
            }
            let state = records::encode(&table)?;
            let store = self.store();
            if !store
                .replace(Doc::Table, id, version, &state, Some(table.ttl(now)))
                .await?
            {
                continue;
            }
            tracing::info!(table_id = %id, seat, full, "table seat taken");
            let open_seats = table.open_seats();
            for s in [Some(seat), partner_seat].into_iter().flatten() {
                let event = PlayerEvent::SeatFilled {
                    table_id: id.to_string(),
                    seat: s as Seat,
                    name: table.seats[s].name.clone(),
                    player: table.seats[s].player.as_ref().map(|p| p.id.clone()),
                    open_seats,
                };
                self.tell_seated(&table, Some(seat), &event).await;
            }
            // The seat is taken whatever happens next, so the joiner gets
            // its token even if the start fails: the table then stays
            // `starting`, and the next read of it starts the match.
            let mut started = false;
            if full {
                match self.start(version + 1, &table).await {
                    Ok(()) => {
                        table.status = TableStatus::Started;
                        started = true;
                    }
                    Err(e) => tracing::warn!(table_id = %id, error = %e, "match start deferred"),
                }
            }
            return Ok(Joined {
                table: table.view(now),
                token: SeatToken {
                    seat: seat as Seat,
                    token,
                },
                partner,
                started,
            });
        }
        Err(Error::Busy(format!(
            "the table changed under {ATTEMPTS} attempts in a row; nothing was done, retry"
        )))
    }

    /// Frees the seat of `caller` (a seat token of the table, or the key
    /// of the player seated) while the table is still open.
    ///
    /// # Errors
    /// `Unauthorized` for a credential holding no seat here; `WrongPhase`
    /// once the match started; `TableExpired`; `Busy` after lost races.
    pub async fn leave(&self, id: &str, caller: Option<&str>) -> Result<TableView, Error> {
        let Some(caller) = caller else {
            return Err(Error::Unauthorized(
                "send the seat token or the player's key as `Authorization: Bearer <token>`".into(),
            ));
        };
        let player = if caller.starts_with(records::KEY_PREFIX) {
            Some(self.core.authenticate(caller).await?.1.id)
        } else {
            None
        };
        let hash = player.is_none().then(|| service::hash_token(caller));
        for _ in 0..ATTEMPTS {
            let (version, mut table) = self.load_table(id).await?;
            let now = clock_now_ms();
            let seat = table
                .seat_of(hash.as_deref(), player.as_deref())
                .ok_or_else(|| {
                    Error::Unauthorized("this credential holds no seat at this table".into())
                })?;
            match table.status_at(now) {
                TableStatus::Open => {}
                TableStatus::Expired => return Err(Error::TableExpired),
                _ => {
                    return Err(Error::TableStarted);
                }
            }
            table.seats[seat] = TableSeat {
                kind: TableSeatKind::Open,
                bot: table.seats[seat].bot.clone(),
                name: None,
                player: None,
                token_sha256: None,
            };
            let state = records::encode(&table)?;
            if self
                .store()
                .replace(Doc::Table, id, version, &state, Some(table.ttl(now)))
                .await?
            {
                tracing::info!(table_id = %id, seat, "table seat left");
                let event = PlayerEvent::SeatFreed {
                    table_id: id.to_string(),
                    seat: seat as Seat,
                    open_seats: table.open_seats(),
                };
                self.tell_seated(&table, None, &event).await;
                return Ok(table.view(now));
            }
        }
        Err(Error::Busy(format!(
            "the table changed under {ATTEMPTS} attempts in a row; nothing was done, retry"
        )))
    }

    /// Tells every player seated at `table` (but the one at `except`).
    async fn tell_seated(&self, table: &TableRecord, except: Option<usize>, event: &PlayerEvent) {
        for (i, s) in table.seats.iter().enumerate() {
            if Some(i) != except
                && let Some(p) = &s.player
            {
                self.core.publish(&p.id, event).await;
            }
        }
    }

    /// Creates the match of a full table (stored at `version`) under its
    /// id, then marks the table started. Safe to repeat: the match is
    /// created once, and its creation tells its players.
    pub(super) async fn start(&self, version: u64, table: &TableRecord) -> Result<(), Error> {
        let seats = table
            .seats
            .iter()
            .map(|s| NewSeat {
                kind: if s.kind == TableSeatKind::Bot {
                    SeatKind::Bot
                } else {
                    SeatKind::Remote
                },
                bot: Some(s.bot.clone()),
                name: s.name.clone(),
                player: s.player.as_ref().map(|p| p.id.clone()),
                token_sha256: s.token_sha256.clone(),
            })
            .collect();
        let req = NewMatch {
            rules: table.rules.clone(),
            seats: Some(seats),
            seed: Some(table.seed.clone()),
            auto_deal: table.auto_deal,
            move_timeout_ms: table.move_timeout_ms,
            on_timeout: table.on_timeout,
            id: Some(table.id.clone()),
            rated: table.rated,
        };
        self.svc.create_at(req).await?;
        let store = self.store();
        let (mut version, mut table) = (version, table.clone());
        let now = clock_now_ms();
        for _ in 0..ATTEMPTS {
            if table.status != TableStatus::Starting {
                break;
            }
            table.status = TableStatus::Started;
            let state = records::encode(&table)?;
            if store
                .replace(Doc::Table, &table.id, version, &state, Some(table.ttl(now)))
                .await?
            {
                break;
            }
            (version, table) = self.load_table(&table.id).await?;
        }
        if table.visibility == Visibility::Public {
            for index in indexes(&table) {
                store.index_remove(&index, &table.index_entry()).await?;
            }
        }
        Ok(())
    }
}

/// The seat (and the partner's, for a pair) a join takes.
fn choose_seats(table: &TableRecord, req: &Join) -> Result<(usize, Option<usize>), Error> {
    let layout = table.rules.variant.table();
    let n = table.seats.len();
    let open = |s: usize| table.seats[s].kind == TableSeatKind::Open;
    let partner_of = |s: usize| layout.partner(s as Seat).map(usize::from);
    if (req.opposite.is_some() || req.partner.is_some()) && !layout.pairs {
        return Err(Error::InvalidRequest(
            "partners exist only in the pairs game".into(),
        ));
    }
    let wanted = if let Some(seat) = req.seat {
        let seat = usize::from(seat);
        if seat >= n {
            // A seat the schema allows, not at this table: no such seat open.
            return Err(Error::SeatTaken(format!(
                "this table has seats 0 to {}",
                n - 1
            )));
        }
        Some(seat)
    } else if let Some(partner) = &req.opposite {
        let at = table.seat_of(None, Some(partner)).ok_or_else(|| {
            Error::SeatTaken(format!(
                "player {partner:?} does not sit here: no seat opposite"
            ))
        })?;
        partner_of(at)
    } else {
        None
    };
    let fits = |s: usize| open(s) && (req.partner.is_none() || partner_of(s).is_some_and(&open));
    match wanted {
        Some(s) if fits(s) => Ok((s, req.partner.as_ref().and_then(|_| partner_of(s)))),
        Some(s) => Err(Error::SeatTaken(format!("seat {s} is not open"))),
        None => (0..n)
            .find(|&s| fits(s))
            .map(|s| (s, req.partner.as_ref().and_then(|_| partner_of(s))))
            .ok_or_else(|| {
                Error::SeatTaken(if req.partner.is_some() {
                    "no two facing seats are open".into()
                } else {
                    "every seat of this table is taken".into()
                })
            }),
    }
}
