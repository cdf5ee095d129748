//! Tables with open seats: creating, reading, joining and leaving; the
//! start of the match when the last seat is taken.

use std::time::Duration;

use super::Lobby;
use super::records::{
    self, PlayerEvent, SeatPlayer, TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility,
};
use super::store::Doc;
use crate::bots;
use crate::rules::{Rules, Seat, Side};
use crate::service::{
    self, Error, NewMatch, NewSeat, OnTimeout, SeatKind, SeatToken, clock_now_ms, rfc3339,
};

/// Compare-and-set attempts of a join or a leave before answering `busy`.
const ATTEMPTS: usize = 32;
/// How long a stored table outlives its expiry (so that late readers learn
/// it expired, or which match it became).
const KEEP_AFTER_EXPIRY: Duration = Duration::from_secs(24 * 3600);
/// Default and longest life of a table with open seats, in seconds.
pub const DEFAULT_EXPIRY_S: u64 = 600;
const MAX_EXPIRY_S: u64 = 86_400;

/// A seat of a new table.
#[derive(Clone, Debug)]
pub struct NewTableSeat {
    /// Open, remote or bot.
    pub kind: TableSeatKind,
    /// The house bot (bot seats; the stand-in on a timeout).
    pub bot: Option<String>,
    /// A display name.
    pub name: Option<String>,
    /// The player to seat here (remote seats).
    pub player: Option<String>,
}

/// What a new table is to be.
#[derive(Clone, Debug)]
pub struct NewTable {
    /// The rule options.
    pub rules: Rules,
    /// One entry per seat, at least one open.
    pub seats: Vec<NewTableSeat>,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// Listed in the lobby, or joined by invite code.
    pub visibility: Visibility,
    /// Seconds until it expires if seats are still open (default 600).
    pub expires_in_s: Option<u64>,
}

/// A seat of a table as everyone sees it.
#[derive(Clone, Debug)]
pub struct TableSeatView {
    /// The seat number.
    pub seat: Seat,
    /// The side it scores for.
    pub team: Side,
    /// Open, remote or bot.
    pub kind: TableSeatKind,
    /// The house bot (bot seats).
    pub bot: Option<String>,
    /// The display name.
    pub name: Option<String>,
    /// The player seated, if any.
    pub player: Option<SeatPlayer>,
}

/// A table as everyone sees it.
#[derive(Clone, Debug)]
pub struct TableView {
    /// The table's id, which its match will have.
    pub table_id: String,
    /// The match, once started.
    pub match_id: Option<String>,
    /// Open, starting, started or expired.
    pub status: TableStatus,
    /// Public or private.
    pub visibility: Visibility,
    /// The rule options.
    pub rules: Rules,
    /// Every seat.
    pub seats: Vec<TableSeatView>,
    /// How many seats are open.
    pub open_seats: usize,
    /// Whether hands are dealt automatically.
    pub auto_deal: bool,
    /// The move clock.
    pub move_timeout_ms: Option<u64>,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it expires if seats are still open (RFC 3339).
    pub expires_at: String,
}

/// A new table.
#[derive(Clone, Debug)]
pub struct TableCreated {
    /// The table.
    pub table: TableView,
    /// The invite code of a private table.
    pub invite_code: Option<String>,
    /// One token per remote seat given at creation.
    pub tokens: Vec<SeatToken>,
}

/// What a joiner asks for.
#[derive(Clone, Debug, Default)]
pub struct Join {
    /// This seat (it must be open).
    pub seat: Option<Seat>,
    /// The display name (default: the player's, or `guest`).
    pub name: Option<String>,
    /// The seat opposite this seated player (pairs game).
    pub opposite: Option<String>,
    /// Join as a pair: the caller and its partner take two open seats
    /// facing each other (pairs game); the partner's name.
    pub partner: Option<Option<String>>,
}

/// A joiner's seat.
#[derive(Clone, Debug)]
pub struct Joined {
    /// The table after the join.
    pub table: TableView,
    /// The joiner's seat and its token.
    pub token: SeatToken,
    /// The partner's seat and token (a pair joining together).
    pub partner: Option<SeatToken>,
    /// Whether this join filled the table and started the match.
    pub started: bool,
}

impl TableRecord {
    /// The view everyone may see.
    pub fn view(&self, now: u64) -> TableView {
        let table = self.rules.variant.table();
        let status = self.status_at(now);
        TableView {
            table_id: self.id.clone(),
            match_id: (status == TableStatus::Started).then(|| self.id.clone()),
            status,
            visibility: self.visibility,
            rules: self.rules.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| TableSeatView {
                    seat: i as Seat,
                    team: table.side(i as Seat),
                    kind: s.kind,
                    bot: (s.kind == TableSeatKind::Bot).then(|| s.bot.clone()),
                    name: s.name.clone(),
                    player: s.player.clone(),
                })
                .collect(),
            open_seats: self.open_seats(),
            auto_deal: self.auto_deal,
            move_timeout_ms: self.move_timeout_ms,
            created_at: rfc3339(self.created_ms),
            expires_at: rfc3339(self.expires_ms),
        }
    }

    fn ttl(&self, now: u64) -> Duration {
        Duration::from_millis(self.expires_ms.saturating_sub(now)) + KEEP_AFTER_EXPIRY
    }

    /// The seat held by `caller` (a seat token, or a player's id), if any.
    fn seat_of(&self, token_hash: Option<&str>, player: Option<&str>) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.kind == TableSeatKind::Remote
                && (token_hash.is_some_and(|h| {
                    s.token_sha256
                        .as_deref()
                        .is_some_and(|t| service::hash_matches(h, t))
                }) || player.is_some_and(|p| s.player.as_ref().is_some_and(|q| q.id == p)))
        })
    }
}

/// The lobby indexes a public table is listed in.
pub(super) fn indexes(t: &TableRecord) -> [String; 2] {
    let variant = serde_json::to_value(t.rules.variant)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    ["all".to_string(), format!("v:{variant}")]
}

fn taken_seat(name: Option<String>, player: Option<SeatPlayer>, hash: String) -> TableSeat {
    TableSeat {
        kind: TableSeatKind::Remote,
        bot: bots::DEFAULT.to_string(),
        name,
        player,
        token_sha256: Some(hash),
    }
}

impl Lobby<'_> {
    /// Creates a table.
    ///
    /// # Errors
    /// `InvalidRequest` for bad rules, seats, players or expiry; `StoreUnavailable`.
    pub async fn create_table(&self, req: NewTable) -> Result<TableCreated, Error> {
        req.rules
            .validate()
            .map_err(|e| Error::InvalidRequest(e.to_string()))?;
        let n = req.rules.variant.table().seats as usize;
        if req.seats.len() != n {
            return Err(Error::InvalidRequest(format!(
                "this variant has {n} seats; `seats` lists {}",
                req.seats.len()
            )));
        }
        if req.seats.iter().all(|s| s.kind != TableSeatKind::Open) {
            return Err(Error::InvalidRequest(
                "a table needs at least one open seat (create a match with none at POST /v1/matches)"
                    .into(),
            ));
        }
        service::check_move_timeout(req.move_timeout_ms)?;
        let expires_in = req.expires_in_s.unwrap_or(DEFAULT_EXPIRY_S);
        if !(1..=MAX_EXPIRY_S).contains(&expires_in) {
            return Err(Error::InvalidRequest(format!(
                "expires_in_s must be between 1 and {MAX_EXPIRY_S}"
            )));
        }
        let max_name = self.svc.limits().max_name_len;
        let mut seats = Vec::with_capacity(n);
        let mut tokens = Vec::new();
        for (i, spec) in req.seats.into_iter().enumerate() {
            let bot = spec.bot.unwrap_or_else(|| bots::DEFAULT.to_string());
            service::house_bot(&bot)?;
            if let Some(name) = &spec.name {
                service::check_display_name(name, max_name)?;
            }
            let player = match (&spec.player, spec.kind) {
                (None, _) => None,
                (Some(id), TableSeatKind::Remote) => Some(
                    self.svc
                        .load_player(id)
                        .await?
                        .ok_or_else(|| Error::InvalidRequest(format!("no player with id {id:?}")))?
                        .1
                        .seat_player(),
                ),
                (Some(_), _) => {
                    return Err(Error::InvalidRequest(
                        "only a remote seat can be given to a player".into(),
                    ));
                }
            };
            if let Some(p) = &player
                && seats
                    .iter()
                    .any(|s: &TableSeat| s.player.as_ref().is_some_and(|q| q.id == p.id))
            {
                return Err(Error::InvalidRequest(format!(
                    "player {} is given two seats",
                    p.id
                )));
            }
            let name = spec
                .name
                .or_else(|| player.as_ref().map(|p| p.name.clone()));
            let token_sha256 = if spec.kind == TableSeatKind::Remote {
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
                kind: spec.kind,
                bot,
                name: if spec.kind == TableSeatKind::Open {
                    None
                } else {
                    name
                },
                player,
                token_sha256,
            });
        }
        let now = clock_now_ms();
        let store = self.svc.lobby_store();
        let mut table = TableRecord {
            id: hex::encode(service::random_bytes::<12>()?),
            rules: req.rules,
            seed: hex::encode(service::random_bytes::<32>()?),
            auto_deal: req.auto_deal,
            move_timeout_ms: req.move_timeout_ms,
            on_timeout: req.on_timeout,
            visibility: req.visibility,
            invite: None,
            seats,
            status: TableStatus::Open,
            created_ms: now,
            expires_ms: now + expires_in * 1000,
        };
        if table.visibility == Visibility::Private {
            table.invite = Some(self.new_invite(&table, now).await?);
        }
        let state = records::encode(&table)?;
        if !store
            .insert(Doc::Table, &table.id, &state, Some(table.ttl(now)))
            .await?
        {
            return Err(Error::Internal("table id collision".into()));
        }
        if table.visibility == Visibility::Public {
            for index in indexes(&table) {
                store.index_add(&index, &table.index_entry()).await?;
            }
        }
        tracing::info!(table_id = %table.id, open = table.open_seats(), "table created");
        Ok(TableCreated {
            table: table.view(now),
            invite_code: table.invite.clone(),
            tokens,
        })
    }

    /// Loads a table; a full table whose match is not yet created is
    /// started here (its starter may have failed half-way).
    pub(super) async fn load_table(&self, id: &str) -> Result<(u64, TableRecord), Error> {
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::TableNotFound);
        }
        let snap = self
            .svc
            .lobby_store()
            .get(Doc::Table, id)
            .await?
            .ok_or(Error::TableNotFound)?;
        Ok((snap.version, records::decode(&snap.state)?))
    }

    /// A table as everyone sees it.
    ///
    /// # Errors
    /// `TableNotFound`; `StoreUnavailable`.
    pub async fn table(&self, id: &str) -> Result<TableView, Error> {
        let (version, table) = self.load_table(id).await?;
        if table.status == TableStatus::Starting {
            self.start(version, &table).await?;
            return Ok(self.load_table(id).await?.1.view(clock_now_ms()));
        }
        Ok(table.view(clock_now_ms()))
    }

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
                Some(self.svc.authenticate(key).await?.1.seat_player())
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
            let store = self.svc.lobby_store();
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
            if full {
                self.start(version + 1, &table).await?;
                table.status = TableStatus::Started;
            }
            return Ok(Joined {
                table: table.view(now),
                token: SeatToken {
                    seat: seat as Seat,
                    token,
                },
                partner,
                started: full,
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
            Some(self.svc.authenticate(caller).await?.1.id)
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
                    return Err(Error::WrongPhase(
                        "the match has started; a seat can be left only before".into(),
                    ));
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
                .svc
                .lobby_store()
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
                self.svc.publish(&p.id, event).await;
            }
        }
    }

    /// Creates the match of a full table (stored at `version`) under its
    /// id, then marks the table started. Safe to repeat: the match is
    /// created once, and its creation tells its players.
    async fn start(&self, version: u64, table: &TableRecord) -> Result<(), Error> {
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
        };
        self.svc.create_at(req).await?;
        let store = self.svc.lobby_store();
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
            return Err(Error::InvalidRequest(format!(
                "this table has seats 0 to {}",
                n - 1
            )));
        }
        Some(seat)
    } else if let Some(partner) = &req.opposite {
        let at = table.seat_of(None, Some(partner)).ok_or_else(|| {
            Error::InvalidRequest(format!("player {partner:?} does not sit here"))
        })?;
        partner_of(at)
    } else {
        None
    };
    let fits =
        |s: usize| open(s) && (req.partner.is_none() || partner_of(s).is_some_and(|p| open(p)));
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
