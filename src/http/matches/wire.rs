//! The API's own request and response types: what `/v1/matches` reads and
//! writes, with their OpenAPI schemas. The service takes and returns plain
//! types; the conversions below name every field and variant of both
//! sides, so a change on either side fails to compile here.
//!
//! [`MatchView`] and [`SeatInfo`] are the exception: the service keeps them
//! serializable, because an action's answer is stored serialized for
//! idempotent retries; the same-named types here lend them their schema
//! (`lend!` of the schema module), and a test checks that both serialize alike.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::rules::view::GameView;
use crate::rules::{Action, Rules, Seat, Side};
use crate::service;

use crate::http::players::wire::SeatPlayer;

/// The service types described here.
mod engine {
    pub use crate::service::{MatchView, SeatInfo};
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A client holding the seat's token.
    #[default]
    Remote,
    /// A house bot played by the server.
    Bot,
}

impl From<SeatKind> for service::SeatKind {
    fn from(k: SeatKind) -> service::SeatKind {
        match k {
            SeatKind::Remote => service::SeatKind::Remote,
            SeatKind::Bot => service::SeatKind::Bot,
        }
    }
}

impl From<service::SeatKind> for SeatKind {
    fn from(k: service::SeatKind) -> SeatKind {
        match k {
            service::SeatKind::Remote => SeatKind::Remote,
            service::SeatKind::Bot => SeatKind::Bot,
        }
    }
}

/// What the server does when a seat's move clock runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The seat's house bot acts for it (the default).
    #[default]
    Bot,
    /// The seat's side forfeits the hand.
    Forfeit,
}

impl From<OnTimeout> for service::OnTimeout {
    fn from(t: OnTimeout) -> service::OnTimeout {
        match t {
            OnTimeout::Bot => service::OnTimeout::Bot,
            OnTimeout::Forfeit => service::OnTimeout::Forfeit,
        }
    }
}

/// A seat of a new match.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    /// `remote` (default: a client with a token) or `bot` (a house bot).
    #[serde(default)]
    pub kind: SeatKind,
    /// The house bot for a `bot` seat, and the stand-in on a timeout: a
    /// house bot name or a strength level (`easy`, `medium`, `hard`,
    /// `expert`).
    #[schema(value_type = Option<crate::http::openapi::schema::HouseBot>)]
    pub bot: Option<String>,
    /// A display name: at most 64 characters, at least one of them
    /// visible; no control, invisible or text-direction characters, and at
    /// most 3 combining marks on one character. Stored in Unicode NFC.
    #[schema(
        example = "alice",
        max_length = 64,
        pattern = r"^[\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0]*[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180D\u180F\uFE00-\uFE0F][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]*$"
    )]
    pub name: Option<String>,
    /// A registered player to seat here (a `remote` seat): its API key
    /// acts for the seat besides the seat token, and its event stream
    /// hears of the match. The name defaults to the player's.
    #[schema(example = json!(null))]
    pub player: Option<String>,
}

/// The body of `POST /v1/matches`. Every field is optional.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// The rule options (docs/rules.md); defaults as there.
    #[serde(default)]
    pub rules: Rules,
    /// One entry per seat in seat order (4, or 3 for `abarrotada3`);
    /// default: every seat remote.
    #[schema(min_items = 3, max_items = 4)]
    pub seats: Option<Vec<SeatSpec>>,
    /// A 256-bit seed as 64 hex digits, to replay a match; default: drawn
    /// from the OS secure random source.
    #[schema(example = json!(null), pattern = "^[0-9a-fA-F]{64}$")]
    pub seed: Option<String>,
    /// Deal every hand as soon as the previous one is scored.
    #[serde(default)]
    pub auto_deal: bool,
    /// A move clock: each seat has this long to act (100 to 86,400,000 ms).
    #[schema(minimum = 100, maximum = 86_400_000)]
    pub move_timeout_ms: Option<u64>,
    /// On a timeout: `bot` (default, the seat's house bot acts) or
    /// `forfeit` (the seat's side forfeits the hand).
    #[serde(default)]
    pub on_timeout: OnTimeout,
}

impl From<CreateMatch> for service::NewMatch {
    fn from(c: CreateMatch) -> service::NewMatch {
        let CreateMatch {
            rules,
            seats,
            seed,
            auto_deal,
            move_timeout_ms,
            on_timeout,
        } = c;
        service::NewMatch {
            rules,
            seats: seats.map(|s| {
                s.into_iter()
                    .map(
                        |SeatSpec {
                             kind,
                             bot,
                             name,
                             player,
                         }| service::NewSeat {
                            kind: kind.into(),
                            bot,
                            name,
                            player,
                            token_sha256: None,
                        },
                    )
                    .collect()
            }),
            seed,
            auto_deal,
            move_timeout_ms,
            on_timeout: on_timeout.into(),
            id: None,
            rated: false,
        }
    }
}

/// A remote seat's secret token, shown once.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatToken {
    /// The seat it acts for.
    #[schema(value_type = crate::http::openapi::schema::SeatNumber)]
    pub seat: Seat,
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
}

/// The answer to `POST /v1/matches`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Created {
    /// The new match's id.
    pub match_id: String,
    /// One token per remote seat.
    pub tokens: Vec<SeatToken>,
    /// The spectator view of the new match.
    pub view: engine::MatchView,
}

impl From<service::Created> for Created {
    fn from(c: service::Created) -> Created {
        let service::Created {
            match_id,
            tokens,
            view,
        } = c;
        Created {
            match_id,
            tokens: tokens
                .into_iter()
                .map(|service::SeatToken { seat, token }| SeatToken { seat, token })
                .collect(),
            view,
        }
    }
}

/// `GET …/legal-moves`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    /// The match version these moves apply to: send it as
    /// `expected_version` with the action.
    pub version: u64,
    /// The number of the match's last event at that version.
    pub last_seq: u64,
    /// The seat to act (null when the match is over).
    #[schema(value_type = Option<crate::http::openapi::schema::SeatNumber>)]
    pub turn: Option<Seat>,
    /// The caller's legal actions (empty when it is not its turn).
    pub actions: Vec<Action>,
    /// With `?hint=<bot>`: the action that house bot would choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<Action>,
}

impl From<service::LegalMoves> for LegalMoves {
    fn from(l: service::LegalMoves) -> LegalMoves {
        let service::LegalMoves {
            version,
            last_seq,
            turn,
            actions,
            hint,
        } = l;
        LegalMoves {
            version,
            last_seq,
            turn,
            actions,
            hint,
        }
    }
}

/// One event as a viewer sees it: `seq`, `version`, `turn` and the event
/// itself (its `type` and fields); described by `schema::events::Event`.
#[derive(Clone, Debug, Serialize)]
pub struct EventView {
    /// 1, 2, 3, … per match, never reused.
    pub seq: u64,
    /// The match version the event's step produced (absent on events
    /// stored before versions were).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// The seat to act after that step, null once the match is over
    /// (absent exactly when `version` is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<Option<Seat>>,
    /// The event itself: `type` and its fields.
    #[serde(flatten)]
    pub body: Value,
}

/// `GET …/events`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventsPage {
    /// The events after the requested number, oldest first.
    #[schema(value_type = Vec<crate::http::openapi::schema::events::Event>)]
    pub events: Vec<EventView>,
    /// The number of the last event of the match: the `after` of the next
    /// request.
    pub last_seq: u64,
    /// With `with_state=true`: the caller's view, from the same read of
    /// the match as the events, which are those numbered after its
    /// `last_seq`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<MatchView>,
}

impl From<service::EventsPage> for EventsPage {
    fn from(p: service::EventsPage) -> EventsPage {
        let service::EventsPage { events, last_seq } = p;
        EventsPage {
            events: events
                .into_iter()
                .map(
                    |service::EventView {
                         seq,
                         version,
                         turn,
                         body,
                     }| EventView {
                        seq,
                        version,
                        turn: version.map(|_| turn),
                        body,
                    },
                )
                .collect(),
            last_seq,
            state: None,
        }
    }
}

/// A seat as every viewer sees it.
#[derive(Serialize, ToSchema)]
pub struct SeatInfo {
    /// The seat number.
    #[schema(value_type = crate::http::openapi::schema::SeatNumber)]
    pub seat: Seat,
    /// The side it scores for (its team in pairs, itself in abarrotada).
    #[schema(value_type = crate::http::openapi::schema::SideNumber)]
    pub team: Side,
    /// `remote` or `bot`.
    pub kind: SeatKind,
    /// The house bot that plays it (bots) or stands in on a timeout.
    pub bot: String,
    /// A display name.
    pub name: Option<String>,
    /// The player seated here (public profile fields), or null.
    pub player: Option<SeatPlayer>,
}

/// A match as one seat (or a spectator) sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MatchView {
    /// The match id.
    pub match_id: String,
    /// Increases by one per accepted action; send it back as
    /// `expected_version` or `If-Match` to act only on this state.
    pub version: u64,
    /// The number of the match's last event at this version: follow the
    /// match from here with `GET …/events?after=<last_seq>` or the stream
    /// (`Last-Event-ID: <last_seq>`).
    pub last_seq: u64,
    /// Who sits where.
    pub seats: Vec<engine::SeatInfo>,
    /// When the seat to act must have acted (RFC 3339), with a move clock.
    #[schema(format = DateTime)]
    pub deadline: Option<String>,
    /// The game as the viewer may see it.
    #[serde(flatten)]
    pub game: GameView,
}

impl From<engine::SeatInfo> for SeatInfo {
    fn from(s: engine::SeatInfo) -> SeatInfo {
        let engine::SeatInfo {
            seat,
            team,
            kind,
            bot,
            name,
            player,
        } = s;
        SeatInfo {
            seat,
            team,
            kind: kind.into(),
            bot,
            name,
            player: player.map(Into::into),
        }
    }
}

impl From<engine::MatchView> for MatchView {
    fn from(v: engine::MatchView) -> MatchView {
        let engine::MatchView {
            match_id,
            version,
            last_seq,
            seats,
            deadline,
            game,
        } = v;
        MatchView {
            match_id,
            version,
            last_seq,
            seats,
            deadline,
            game,
        }
    }
}

crate::http::openapi::schema::lend!(MatchView, SeatInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Match;

    #[test]
    fn the_described_views_serialize_as_the_service_views() {
        let view = engine::MatchView {
            match_id: "m1".into(),
            version: 3,
            last_seq: 12,
            seats: vec![engine::SeatInfo {
                seat: 0,
                team: 0,
                kind: service::SeatKind::Bot,
                bot: "heuristic".into(),
                name: Some("alice".into()),
                player: Some(crate::service::SeatPlayer {
                    id: "p0123456789abcdef01234567".into(),
                    name: "alice".into(),
                    kind: crate::service::PlayerKind::Bot,
                }),
            }],
            deadline: Some("2026-01-01T00:00:00Z".into()),
            game: Match::new(Rules::default(), [7; 32]).unwrap().view(Some(0)),
        };
        let expected = serde_json::to_value(&view).unwrap();
        let seat = SeatInfo::from(view.seats[0].clone());
        assert_eq!(serde_json::to_value(&seat).unwrap(), expected["seats"][0]);
        assert_eq!(
            serde_json::to_value(MatchView::from(view)).unwrap(),
            expected
        );
        for k in [service::SeatKind::Remote, service::SeatKind::Bot] {
            assert_eq!(
                serde_json::to_value(SeatKind::from(k)).unwrap(),
                serde_json::to_value(k).unwrap()
            );
        }
    }
}
