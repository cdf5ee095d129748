//! Tables with open seats: what they are, how everyone sees them, and
//! creating and reading them (joining and leaving are in `join.rs`).

use std::time::Duration;

use crate::bots;
use crate::lobby::Lobby;
use crate::lobby::records::{
    self, SeatPlayer, TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility,
};
use crate::lobby::store::Doc;
use crate::lobby::update::load;
use crate::rules::{Rules, Seat, Side, Variant};
use crate::service::{self, Error, OnTimeout, SeatToken, clock_now_ms, rfc3339};

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
    /// Its match is rated (the queue's and rated challenges' tables).
    pub rated: bool,
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
    /// The joiner came with the table's invite code (`POST
    /// /v1/invites/{code}/join`), the only way into a private table; a
    /// join by the table's id alone is refused there.
    pub invited: bool,
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

    pub(super) fn ttl(&self, now: u64) -> Duration {
        Duration::from_millis(self.expires_ms.saturating_sub(now)) + KEEP_AFTER_EXPIRY
    }

    /// The seat held by `caller` (a seat token, or a player's id), if any.
    pub(super) fn seat_of(&self, token_hash: Option<&str>, player: Option<&str>) -> Option<usize> {
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

/// A table id of the shape tables have (anything else is no table).
///
/// # Errors
/// `TableNotFound` for any other shape.
pub(super) fn check_table_id(id: &str) -> Result<(), Error> {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(Error::TableNotFound);
    }
    Ok(())
}

/// The lobby indexes a public table is listed in.
pub(in crate::lobby) fn indexes(t: &TableRecord) -> [String; 2] {
    ["all".to_string(), variant_index(t.rules.variant)]
}

/// The listing index of one variant's tables.
pub(super) fn variant_index(variant: Variant) -> String {
    let name = serde_json::to_value(variant)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    format!("v:{name}")
}

/// Every listing index: a table's entry is in two of them.
pub(in crate::lobby) fn every_index() -> Vec<String> {
    std::iter::once("all".to_string())
        .chain(Variant::ALL.into_iter().map(variant_index))
        .collect()
}

pub(super) fn taken_seat(
    name: Option<String>,
    player: Option<SeatPlayer>,
    hash: String,
) -> TableSeat {
    TableSeat {
        kind: TableSeatKind::Remote,
        bot: bots::DEFAULT.to_string(),
        name,
        player,
        token_sha256: Some(hash),
    }
}

impl Lobby {
    /// Creates a table, as the holder of `credential` (a player's key, or
    /// none). A seat may name the caller's own player (it sits there); a
    /// seat naming another player is reserved for it, takes a slot among
    /// the caller's and that player's pending invitations (the caps of
    /// `lobby/pending.rs`), and the player hears `table_invited`.
    ///
    /// # Errors
    /// `InvalidRequest` for bad rules, seats, players or expiry;
    /// `Unauthorized` for a credential that is not a current key;
    /// `ConsentRequired` for a player named without a key;
    /// `TooManyChallenges`, `InboxFull` past the caps; `StoreUnavailable`.
    pub async fn create_table(
        &self,
        req: NewTable,
        credential: Option<&str>,
    ) -> Result<TableCreated, Error> {
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
        let host = match req.seats.iter().any(|s| s.player.is_some()) {
            true => self.svc.caller_player(credential).await?,
            false => None,
        };
        let (seats, tokens) = self.table_seats(req.seats, host.as_deref()).await?;
        let now = clock_now_ms();
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
            rated: req.rated,
            host,
        };
        if table.visibility == Visibility::Private {
            table.invite = Some(self.new_invite(&table, now).await?);
        }
        let invitation = table.invitation();
        if let Some(inv) = &invitation {
            self.core.take_slots(inv).await?;
        }
        if let Err(e) = self.store_table(&table, now).await {
            if let Some(inv) = &invitation {
                self.core
                    .give_back_slots(Some(inv.maker), &inv.to, &inv.slot.id)
                    .await;
            }
            return Err(e);
        }
        tracing::info!(table_id = %table.id, open = table.open_seats(), "table created");
        self.invite_reserved(&table).await;
        Ok(TableCreated {
            table: table.view(now),
            invite_code: table.invite.clone(),
            tokens,
        })
    }

    /// Stores a new table and lists a public one in the lobby.
    ///
    /// # Errors
    /// `Internal` if its id is taken; `StoreUnavailable`.
    async fn store_table(&self, table: &TableRecord, now: u64) -> Result<(), Error> {
        let store = self.store();
        let state = records::encode(table)?;
        if !store
            .insert(Doc::Table, &table.id, &state, Some(table.ttl(now)))
            .await?
        {
            return Err(Error::Internal("table id collision".into()));
        }
        if table.visibility == Visibility::Public {
            for index in indexes(table) {
                store.index_add(&index, &table.index_entry()).await?;
            }
        }
        Ok(())
    }

    /// Loads a table and its version.
    ///
    /// # Errors
    /// `TableNotFound`; `StoreUnavailable`.
    pub(in crate::lobby) async fn load_table(&self, id: &str) -> Result<(u64, TableRecord), Error> {
        check_table_id(id)?;
        load(self.store(), Doc::Table, id, || Error::TableNotFound).await
    }

    /// A table as everyone sees it. A read only: a table a joiner left
    /// `starting` reads so until the housekeeping starts its match (see
    /// `lobby/recovery.rs`).
    ///
    /// # Errors
    /// `TableNotFound`; `StoreUnavailable`.
    pub async fn table(&self, id: &str) -> Result<TableView, Error> {
        let (_, table) = self.load_table(id).await?;
        Ok(table.view(clock_now_ms()))
    }
}
