//! The request and response types of tables, the lobby and invite codes,
//! with their OpenAPI schemas; the conversions name every field of both
//! sides.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::matches::wire::{OnTimeout, SeatToken};
use crate::http::openapi::schema::SeatNumber;
use crate::http::players::wire::SeatPlayer;
use crate::lobby::{self, records};
use crate::rules::{Rules, Seat, Side};

/// Whether a table is listed in the lobby.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed in `GET /v1/lobby`.
    #[default]
    Public,
    /// Joined only with its invite code.
    Private,
}

impl From<Visibility> for records::Visibility {
    fn from(v: Visibility) -> records::Visibility {
        match v {
            Visibility::Public => records::Visibility::Public,
            Visibility::Private => records::Visibility::Private,
        }
    }
}

impl From<records::Visibility> for Visibility {
    fn from(v: records::Visibility) -> Visibility {
        match v {
            records::Visibility::Public => Visibility::Public,
            records::Visibility::Private => Visibility::Private,
        }
    }
}

/// Who holds a table seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableSeatKind {
    /// Free for anyone to join.
    #[default]
    Open,
    /// A client with the seat token (or the seated player's key).
    Remote,
    /// A house bot.
    Bot,
    /// Held for one invited player (`player`), who takes it with its key
    /// or declines it. In a request, a `remote` seat naming another
    /// player is reserved too.
    Reserved,
}

impl From<TableSeatKind> for records::TableSeatKind {
    fn from(k: TableSeatKind) -> records::TableSeatKind {
        match k {
            TableSeatKind::Open => records::TableSeatKind::Open,
            TableSeatKind::Remote => records::TableSeatKind::Remote,
            TableSeatKind::Bot => records::TableSeatKind::Bot,
            TableSeatKind::Reserved => records::TableSeatKind::Reserved,
        }
    }
}

impl From<records::TableSeatKind> for TableSeatKind {
    fn from(k: records::TableSeatKind) -> TableSeatKind {
        match k {
            records::TableSeatKind::Open => TableSeatKind::Open,
            records::TableSeatKind::Remote => TableSeatKind::Remote,
            records::TableSeatKind::Bot => TableSeatKind::Bot,
            records::TableSeatKind::Reserved => TableSeatKind::Reserved,
        }
    }
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are open.
    Open,
    /// Every seat is taken; the match is being created.
    Starting,
    /// The match exists (`match_id`).
    Started,
    /// It expired with seats still open.
    Expired,
}

impl From<records::TableStatus> for TableStatus {
    fn from(s: records::TableStatus) -> TableStatus {
        match s {
            records::TableStatus::Open => TableStatus::Open,
            records::TableStatus::Starting => TableStatus::Starting,
            records::TableStatus::Started => TableStatus::Started,
            records::TableStatus::Expired => TableStatus::Expired,
        }
    }
}

/// A seat of a new table.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableSeatSpec {
    /// `open` (default), `remote` (its token is in the answer), `bot`, or
    /// `reserved` (for the `player` named, who takes it with its own key).
    #[serde(default)]
    pub kind: TableSeatKind,
    /// The house bot of a `bot` seat, and the stand-in on a timeout.
    pub bot: Option<String>,
    /// A display name (not for open seats: the joiner names itself).
    #[schema(
        max_length = 64,
        pattern = r"^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0]*[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180D\u180F\uFE00-\uFE0F][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]*$"
    )]
    pub name: Option<String>,
    /// A registered player for a `remote` or `reserved` seat: the
    /// caller's own player (with its key as the bearer) sits here; any
    /// other player gets the seat reserved, with no token in the answer.
    pub player: Option<String>,
}

/// The body of `POST /v1/tables`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The rule options (docs/rules.md).
    #[serde(default)]
    pub rules: Rules,
    /// One entry per seat in seat order, at least one `open`.
    #[schema(min_items = 3, max_items = 4)]
    pub seats: Vec<TableSeatSpec>,
    /// Deal every hand as soon as the previous one is scored.
    #[serde(default)]
    pub auto_deal: bool,
    /// A move clock: each seat has this long to act (100 to 86,400,000 ms).
    #[schema(minimum = 100, maximum = 86_400_000)]
    pub move_timeout_ms: Option<u64>,
    /// On a timeout: `bot` (default) or `forfeit`.
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// `public` (default: listed in the lobby) or `private` (joined with
    /// the invite code of the answer).
    #[serde(default)]
    pub visibility: Visibility,
    /// Seconds until the table expires if seats are still open (1 to
    /// 86,400; default 600).
    #[schema(minimum = 1, maximum = 86_400)]
    pub expires_in_s: Option<u64>,
}

impl From<CreateTable> for lobby::NewTable {
    fn from(c: CreateTable) -> lobby::NewTable {
        let CreateTable {
            rules,
            seats,
            auto_deal,
            move_timeout_ms,
            on_timeout,
            visibility,
            expires_in_s,
        } = c;
        lobby::NewTable {
            rules,
            seats: seats
                .into_iter()
                .map(
                    |TableSeatSpec {
                         kind,
                         bot,
                         name,
                         player,
                     }| lobby::NewTableSeat {
                        kind: kind.into(),
                        bot,
                        name,
                        player,
                    },
                )
                .collect(),
            auto_deal,
            move_timeout_ms,
            on_timeout: on_timeout.into(),
            visibility: visibility.into(),
            expires_in_s,
            rated: false,
        }
    }
}

/// A seat of a table.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableSeat {
    /// The seat number.
    pub seat: Seat,
    /// The side it scores for.
    pub team: Side,
    /// `open`, `remote`, `bot` or `reserved`.
    pub kind: TableSeatKind,
    /// The house bot of a bot seat.
    pub bot: Option<String>,
    /// The display name.
    pub name: Option<String>,
    /// The player seated (public profile fields), or null.
    pub player: Option<SeatPlayer>,
}

/// A table as everyone sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Table {
    /// The table's id; its match will have the same id.
    pub table_id: String,
    /// The match, once started (`GET /v1/matches/{id}`).
    pub match_id: Option<String>,
    /// `open`, `starting`, `started` or `expired`.
    pub status: TableStatus,
    /// `public` or `private`.
    pub visibility: Visibility,
    /// The rule options.
    pub rules: Rules,
    /// Every seat.
    pub seats: Vec<TableSeat>,
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

impl From<lobby::TableView> for Table {
    fn from(t: lobby::TableView) -> Table {
        let lobby::TableView {
            table_id,
            match_id,
            status,
            visibility,
            rules,
            seats,
            open_seats,
            auto_deal,
            move_timeout_ms,
            created_at,
            expires_at,
        } = t;
        Table {
            table_id,
            match_id,
            status: status.into(),
            visibility: visibility.into(),
            rules,
            seats: seats
                .into_iter()
                .map(
                    |lobby::TableSeatView {
                         seat,
                         team,
                         kind,
                         bot,
                         name,
                         player,
                     }| TableSeat {
                        seat,
                        team,
                        kind: kind.into(),
                        bot,
                        name,
                        player: player.map(Into::into),
                    },
                )
                .collect(),
            open_seats,
            auto_deal,
            move_timeout_ms,
            created_at,
            expires_at,
        }
    }
}

fn token(t: crate::service::SeatToken) -> SeatToken {
    let crate::service::SeatToken { seat, token } = t;
    SeatToken { seat, token }
}

/// The answer to `POST /v1/tables`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableCreated {
    /// The new table.
    pub table: Table,
    /// A private table's invite code (8 characters), shown only here.
    pub invite_code: Option<String>,
    /// One secret token per `remote` seat, shown only here (none for a
    /// seat reserved for another player).
    pub tokens: Vec<SeatToken>,
}

impl From<lobby::TableCreated> for TableCreated {
    fn from(c: lobby::TableCreated) -> TableCreated {
        let lobby::TableCreated {
            table,
            invite_code,
            tokens,
        } = c;
        TableCreated {
            table: table.into(),
            invite_code,
            tokens: tokens.into_iter().map(token).collect(),
        }
    }
}

/// A partner joining together with the caller.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PartnerSpec {
    /// The partner's display name (default `guest`).
    #[schema(
        max_length = 64,
        pattern = r"^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0]*[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180D\u180F\uFE00-\uFE0F][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]*$"
    )]
    pub name: Option<String>,
}

/// The body of a join (every field optional).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinTable {
    /// Take this seat (it must be open); default: the first open one.
    #[schema(value_type = Option<SeatNumber>)]
    pub seat: Option<Seat>,
    /// The display name; default: the player's, or `guest`.
    #[schema(
        max_length = 64,
        pattern = r"^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0]*[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180D\u180F\uFE00-\uFE0F][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]*$"
    )]
    pub name: Option<String>,
    /// Take the seat opposite this seated player (pairs game).
    pub opposite: Option<String>,
    /// Join as a pair: two facing open seats, the second for this partner
    /// (pairs game); both tokens come back to the caller.
    pub partner: Option<PartnerSpec>,
}

impl From<JoinTable> for lobby::Join {
    fn from(j: JoinTable) -> lobby::Join {
        let JoinTable {
            seat,
            name,
            opposite,
            partner,
        } = j;
        lobby::Join {
            seat,
            name,
            opposite,
            partner: partner.map(|PartnerSpec { name }| name),
            invited: false,
        }
    }
}

/// The answer to a join.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Joined {
    /// The table after the join.
    pub table: Table,
    /// The joiner's seat and its secret token, shown only here.
    pub token: SeatToken,
    /// The partner's seat and token, for a pair joining together.
    pub partner: Option<SeatToken>,
    /// Whether this join took the last seat and started the match
    /// (`table.match_id`).
    pub started: bool,
}

impl From<lobby::Joined> for Joined {
    fn from(j: lobby::Joined) -> Joined {
        let lobby::Joined {
            table,
            token: t,
            partner,
            started,
        } = j;
        Joined {
            table: table.into(),
            token: token(t),
            partner: partner.map(token),
            started,
        }
    }
}

/// A page of the lobby.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LobbyPage {
    /// Public tables with open seats, oldest first.
    pub tables: Vec<Table>,
    /// The cursor of the next page (`after`), or null at the end.
    pub next: Option<String>,
}

impl From<lobby::LobbyPage> for LobbyPage {
    fn from(p: lobby::LobbyPage) -> LobbyPage {
        let lobby::LobbyPage { tables, next } = p;
        LobbyPage {
            tables: tables.into_iter().map(Into::into).collect(),
            next,
        }
    }
}
