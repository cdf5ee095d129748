//! Joining and leaving a table, and the start of its match when the last
//! seat is taken.

use super::create::{Join, Joined, TableView, check_table_id, indexes, taken_seat};
use crate::lobby::Lobby;
use crate::lobby::records::{
    self, PlayerEvent, SeatPlayer, TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility,
};
use crate::lobby::start::Promise;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, update};
use crate::rules::Seat;
use crate::service::{self, Error, NewMatch, NewSeat, SeatKind, SeatToken, clock_now_ms};

/// The seats one join took, and their tokens.
struct Taken {
    seat: usize,
    token: String,
    partner_seat: Option<usize>,
    partner: Option<SeatToken>,
    /// The joiner had a seat reserved here (taken, or given up for the
    /// one it asked for).
    was_reserved: bool,
}

/// How long a table record lives once written now.
fn table_ttl(table: &TableRecord) -> Option<std::time::Duration> {
    Some(table.ttl(clock_now_ms()))
}

impl Lobby {
    /// Takes a seat (two for a pair) at table `id`, as the player whose
    /// key `caller` is, or anonymously without one.
    ///
    /// # Errors
    /// `Unauthorized` for a credential that is not a player key;
    /// `Forbidden` for a private table joined without its invite code
    /// ([`Join::invited`]); `SeatTaken` when no suitable seat is open;
    /// `TableExpired`;
    /// `InvalidRequest` for a bad request; `Busy` after lost races.
    pub async fn join(&self, id: &str, caller: Option<&str>, req: Join) -> Result<Joined, Error> {
        let player = self.joining_player(caller).await?;
        let req = self.checked_names(req)?;
        let name = req
            .name
            .clone()
            .or_else(|| player.as_ref().map(|p| p.name.clone()))
            .unwrap_or_else(|| "guest".to_string());
        check_table_id(id)?;
        // The join may fill the table: noted first, so that a start this
        // writer does not finish is finished by the housekeeping.
        let note = self.note_start(Doc::Table, id).await?;
        let taken = update(
            self.store(),
            Doc::Table,
            id,
            table_ttl,
            || Error::TableNotFound,
            |table: &mut TableRecord| take_seats(table, &req, &name, player.as_ref()),
        )
        .await;
        let taken = match taken {
            Ok(taken) => taken,
            Err(e) => {
                self.unnote_start(&note).await;
                return Err(e);
            }
        };
        let (mut table, taken) = (taken.record, taken.answer);
        if let (true, Some(p)) = (taken.was_reserved, &player) {
            self.given_back(&table, &p.id).await;
        }
        let full = table.status == TableStatus::Starting;
        tracing::info!(table_id = %id, seat = taken.seat, full, "table seat taken");
        let open_seats = table.open_seats();
        for s in [Some(taken.seat), taken.partner_seat].into_iter().flatten() {
            let event = PlayerEvent::SeatFilled {
                table_id: id.to_string(),
                seat: s as Seat,
                name: table.seats[s].name.clone(),
                player: table.seats[s].player.as_ref().map(|p| p.id.clone()),
                open_seats,
            };
            self.tell_seated(&table, Some(taken.seat), &event).await;
        }
        // The seat is taken whatever happens next, so the joiner gets its
        // token even if the start fails: the table then stays `starting`,
        // and the housekeeping starts the match (its note stays).
        let mut started = false;
        if full {
            match self.start(&table).await {
                Ok(()) => {
                    table.status = TableStatus::Started;
                    started = true;
                    self.unnote_start(&note).await;
                }
                Err(e) => tracing::warn!(table_id = %id, error = %e, "match start deferred"),
            }
        } else {
            self.unnote_start(&note).await;
        }
        Ok(Joined {
            table: table.view(clock_now_ms()),
            token: SeatToken {
                seat: taken.seat as Seat,
                token: taken.token,
            },
            partner: taken.partner,
            started,
        })
    }

    /// The player a join's credential names: none without one, the key's
    /// player with a player's key.
    ///
    /// # Errors
    /// `Unauthorized` for any other credential, or a key no player has.
    async fn joining_player(&self, caller: Option<&str>) -> Result<Option<SeatPlayer>, Error> {
        match caller {
            None => Ok(None),
            Some(key) if key.starts_with(records::KEY_PREFIX) => {
                Ok(Some(self.core.authenticate(key).await?.1.seat_player()))
            }
            Some(_) => Err(Error::Unauthorized(
                "join with a player's API key, or with no credentials".into(),
            )),
        }
    }

    /// `req` with the names it gives (the joiner's and its partner's)
    /// checked and in the form to store (see `service::check_display_name`).
    ///
    /// # Errors
    /// `InvalidRequest` for a name refused.
    fn checked_names(&self, mut req: Join) -> Result<Join, Error> {
        let max = self.svc.limits().max_name_len;
        let check = |name: Option<String>| {
            name.map(|n| service::check_display_name(&n, max))
                .transpose()
        };
        req.name = check(req.name)?;
        req.partner = req.partner.map(check).transpose()?;
        Ok(req)
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
        check_table_id(id)?;
        let left = update(
            self.store(),
            Doc::Table,
            id,
            table_ttl,
            || Error::TableNotFound,
            |table: &mut TableRecord| {
                let seat = table
                    .seat_of(hash.as_deref(), player.as_deref())
                    .ok_or_else(|| {
                        Error::Unauthorized("this credential holds no seat at this table".into())
                    })?;
                match table.status_at(clock_now_ms()) {
                    TableStatus::Open => {}
                    TableStatus::Expired => return Err(Error::TableExpired),
                    _ => return Err(Error::TableStarted),
                }
                table.seats[seat] = open_seat(&table.seats[seat]);
                Ok(Step::Write(seat))
            },
        )
        .await?;
        let (table, seat) = (left.record, left.answer);
        tracing::info!(table_id = %id, seat, "table seat left");
        Ok(self.tell_freed(&table, seat).await)
    }

    /// Tells the players seated at `table` that `seat` is open again;
    /// the table as everyone sees it now.
    pub(super) async fn tell_freed(&self, table: &TableRecord, seat: usize) -> TableView {
        let event = PlayerEvent::SeatFreed {
            table_id: table.id.clone(),
            seat: seat as Seat,
            open_seats: table.open_seats(),
        };
        self.tell_seated(table, None, &event).await;
        table.view(clock_now_ms())
    }

    /// Tells every player seated at `table` (but the one at `except`);
    /// a player a seat is only reserved for hears nothing until it takes
    /// the seat.
    pub(super) async fn tell_seated(
        &self,
        table: &TableRecord,
        except: Option<usize>,
        event: &PlayerEvent,
    ) {
        for (i, s) in table.seats.iter().enumerate() {
            if Some(i) != except
                && s.kind == TableSeatKind::Remote
                && let Some(p) = &s.player
            {
                self.core.publish(&p.id, event).await;
            }
        }
    }

    /// Creates the match of a full table under its id, then marks the
    /// table started. Safe to repeat: the match is created once, and its
    /// creation tells its players.
    pub(in crate::lobby) async fn start(&self, table: &TableRecord) -> Result<(), Error> {
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
        let promise = Promise {
            doc: Doc::Table,
            id: &table.id,
            ttl: &table_ttl,
            missing: || Error::TableNotFound,
        };
        let marked = self
            .start_pending(req, promise, |t: &mut TableRecord| {
                if t.status != TableStatus::Starting {
                    return Ok(Step::Keep(()));
                }
                t.status = TableStatus::Started;
                Ok(Step::Write(()))
            })
            .await?;
        let table = marked.record;
        if table.visibility == Visibility::Public {
            for index in indexes(&table) {
                self.store()
                    .index_remove(&index, &table.index_entry())
                    .await?;
            }
        }
        Ok(())
    }
}

/// `seat` opened again (its house bot kept as the stand-in).
pub(super) fn open_seat(seat: &TableSeat) -> TableSeat {
    TableSeat {
        kind: TableSeatKind::Open,
        bot: seat.bot.clone(),
        name: None,
        player: None,
        token_sha256: None,
    }
}

/// Takes the seat (two for a pair) a join asks for at `table`, as `name`
/// (and `player`): the seats taken and their new tokens. The table is
/// marked starting when that fills it. A private table is refused to a
/// join without its invite code, whatever its state, so nothing about it
/// changes.
fn take_seats(
    table: &mut TableRecord,
    req: &Join,
    name: &str,
    player: Option<&SeatPlayer>,
) -> Result<Step<Taken>, Error> {
    let reserved = player.and_then(|p| table.reserved_for(&p.id));
    if table.visibility == Visibility::Private && !req.invited && reserved.is_none() {
        return Err(Error::Forbidden(
            "this table is private: join it with its invite code, at POST /v1/invites/{code}/join"
                .into(),
        ));
    }
    match table.status_at(clock_now_ms()) {
        TableStatus::Open => {}
        TableStatus::Expired => return Err(Error::TableExpired),
        _ => return Err(Error::SeatTaken("every seat of this table is taken".into())),
    }
    if let Some(p) = player
        && table.seat_of(None, Some(&p.id)).is_some()
    {
        return Err(Error::SeatTaken(
            "this player already sits at this table".into(),
        ));
    }
    let (seat, partner_seat) = choose_seats(table, req, reserved)?;
    if let Some(r) = reserved.filter(|&r| r != seat) {
        // Seated elsewhere: its reservation is given up.
        table.seats[r] = open_seat(&table.seats[r]);
    }
    let (token, hash) = service::new_seat_token()?;
    table.seats[seat] = taken_seat(Some(name.to_string()), player.cloned(), hash);
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
    if table.unfilled() == 0 {
        table.status = TableStatus::Starting;
    }
    Ok(Step::Write(Taken {
        seat,
        token,
        partner_seat,
        partner,
        was_reserved: reserved.is_some(),
    }))
}

/// The seat (and the partner's, for a pair) a join takes: the seat
/// `reserved` for the joiner, if any, unless it asks for another one
/// (seats reserved for others are never open to it).
fn choose_seats(
    table: &TableRecord,
    req: &Join,
    reserved: Option<usize>,
) -> Result<(usize, Option<usize>), Error> {
    let layout = table.rules.variant.table();
    let n = table.seats.len();
    let open = |s: usize| table.seats[s].kind == TableSeatKind::Open || reserved == Some(s);
    let partner_of = |s: usize| layout.partner(s as Seat).map(usize::from);
    if (req.opposite.is_some() || req.partner.is_some()) && !layout.pairs {
        return Err(Error::InvalidRequest(
            "partners exist only in the pairs game".into(),
        ));
    }
    let wanted = if let Some(seat) = req.seat {
        let seat = usize::from(seat);
        if seat > 3 {
            return Err(Error::InvalidRequest(
                "seat is a seat number, 0 to 3".into(),
            ));
        }
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
        reserved
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
