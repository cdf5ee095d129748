//! Seats of a new table and reserved seats: a seat may name the caller's
//! own player only with that player's key; a seat naming another player
//! is reserved for it (no token is issued for it), takes a slot among the
//! host's and the invited player's pending invitations (see
//! `lobby/pending.rs`), and the invited player hears `table_invited` and
//! takes the seat with its key (a join) or declines it (the seat opens).

use super::create::{NewTableSeat, check_table_id};
use super::join::open_seat;
use crate::bots;
use crate::lobby::Lobby;
use crate::lobby::pending::{Invitation, Slot};
use crate::lobby::records::{
    PlayerEvent, SeatPlayer, TableRecord, TableSeat, TableSeatKind, TableStatus,
};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, update};
use crate::rules::Seat;
use crate::service::{self, Error, Holder, SeatSpec, SeatToken, clock_now_ms, rfc3339};

use super::create::TableView;

impl TableRecord {
    /// The slots its reserved seats hold in the players' pending lists:
    /// the host's and each invited player's, until the table's expiry;
    /// `None` without a reserved seat.
    pub(super) fn invitation(&self) -> Option<Invitation<'_>> {
        let to = self.invited();
        Some(Invitation {
            maker: self.host.as_deref().filter(|_| !to.is_empty())?,
            to,
            slot: Slot {
                id: self.id.clone(),
                expires_ms: self.expires_ms,
            },
        })
    }
}

/// What a seat of a new table is once its player is known, asked for by
/// `host` (the caller's player, with its key): the caller's own player
/// sits at a remote seat; any other player named gets a seat reserved
/// for it.
///
/// # Errors
/// `InvalidRequest` for a reserved seat naming no player, or the caller;
/// `ConsentRequired` for a player named by a caller without a key.
fn seat_kind(
    kind: TableSeatKind,
    player: Option<&SeatPlayer>,
    host: Option<&str>,
) -> Result<TableSeatKind, Error> {
    let mine = player.is_some_and(|p| Some(p.id.as_str()) == host);
    match (kind, player) {
        (TableSeatKind::Reserved, None) => Err(Error::InvalidRequest(
            "a reserved seat names the player it is for".into(),
        )),
        (TableSeatKind::Reserved, Some(_)) if mine => Err(Error::InvalidRequest(
            "reserve seats for other players; sit yourself at a `remote` seat".into(),
        )),
        (_, Some(_)) if mine => Ok(TableSeatKind::Remote),
        (_, Some(_)) if host.is_none() => Err(Error::ConsentRequired(
            "a table seats a player only with that player's key: send your key as \
             `Authorization: Bearer <key>` to sit yourself, or to reserve a seat for another \
             player, who takes it with its own key"
                .into(),
        )),
        (_, Some(_)) => Ok(TableSeatKind::Reserved),
        (kind, None) => Ok(kind),
    }
}

impl Lobby {
    /// The stored seats of a new table from their specifications (checked
    /// as every seat is, by [`Service::check_seat`](crate::service::Service::check_seat)),
    /// asked for by `host`, and the tokens issued to its remote seats (a
    /// seat reserved for another player has none: only that player's key
    /// takes it).
    ///
    /// # Errors
    /// As `check_seat` and [`seat_kind`].
    pub(super) async fn table_seats(
        &self,
        specs: Vec<NewTableSeat>,
        host: Option<&str>,
    ) -> Result<(Vec<TableSeat>, Vec<SeatToken>), Error> {
        let mut seats = Vec::with_capacity(specs.len());
        let mut players = Vec::new();
        let mut tokens = Vec::new();
        for (i, spec) in specs.into_iter().enumerate() {
            let bot = spec.bot.unwrap_or_else(|| bots::DEFAULT.to_string());
            let holder = match spec.kind {
                TableSeatKind::Remote | TableSeatKind::Reserved => Holder::Remote,
                TableSeatKind::Bot => Holder::Bot,
                TableSeatKind::Open => Holder::Open,
            };
            let asked = SeatSpec {
                holder,
                bot: &bot,
                name: spec.name.as_deref(),
                player: spec.player.as_deref(),
            };
            let checked = self.svc.check_seat(asked, &players).await?;
            let player = checked.player;
            let kind = seat_kind(spec.kind, player.as_ref(), host)?;
            players.extend(player.clone());
            let name = checked
                .name
                .or_else(|| player.as_ref().map(|p| p.name.clone()));
            let token_sha256 = if kind == TableSeatKind::Remote {
                let (token, hash) = service::new_seat_token()?;
                tokens.push(SeatToken {
                    seat: i as Seat,
                    token,
                });
                Some(hash)
            } else {
                None
            };
            seats.push(TableSeat {
                kind,
                bot,
                name: if kind == TableSeatKind::Open {
                    None
                } else {
                    name
                },
                player,
                token_sha256,
            });
        }
        Ok((seats, tokens))
    }
}

impl Lobby {
    /// Tells each player a seat of the new `table` is reserved for.
    pub(super) async fn invite_reserved(&self, table: &TableRecord) {
        let Some(host) = &table.host else {
            return;
        };
        let from = match self.core.load_player(host).await {
            Ok(Some((_, p))) => p.seat_player(),
            _ => return,
        };
        for (seat, s) in table.seats.iter().enumerate() {
            if let Some(p) = s
                .player
                .as_ref()
                .filter(|_| s.kind == TableSeatKind::Reserved)
            {
                let event = PlayerEvent::TableInvited {
                    table_id: table.id.clone(),
                    from: from.clone(),
                    seat: seat as Seat,
                    variant: crate::rating::pool(table.rules.variant).to_string(),
                    expires_at: rfc3339(table.expires_ms),
                };
                self.core.publish(&p.id, &event).await;
            }
        }
    }

    /// After `player`'s reservation at `table` ended (taken or
    /// declined): gives back its slot, and the host's once no seat is
    /// reserved any more.
    pub(super) async fn given_back(&self, table: &TableRecord, player: &str) {
        if let Some(host) = &table.host {
            let maker = table.invited().is_empty().then_some(host.as_str());
            self.core.give_back_slots(maker, &[player], &table.id).await;
        }
    }

    /// Declines the seat reserved for the player whose key `key` is at
    /// table `id`: the seat is open again, the players seated hear
    /// `seat_freed`, and the slots it held are given back.
    ///
    /// # Errors
    /// `Unauthorized`; `SeatTaken` when no seat here is reserved for this
    /// player; `TableExpired`; `TableStarted`; `Busy`; `StoreUnavailable`.
    pub async fn decline_seat(&self, id: &str, key: &str) -> Result<TableView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        check_table_id(id)?;
        let declined = update(
            self.store(),
            Doc::Table,
            id,
            |t: &TableRecord| Some(t.ttl(clock_now_ms())),
            || Error::TableNotFound,
            |table: &mut TableRecord| {
                match table.status_at(clock_now_ms()) {
                    TableStatus::Open => {}
                    TableStatus::Expired => return Err(Error::TableExpired),
                    _ => return Err(Error::TableStarted),
                }
                let seat = table.reserved_for(&me.id).ok_or_else(|| {
                    Error::SeatTaken("no seat at this table is reserved for this player".into())
                })?;
                table.seats[seat] = open_seat(&table.seats[seat]);
                Ok(Step::Write(seat))
            },
        )
        .await?;
        let (table, seat) = (declined.record, declined.answer);
        tracing::info!(table_id = %id, seat, "reserved seat declined");
        self.given_back(&table, &me.id).await;
        Ok(self.tell_freed(&table, seat).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::records::PlayerKind;

    fn player(id: &str) -> SeatPlayer {
        SeatPlayer {
            id: id.into(),
            name: id.into(),
            kind: PlayerKind::Human,
        }
    }

    #[test]
    fn a_named_player_sits_only_by_its_own_key_and_is_otherwise_reserved_a_seat() {
        use TableSeatKind::{Open, Remote, Reserved};
        let (me, you) = (player("me"), player("you"));
        assert_eq!(seat_kind(Remote, Some(&me), Some("me")), Ok(Remote));
        assert_eq!(seat_kind(Remote, Some(&you), Some("me")), Ok(Reserved));
        assert_eq!(seat_kind(Reserved, Some(&you), Some("me")), Ok(Reserved));
        assert_eq!(
            seat_kind(Remote, None, None),
            Ok(Remote),
            "anonymous seats as before"
        );
        assert_eq!(seat_kind(Open, None, Some("me")), Ok(Open));
        for host in [None, Some("other")] {
            let named = seat_kind(Remote, Some(&me), host);
            if host.is_none() {
                assert!(matches!(named, Err(Error::ConsentRequired(_))), "{named:?}");
            } else {
                assert_eq!(named, Ok(Reserved));
            }
        }
        assert!(matches!(
            seat_kind(Reserved, Some(&me), Some("me")),
            Err(Error::InvalidRequest(_))
        ));
        assert!(matches!(
            seat_kind(Reserved, None, Some("me")),
            Err(Error::InvalidRequest(_))
        ));
    }
}
