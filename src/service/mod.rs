//! The match lifecycle: create, act, view, events, history.
//!
//! Every request loads the match from the [`MatchStore`], works on it in
//! memory with the rules engine, and writes it back with one
//! compare-and-set on its version, so concurrent requests (on one server or
//! many) never lose or duplicate a move. House bots, automatic deals and
//! expired move clocks are played inside the same write.

mod clock;
mod error;
mod events;
mod instrumented;
pub mod metrics;
mod record;
mod tokens;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::bots;
use crate::rules::view::HistoryView;
use crate::rules::{Action, Event, Match, Move, Phase, Rules, Seat};
use crate::store::{Commit, CommitOutcome, MatchStore};
use clock::now_ms;
use record::{MatchRecord, SeatRecord};

pub use error::Error;
pub use events::EventView;
pub use record::{MatchView, OnTimeout, SeatInfo, SeatKind};
pub use tokens::token_key;

/// Limits the service enforces on what clients control.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest long-poll wait, in milliseconds.
    pub max_wait_ms: u64,
    /// Most events returned by one request.
    pub max_events_page: usize,
    /// Longest display name, in characters.
    pub max_name_len: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_wait_ms: 30_000,
            max_events_page: 1000,
            max_name_len: 64,
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
    #[schema(example = "heuristic")]
    pub bot: Option<String>,
    /// A display name.
    #[schema(example = "alice")]
    pub name: Option<String>,
}

/// The body of `POST /v1/matches`. Every field is optional.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// The rule options (RULES.md); defaults as there.
    #[serde(default)]
    pub rules: Rules,
    /// One entry per seat in seat order (4, or 3 for `abarrotada3`);
    /// default: every seat remote.
    pub seats: Option<Vec<SeatSpec>>,
    /// A 256-bit seed as 64 hex digits, to replay a match; default: drawn
    /// from the OS secure random source.
    #[schema(example = json!(null))]
    pub seed: Option<String>,
    /// Deal every hand as soon as the previous one is scored.
    #[serde(default)]
    pub auto_deal: bool,
    /// A move clock: each seat has this long to act (100 to 86,400,000 ms).
    pub move_timeout_ms: Option<u64>,
    /// On a timeout: `bot` (default, the seat's house bot acts) or
    /// `forfeit` (the seat's side forfeits the hand).
    #[serde(default)]
    pub on_timeout: OnTimeout,
}

/// A remote seat's secret token, shown once.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeatToken {
    /// The seat it acts for.
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
    pub view: MatchView,
}

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// A game action.
    Action(Action),
    /// Forfeit the hand for the caller's side.
    Resign,
}

impl Act {
    /// This act made by `seat`, as the engine's move log writes it.
    pub fn by(self, seat: Seat) -> Move {
        match self {
            Act::Action(a) => Move::Act(seat, a),
            Act::Resign => Move::Resign(seat),
        }
    }
}

/// An action request with its optional guards.
#[derive(Clone, Debug)]
pub struct ActRequest {
    /// What to do.
    pub act: Act,
    /// The seat the client believes it holds; must match the token's.
    pub seat: Option<Seat>,
    /// Act only if the match is still at this version.
    pub expected_version: Option<u64>,
    /// A retry of the seat's latest action with the same key gets the first
    /// answer; only the seat's latest key is remembered.
    pub idempotency_key: Option<String>,
}

/// `GET …/legal-moves`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LegalMoves {
    /// The match version these moves apply to.
    pub version: u64,
    /// The seat to act (null when the match is over).
    pub turn: Option<Seat>,
    /// The caller's legal actions (empty when it is not its turn).
    pub actions: Vec<Action>,
    /// With `?hint=<bot>`: the action that house bot would choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<Action>,
}

/// `GET …/events`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventsPage {
    /// The events after the requested number, oldest first.
    pub events: Vec<EventView>,
    /// The number of the last event of the match.
    pub last_seq: u64,
}

/// The match service over a store.
pub struct Service {
    store: Arc<dyn MatchStore>,
    limits: Limits,
}

/// How many times an action is retried when another write wins the race.
const COMMIT_ATTEMPTS: usize = 8;
/// Most engine steps (bot moves, deals) folded into one request.
const MAX_STEPS: usize = 20_000;

impl Service {
    /// A service over `store`; every store round trip is counted in [`metrics`].
    pub fn new(store: Arc<dyn MatchStore>, limits: Limits) -> Service {
        Service {
            store: Arc::new(instrumented::Instrumented::new(store)),
            limits,
        }
    }

    /// The store, for readiness checks.
    pub fn store(&self) -> &Arc<dyn MatchStore> {
        &self.store
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Creates a match.
    ///
    /// # Errors
    /// `InvalidRequest` for bad rules, seats or seed; `StoreUnavailable`.
    pub async fn create(&self, req: CreateMatch) -> Result<Created, Error> {
        req.rules
            .validate()
            .map_err(|e| Error::InvalidRequest(e.to_string()))?;
        let n = req.rules.variant.table().seats as usize;
        let specs = req.seats.unwrap_or_else(|| vec![SeatSpec::default(); n]);
        if specs.len() != n {
            return Err(Error::InvalidRequest(format!(
                "this variant has {n} seats; `seats` lists {}",
                specs.len()
            )));
        }
        let seed = match &req.seed {
            Some(hex_seed) => parse_seed(hex_seed)?,
            None => tokens::os_random::<32>()?,
        };
        if let Some(ms) = req.move_timeout_ms
            && !(100..=86_400_000).contains(&ms)
        {
            return Err(Error::InvalidRequest(
                "move_timeout_ms must be between 100 and 86400000".into(),
            ));
        }
        let mut seats = Vec::with_capacity(n);
        let mut seat_tokens = Vec::new();
        for (i, spec) in specs.into_iter().enumerate() {
            let bot = spec.bot.unwrap_or_else(|| bots::DEFAULT.to_string());
            house_bot(&bot)?;
            if let Some(name) = &spec.name
                && name.chars().count() > self.limits.max_name_len
            {
                return Err(Error::InvalidRequest(format!(
                    "seat names are at most {} characters",
                    self.limits.max_name_len
                )));
            }
            let token_sha256 = match spec.kind {
                SeatKind::Remote => {
                    let (token, hash) = tokens::new_token()?;
                    seat_tokens.push(SeatToken {
                        seat: i as Seat,
                        token,
                    });
                    Some(hash)
                }
                SeatKind::Bot => None,
            };
            seats.push(SeatRecord {
                kind: spec.kind,
                bot,
                name: spec.name,
                token_sha256,
            });
        }
        let game = Match::new(req.rules, seed).map_err(|e| Error::InvalidRequest(e.to_string()))?;
        let now = now_ms();
        let mut rec = MatchRecord {
            id: tokens::new_match_id()?,
            version: 0,
            game,
            seats,
            auto_deal: req.auto_deal,
            move_timeout_ms: req.move_timeout_ms,
            on_timeout: req.on_timeout,
            deadline_ms: None,
            created_ms: now,
        };
        let mut events = vec![events::match_created(
            rec.game.dealer,
            rec.game.first_dealer_card,
        )];
        let house = advance(&mut rec, &mut events, now)?;
        let state = serde_json::to_string(&rec)?;
        if !self
            .store
            .create(&rec.id, rec.version, &state, &events)
            .await?
        {
            return Err(Error::Internal("match id collision".into()));
        }
        metrics::metrics().matches_created.inc();
        house.record();
        tracing::info!(match_id = %rec.id, seats = ?rec.seats.iter().map(|s| s.kind).collect::<Vec<_>>(), "match created");
        Ok(Created {
            match_id: rec.id.clone(),
            tokens: seat_tokens,
            view: rec.view(None),
        })
    }

    async fn load(&self, id: &str) -> Result<MatchRecord, Error> {
        if id.is_empty()
            || id.len() > 64
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(Error::MatchNotFound);
        }
        let snap = self.store.load(id).await?.ok_or(Error::MatchNotFound)?;
        let mut rec: MatchRecord = serde_json::from_str(&snap.state)?;
        rec.version = snap.version;
        Ok(rec)
    }

    /// Loads a match and plays any move clock that has run out.
    async fn load_current(&self, id: &str) -> Result<MatchRecord, Error> {
        for _ in 0..COMMIT_ATTEMPTS {
            let mut rec = self.load(id).await?;
            let now = now_ms();
            if rec.deadline_ms.is_none_or(|d| now < d) {
                return Ok(rec);
            }
            let before = rec.version;
            let mut events = Vec::new();
            let house = advance(&mut rec, &mut events, now)?;
            let state = serde_json::to_string(&rec)?;
            let commit = Commit {
                expected_version: before,
                new_version: rec.version,
                state: &state,
                events: &events,
                idempotency: None,
            };
            if let CommitOutcome::Committed { .. } = self.store.commit(id, commit).await? {
                house.record();
                return Ok(rec);
            }
        }
        self.load(id).await
    }

    /// The seat of `token` in `rec`; `None` without a token.
    fn seat_of(rec: &MatchRecord, token: Option<&str>) -> Result<Option<Seat>, Error> {
        let Some(token) = token else { return Ok(None) };
        // Hashed once, compared with every seat's hash.
        let hash = tokens::hash_token(token);
        rec.seats
            .iter()
            .position(|s| {
                s.token_sha256
                    .as_deref()
                    .is_some_and(|h| tokens::hash_matches(&hash, h))
            })
            .map(|i| Some(i as Seat))
            .ok_or_else(|| {
                Error::Unauthorized("this token is not a seat token of this match".into())
            })
    }

    fn require_seat(rec: &MatchRecord, token: Option<&str>) -> Result<Seat, Error> {
        Self::seat_of(rec, token)?.ok_or_else(|| {
            Error::Unauthorized("send the seat token as `Authorization: Bearer <token>`".into())
        })
    }

    /// The view of the token's seat, or the spectator view without a token.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `StoreUnavailable`.
    pub async fn view(&self, id: &str, token: Option<&str>) -> Result<MatchView, Error> {
        let rec = self.load_current(id).await?;
        let seat = Self::seat_of(&rec, token)?;
        Ok(rec.view(seat))
    }

    /// Applies a seat's action and returns its new view as JSON.
    ///
    /// # Errors
    /// Every rule and guard failure of the API; nothing changes on error.
    pub async fn act(
        &self,
        id: &str,
        token: Option<&str>,
        req: ActRequest,
    ) -> Result<String, Error> {
        for _ in 0..COMMIT_ATTEMPTS {
            let mut rec = self.load_current(id).await?;
            let seat = Self::require_seat(&rec, token)?;
            if let Some(claimed) = req.seat
                && claimed != seat
            {
                return Err(Error::Forbidden(format!(
                    "this token acts for seat {seat}, not seat {claimed}"
                )));
            }
            let idem_key = req
                .idempotency_key
                .as_ref()
                .map(|k| format!("seat{seat}:{k}"));
            if let Some(key) = &idem_key
                && let Some(resp) = self.store.idempotent_response(id, key).await?
            {
                return Ok(resp);
            }
            if let Some(expected) = req.expected_version
                && expected != rec.version
            {
                return Err(Error::VersionConflict {
                    expected,
                    current: rec.version,
                });
            }
            let before = rec.version;
            let mut events = Vec::new();
            let mut engine_events = Vec::new();
            rec.game.perform(req.act.by(seat), &mut engine_events)?;
            for e in &engine_events {
                events.push(events::stored(e)?);
            }
            rec.version += 1;
            let now = now_ms();
            rec.deadline_ms = None;
            let house = advance(&mut rec, &mut events, now)?;
            let body = serde_json::to_string(&rec.view(Some(seat)))?;
            let state = serde_json::to_string(&rec)?;
            let commit = Commit {
                expected_version: before,
                new_version: rec.version,
                state: &state,
                events: &events,
                idempotency: idem_key.as_deref().map(|k| (k, body.as_str())),
            };
            match self.store.commit(id, commit).await? {
                CommitOutcome::Committed { .. } => {
                    metrics::metrics().action(metrics::kind_of(&req.act), "client");
                    house.record();
                    tracing::info!(match_id = %id, seat, act = ?req.act, version = rec.version, "action applied");
                    return Ok(body);
                }
                CommitOutcome::Duplicate { response } => return Ok(response),
                CommitOutcome::Conflict { current_version } => {
                    if let Some(expected) = req.expected_version {
                        return Err(Error::VersionConflict {
                            expected,
                            current: current_version,
                        });
                    }
                }
            }
        }
        Err(Error::VersionConflict {
            expected: 0,
            current: 0,
        })
    }

    /// The caller's legal actions, with an optional house-bot hint.
    ///
    /// # Errors
    /// `Unauthorized` without a valid token; `InvalidRequest` for an unknown bot.
    pub async fn legal_moves(
        &self,
        id: &str,
        token: Option<&str>,
        hint: Option<&str>,
    ) -> Result<LegalMoves, Error> {
        let rec = self.load_current(id).await?;
        let seat = Self::require_seat(&rec, token)?;
        let actions = rec.game.legal_actions(seat);
        let hint = match hint {
            None => None,
            Some(name) => {
                let bot = house_bot(name)?;
                (!actions.is_empty())
                    .then(|| bot.choose(&rec.game.view(Some(seat)), &mut bot_rng(&rec)))
            }
        };
        Ok(LegalMoves {
            version: rec.version,
            turn: rec.game.turn(),
            actions,
            hint,
        })
    }

    /// The events after `after`, waiting up to `wait_ms` for one.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `InvalidRequest`
    /// for limits, `StoreUnavailable`.
    pub async fn events(
        &self,
        id: &str,
        token: Option<&str>,
        after: u64,
        wait_ms: u64,
        limit: usize,
    ) -> Result<EventsPage, Error> {
        if wait_ms > self.limits.max_wait_ms {
            return Err(Error::InvalidRequest(format!(
                "wait_ms is at most {}",
                self.limits.max_wait_ms
            )));
        }
        if limit == 0 || limit > self.limits.max_events_page {
            return Err(Error::InvalidRequest(format!(
                "limit is between 1 and {}",
                self.limits.max_events_page
            )));
        }
        let rec = self.load_current(id).await?;
        let seat = Self::seat_of(&rec, token)?;
        let mut raw = self.store.events_after(id, after, limit).await?;
        if raw.is_empty() && wait_ms > 0 {
            // Wake for new events, or when the move clock runs out.
            let mut wait = wait_ms;
            if let Some(d) = rec.deadline_ms {
                wait = wait.min(d.saturating_sub(now_ms()) + 5);
            }
            self.store
                .wait_events(id, after, Duration::from_millis(wait))
                .await?;
            if rec.deadline_ms.is_some_and(|d| now_ms() >= d) {
                self.load_current(id).await?;
            }
            raw = self.store.events_after(id, after, limit).await?;
        }
        let last_seq = match raw.last() {
            Some((seq, _)) => self.store.last_seq(id).await?.max(*seq),
            None => self.store.last_seq(id).await?,
        };
        let events = raw
            .iter()
            .map(|(seq, e)| events::redact(*seq, e, seat))
            .collect::<Result<_, _>>()?;
        Ok(EventsPage { events, last_seq })
    }

    /// The full record as the caller may see it.
    ///
    /// # Errors
    /// `MatchNotFound`, `Unauthorized` for a wrong token, `StoreUnavailable`.
    pub async fn history(&self, id: &str, token: Option<&str>) -> Result<HistoryView, Error> {
        let rec = self.load_current(id).await?;
        let seat = Self::seat_of(&rec, token)?;
        Ok(rec.game.history_view(seat))
    }
}

/// Parses a 64-hex-digit seed.
fn parse_seed(s: &str) -> Result<[u8; 32], Error> {
    let mut seed = [0u8; 32];
    hex::decode_to_slice(s, &mut seed).map_err(|_| {
        Error::InvalidRequest("seed must be 64 hexadecimal digits (256 bits)".into())
    })?;
    Ok(seed)
}

/// The generator house bots use at this state: derived from the seed and the
/// version, so a replay with the same seed and moves plays the same.
fn bot_rng(rec: &MatchRecord) -> Xoshiro256PlusPlus {
    let mut key = [0u8; 32];
    key.copy_from_slice(&rec.game.seed);
    for (k, v) in key.iter_mut().zip(rec.version.to_le_bytes()) {
        *k ^= v;
    }
    Xoshiro256PlusPlus::from_seed(key)
}

/// Plays everything that needs no client: automatic deals, house-bot seats
/// and expired move clocks; then sets the deadline of the seat to act.
///
/// Returns the moves it made, to count once the state is committed.
fn advance(
    rec: &mut MatchRecord,
    events: &mut Vec<String>,
    now: u64,
) -> Result<metrics::Applied, Error> {
    let mut applied = metrics::Applied::default();
    let mut engine_events: Vec<Event> = Vec::new();
    for _ in 0..MAX_STEPS {
        let Some(seat) = rec.game.turn() else { break };
        let phase = rec.game.phase();
        let info = &rec.seats[seat as usize];
        let expired = rec.deadline_ms.is_some_and(|d| now >= d);
        let (act, reason) = if phase == Phase::AwaitingDeal && rec.auto_deal {
            (Act::Action(Action::Deal), None)
        } else if info.kind == SeatKind::Bot {
            (Act::Action(bot_action(rec, seat)?), Some("house"))
        } else if expired && rec.on_timeout == OnTimeout::Forfeit && phase != Phase::AwaitingDeal {
            (Act::Resign, None)
        } else if expired {
            (Act::Action(bot_action(rec, seat)?), Some("timeout"))
        } else {
            break;
        };
        applied.push(&act, reason);
        if let (Some(reason), Act::Action(a)) = (reason, act) {
            events.push(events::bot_acted(
                seat,
                &rec.seats[seat as usize].bot,
                &a,
                reason,
            ));
        }
        engine_events.clear();
        rec.game
            .perform(act.by(seat), &mut engine_events)
            .map_err(|e| Error::Internal(format!("house move refused: {e}")))?;
        for e in &engine_events {
            events.push(events::stored(e)?);
        }
        rec.version += 1;
        rec.deadline_ms = None;
    }
    if rec.deadline_ms.is_none() {
        rec.deadline_ms = match (rec.move_timeout_ms, rec.game.turn()) {
            (Some(ms), Some(_)) => Some(now + ms),
            _ => None,
        };
    }
    Ok(applied)
}

/// The house bot called `name`, or the error naming the ones there are.
fn house_bot(name: &str) -> Result<&'static dyn bots::Bot, Error> {
    bots::by_name(name).ok_or_else(|| {
        Error::InvalidRequest(format!(
            "unknown bot {name:?}; house bots: {}",
            bots::NAMES.join(", ")
        ))
    })
}

fn bot_action(rec: &MatchRecord, seat: Seat) -> Result<Action, Error> {
    let name = &rec.seats[seat as usize].bot;
    let bot = house_bot(name).map_err(|e| Error::Internal(format!("stored seat: {e}")))?;
    let view = rec.game.view(Some(seat));
    if view.legal_actions.is_empty() {
        return Err(Error::Internal(
            "no legal action for the seat to act".into(),
        ));
    }
    let start = Instant::now();
    let action = bot.choose(&view, &mut bot_rng(rec));
    metrics::metrics()
        .bot_decision
        .with_label_values(&[name.as_str()])
        .observe(start.elapsed().as_secs_f64());
    Ok(action)
}
