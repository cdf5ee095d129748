//! The matchmaking queue: tickets waiting in a pool per variant (rated or
//! casual), paired by rating within a window that widens while they wait.
//!
//! Each pool is one lobby document holding its waiting tickets and the
//! matches it formed that are not yet finished. Every change is a
//! compare-and-set on that document: a matching pass removes the tickets
//! it seats and records the match it formed (a fresh id and its seats) in
//! the same write, so two instances can never seat a ticket twice. The
//! match is then created under that id (creation under a fixed id happens
//! once), the tickets are marked matched and the formed entry is dropped;
//! an instance that dies half-way leaves the entry for the next pass to
//! finish. A player has one waiting ticket at a time: its `queued`
//! document names it, and is claimed by compare-and-set too.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lobby::Lobby;
use crate::lobby::records::{self, PlayerEvent, PlayerKind};
use crate::lobby::store::Doc;
use crate::rating;
use crate::rules::{Seat, Variant};
use crate::service::{self, Error, NewMatch, NewSeat, SeatKind, clock_now_ms, rfc3339};

/// Compare-and-set attempts on a pool before answering `busy`.
const ATTEMPTS: usize = 200;
/// Default life of a ticket, in seconds.
pub const DEFAULT_EXPIRY_S: u64 = 600;
/// Longest life of a ticket, in seconds.
pub const MAX_EXPIRY_S: u64 = 3600;
/// Half-width of the rating window when a ticket starts waiting.
pub const WINDOW_START: f64 = 100.0;
/// How much the half-width grows…
pub const WINDOW_STEP: f64 = 50.0;
/// …every this many milliseconds of waiting…
pub const WINDOW_EVERY_MS: u64 = 10_000;
/// …up to this half-width.
pub const WINDOW_MAX: f64 = 1000.0;
/// How long a finished ticket stays readable.
const KEEP_FINISHED: Duration = Duration::from_secs(24 * 3600);
/// The house bots the queue fills seats with, by their anchor rating.
const FILL_BOTS: [&str; 5] = ["random", "easy", "medium", "hard", "expert"];

/// What a player asks the queue for.
#[derive(Clone, Debug)]
pub struct Enqueue {
    /// The variant.
    pub variant: Variant,
    /// Rated (the default) or casual.
    pub rated: bool,
    /// A partner to sit opposite (pairs only): a registered player.
    pub partner: Option<String>,
    /// Accept other tickets whose players are bots (default true).
    pub accept_bots: bool,
    /// Play only against bots.
    pub only_bots: bool,
    /// After this wait, fill the remaining seats with house bots.
    pub fill_with_house_bots_after_s: Option<u64>,
    /// Seconds until the ticket expires unmatched (default 600).
    pub expires_in_s: Option<u64>,
}

/// Where a ticket stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TicketStatus {
    /// In its pool.
    Waiting,
    /// Seated in a match.
    Matched,
    /// Left the queue.
    Cancelled,
    /// Waited its whole life unmatched.
    Expired,
}

/// A ticket as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TicketRecord {
    /// `q` and 24 hex digits.
    pub id: String,
    /// The player who queued.
    pub player: String,
    /// Its partner (pairs).
    pub partner: Option<String>,
    /// The variant.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The players' rating in the pool when queued (a pair's mean).
    pub rating: f64,
    /// Where it stands.
    pub status: TicketStatus,
    /// The match, once matched.
    pub match_id: Option<String>,
    /// The player's seat, once matched.
    pub seat: Option<Seat>,
    /// The partner's seat, once matched.
    pub partner_seat: Option<Seat>,
    /// When it was queued (ms since the epoch).
    pub created_ms: u64,
    /// When it expires unmatched.
    pub expires_ms: u64,
    /// When it stopped waiting.
    pub finished_ms: Option<u64>,
}

/// A waiting ticket in its pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The ticket id.
    pub ticket: String,
    /// Its players (two for a pair ticket, who sit opposite).
    pub players: Vec<String>,
    /// Whether each is a bot.
    pub bots: Vec<bool>,
    /// The rating it is paired by.
    pub rating: f64,
    /// Accepts tickets with bot players.
    pub accept_bots: bool,
    /// Accepts only tickets whose players are all bots.
    pub only_bots: bool,
    /// When its seats left open are filled with house bots.
    pub fill_at_ms: Option<u64>,
    /// When it was queued.
    pub created_ms: u64,
    /// When it expires.
    pub expires_ms: u64,
}

/// A seat of a formed match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormedSeat {
    /// The player seated (remote seat), or…
    pub player: Option<String>,
    /// …the house bot.
    pub bot: Option<String>,
    /// The ticket that brought the player.
    pub ticket: Option<String>,
}

/// A match formed by a pass and not yet known to be finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formed {
    /// The id its match is created under.
    pub match_id: String,
    /// Every seat, in seat order.
    pub seats: Vec<FormedSeat>,
}

/// A pool document.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolRecord {
    /// Waiting tickets, oldest first.
    pub waiting: Vec<Entry>,
    /// Formed matches still to be finished.
    pub formed: Vec<Formed>,
}

/// A player's `queued` document.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct QueuedRecord {
    ticket: Option<String>,
}

/// A ticket as its player sees it.
#[derive(Clone, Debug)]
pub struct TicketView {
    /// The ticket.
    pub ticket: TicketRecord,
    /// 1-based place among the pool's waiting tickets (oldest first).
    pub position: Option<usize>,
    /// How long it has waited (or waited), in ms.
    pub waited_ms: u64,
    /// The rating window now (lowest, highest) while waiting.
    pub window: Option<(f64, f64)>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it expires unmatched (RFC 3339).
    pub expires_at: String,
}

/// The half-width of a ticket's window after waiting `waited_ms`.
pub fn window(waited_ms: u64) -> f64 {
    (WINDOW_START + WINDOW_STEP * (waited_ms / WINDOW_EVERY_MS) as f64).min(WINDOW_MAX)
}

/// The house bot whose anchor rating is nearest `rating`.
pub fn house_bot_near(rating: f64) -> &'static str {
    FILL_BOTS
        .iter()
        .copied()
        .min_by(|a, b| {
            let d = |n: &str| (rating::house_anchor(n).map_or(0.0, |r| r.rating) - rating).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap_or("medium")
}

/// The pool document's id.
fn pool_id(variant: Variant, rated: bool) -> String {
    format!(
        "{}-{}",
        rating::pool(variant),
        if rated { "rated" } else { "casual" }
    )
}

/// Every pool.
fn pools() -> Vec<(Variant, bool)> {
    [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3]
        .into_iter()
        .flat_map(|v| [(v, true), (v, false)])
        .collect()
}

/// Whether ticket `a` accepts sitting with ticket `b`.
fn accepts(a: &Entry, b: &Entry) -> bool {
    let any_bot = b.bots.iter().any(|&x| x);
    let all_bots = b.bots.iter().all(|&x| x);
    (a.accept_bots || !any_bot) && (!a.only_bots || all_bots)
}

/// Whether `a` and `b` may sit at one table as of `now`: each accepts the
/// other, and their ratings are within both windows.
fn compatible(a: &Entry, b: &Entry, now: u64) -> bool {
    let w = window(now.saturating_sub(a.created_ms)).min(window(now.saturating_sub(b.created_ms)));
    accepts(a, b) && accepts(b, a) && (a.rating - b.rating).abs() <= w
}

/// What a pass did to a pool.
#[derive(Debug, Default)]
pub struct Pass {
    /// Matches formed now.
    pub formed: Vec<Formed>,
    /// Tickets that expired.
    pub expired: Vec<Entry>,
}

/// A matching pass over `pool` as of `now`: expires tickets past their
/// life, then, oldest ticket first, gathers the compatible tickets nearest
/// its rating until the variant's seats are full; a group still short when
/// its oldest ticket's fill time has come is completed with house bots
/// (only tickets that accept bots join such a group). Formed matches are
/// appended to `pool.formed` under ids drawn from `new_id`.
///
/// # Errors
/// What `new_id` returns.
pub fn run_pass(
    pool: &mut PoolRecord,
    variant: Variant,
    now: u64,
    mut new_id: impl FnMut() -> Result<String, Error>,
) -> Result<Pass, Error> {
    let mut pass = Pass::default();
    let (expired, waiting): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut pool.waiting)
        .into_iter()
        .partition(|e| now >= e.expires_ms);
    pass.expired = expired;
    let seats = variant.table().seats as usize;
    let mut left: Vec<Option<Entry>> = waiting.into_iter().map(Some).collect();
    for i in 0..left.len() {
        let Some(anchor) = left[i].clone() else {
            continue;
        };
        let filling = anchor.fill_at_ms.is_some_and(|t| now >= t);
        let mut group = vec![i];
        let mut units = anchor.players.len();
        let mut candidates: Vec<usize> = (0..left.len())
            .filter(|&j| j != i)
            .filter(|&j| {
                left[j]
                    .as_ref()
                    .is_some_and(|e| compatible(&anchor, e, now) && (!filling || e.accept_bots))
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let d = |j: usize| {
                left[j]
                    .as_ref()
                    .map_or(f64::MAX, |e| (e.rating - anchor.rating).abs())
            };
            d(a).total_cmp(&d(b)).then(a.cmp(&b))
        });
        for j in candidates {
            if units == seats {
                break;
            }
            let Some(e) = left[j].as_ref() else { continue };
            if units + e.players.len() > seats
                || !group
                    .iter()
                    .all(|&g| left[g].as_ref().is_some_and(|x| compatible(x, e, now)))
            {
                continue;
            }
            units += e.players.len();
            group.push(j);
        }
        if units < seats && !filling {
            continue;
        }
        let entries: Vec<Entry> = group.iter().filter_map(|&g| left[g].take()).collect();
        pass.formed.push(Formed {
            match_id: new_id()?,
            seats: seat_group(variant, &entries),
        });
    }
    pool.waiting = left.into_iter().flatten().collect();
    pool.formed.extend(pass.formed.iter().cloned());
    Ok(pass)
}

/// Seats a group: a pair ticket's players opposite each other, single
/// players in the other seats (in the pairs game the strongest and the
/// weakest single players together), house bots in the seats left.
fn seat_group(variant: Variant, entries: &[Entry]) -> Vec<FormedSeat> {
    let layout = variant.table();
    let n = layout.seats as usize;
    let mut seats: Vec<Option<FormedSeat>> = vec![None; n];
    let mut singles: Vec<(&Entry, &String)> = Vec::new();
    for e in entries {
        if e.players.len() == 2 {
            let free = (0..n).find(|&s| {
                seats[s].is_none()
                    && layout
                        .partner(s as Seat)
                        .is_some_and(|p| seats[usize::from(p)].is_none())
            });
            if let Some(s) = free {
                let p = layout.partner(s as Seat).map_or(s, usize::from);
                for (at, player) in [(s, &e.players[0]), (p, &e.players[1])] {
                    seats[at] = Some(FormedSeat {
                        player: Some(player.clone()),
                        bot: None,
                        ticket: Some(e.ticket.clone()),
                    });
                }
                continue;
            }
        }
        singles.extend(e.players.iter().map(|p| (e, p)));
    }
    if layout.pairs && singles.len() == 4 {
        singles.sort_by(|a, b| b.0.rating.total_cmp(&a.0.rating));
        singles = vec![singles[0], singles[1], singles[3], singles[2]];
    }
    let rating = entries.iter().map(|e| e.rating).sum::<f64>() / entries.len().max(1) as f64;
    let bot = house_bot_near(rating);
    let mut singles = singles.into_iter();
    seats
        .into_iter()
        .map(|s| {
            s.unwrap_or_else(|| match singles.next() {
                Some((e, p)) => FormedSeat {
                    player: Some(p.clone()),
                    bot: None,
                    ticket: Some(e.ticket.clone()),
                },
                None => FormedSeat {
                    player: None,
                    bot: Some(bot.to_string()),
                    ticket: None,
                },
            })
        })
        .collect()
}

impl Lobby {
    /// Queues the player whose key is `key`.
    ///
    /// # Errors
    /// `Unauthorized`; `InvalidRequest` for a bad request;
    /// `PlayerNotFound` for a partner who is no registered player;
    /// `AlreadyQueued` when the player or its partner waits already;
    /// `Busy` after lost races.
    pub async fn enqueue(&self, key: &str, req: Enqueue) -> Result<TicketView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let layout = req.variant.table();
        if req.partner.is_some() && !layout.pairs {
            return Err(Error::InvalidRequest(
                "a partner is for the pairs game only".into(),
            ));
        }
        if req.only_bots && !req.accept_bots {
            return Err(Error::InvalidRequest("only_bots needs accept_bots".into()));
        }
        if req.fill_with_house_bots_after_s.is_some() && !req.accept_bots {
            return Err(Error::InvalidRequest(
                "filling with house bots needs accept_bots".into(),
            ));
        }
        if req
            .fill_with_house_bots_after_s
            .is_some_and(|s| s > MAX_EXPIRY_S)
        {
            return Err(Error::InvalidRequest(format!(
                "fill_with_house_bots_after_s is at most {MAX_EXPIRY_S}"
            )));
        }
        let life = req.expires_in_s.unwrap_or(DEFAULT_EXPIRY_S);
        if !(1..=MAX_EXPIRY_S).contains(&life) {
            return Err(Error::InvalidRequest(format!(
                "expires_in_s is between 1 and {MAX_EXPIRY_S}"
            )));
        }
        let pool_name = rating::pool(req.variant);
        let mut players = vec![me.clone()];
        if let Some(pid) = &req.partner {
            if *pid == me.id {
                return Err(Error::InvalidRequest(
                    "the partner is another player".into(),
                ));
            }
            if !records::valid_player_id(pid) {
                return Err(Error::InvalidRequest(
                    "partner is a player id: p and 24 lowercase hex digits".into(),
                ));
            }
            let partner = self.core.load_player(pid).await?.map(|(_, p)| p);
            let partner = partner.ok_or(Error::PlayerNotFound)?;
            players.push(partner);
        }
        let now = clock_now_ms();
        let id = format!("q{}", hex::encode(service::random_bytes::<12>()?));
        let rating = players
            .iter()
            .map(|p| p.rating_in(pool_name).rating)
            .sum::<f64>()
            / players.len() as f64;
        let ticket = TicketRecord {
            id: id.clone(),
            player: me.id.clone(),
            partner: req.partner.clone(),
            variant: req.variant,
            rated: req.rated,
            rating,
            status: TicketStatus::Waiting,
            match_id: None,
            seat: None,
            partner_seat: None,
            created_ms: now,
            expires_ms: now + life * 1000,
            finished_ms: None,
        };
        let store = self.store();
        store
            .insert(
                Doc::Ticket,
                &id,
                &records::encode(&ticket)?,
                Some(Duration::from_secs(life) + KEEP_FINISHED),
            )
            .await?;
        let mut claimed = Vec::new();
        for p in &players {
            match self.claim(&p.id, &id).await {
                Ok(()) => claimed.push(p.id.clone()),
                Err(e) => {
                    for c in &claimed {
                        self.release(c, &id).await;
                    }
                    self.finish_ticket(&id, TicketStatus::Cancelled, None)
                        .await?;
                    return Err(e);
                }
            }
        }
        let entry = Entry {
            ticket: id.clone(),
            players: players.iter().map(|p| p.id.clone()).collect(),
            bots: players.iter().map(|p| p.kind == PlayerKind::Bot).collect(),
            rating,
            accept_bots: req.accept_bots,
            only_bots: req.only_bots,
            fill_at_ms: req.fill_with_house_bots_after_s.map(|s| now + s * 1000),
            created_ms: now,
            expires_ms: ticket.expires_ms,
        };
        if let Err(e) = self
            .pool_write(req.variant, req.rated, |pool| {
                pool.waiting.push(entry.clone());
                true
            })
            .await
        {
            for c in &claimed {
                self.release(c, &id).await;
            }
            self.finish_ticket(&id, TicketStatus::Cancelled, None)
                .await?;
            return Err(e);
        }
        tracing::info!(ticket = %id, player = %me.id, variant = ?req.variant, rated = req.rated, "queued");
        self.view_ticket(&id).await
    }

    /// A ticket, as seen by its player or partner (`key`), waiting up to
    /// `wait_ms` for it to stop waiting.
    ///
    /// # Errors
    /// `Unauthorized`; `TicketNotFound`; `InvalidRequest` for a wait too long.
    pub async fn ticket(&self, key: &str, id: &str, wait_ms: u64) -> Result<TicketView, Error> {
        let limits = self.svc.limits();
        if wait_ms > limits.max_wait_ms {
            return Err(Error::InvalidRequest(format!(
                "wait_ms is at most {}",
                limits.max_wait_ms
            )));
        }
        let (_, me) = self.core.authenticate(key).await?;
        let t = self.own_ticket(&me.id, id).await?;
        let deadline = clock_now_ms() + wait_ms;
        let store = self.store();
        let (_, mut last) = store.events_after(&me.id, 0, 0).await?;
        loop {
            if t.status == TicketStatus::Waiting {
                self.pass(t.variant, t.rated).await?;
            }
            let view = self.view_ticket(id).await?;
            let now = clock_now_ms();
            if view.ticket.status != TicketStatus::Waiting || now >= deadline {
                return Ok(view);
            }
            let nap = (deadline - now).min(crate::lobby::HOUSEKEEPING_EVERY.as_millis() as u64);
            last = store
                .wait_events(&me.id, last, Duration::from_millis(nap))
                .await?;
        }
    }

    /// Leaves the queue.
    ///
    /// # Errors
    /// `Unauthorized`; `TicketNotFound`; `TicketMatched` once matched;
    /// `Busy` after lost races.
    pub async fn leave_queue(&self, key: &str, id: &str) -> Result<TicketView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let t = self.own_ticket(&me.id, id).await?;
        match t.status {
            TicketStatus::Matched => return Err(Error::TicketMatched),
            TicketStatus::Cancelled | TicketStatus::Expired => return self.view_ticket(id).await,
            TicketStatus::Waiting => {}
        }
        let mut removed = false;
        let mut formed = false;
        self.pool_write(t.variant, t.rated, |pool| {
            let before = pool.waiting.len();
            pool.waiting.retain(|e| e.ticket != id);
            removed = pool.waiting.len() < before;
            formed = pool
                .formed
                .iter()
                .any(|f| f.seats.iter().any(|s| s.ticket.as_deref() == Some(id)));
            removed
        })
        .await?;
        if formed {
            return Err(Error::TicketMatched);
        }
        if removed {
            self.finish_ticket(id, TicketStatus::Cancelled, None)
                .await?;
            for p in std::iter::once(&t.player).chain(t.partner.as_ref()) {
                self.release(p, id).await;
            }
            tracing::info!(ticket = %id, "left the queue");
        }
        let view = self.view_ticket(id).await?;
        if view.ticket.status == TicketStatus::Matched {
            return Err(Error::TicketMatched);
        }
        Ok(view)
    }

    /// A matching pass over one pool: forms what it can, then finishes
    /// every formed match the pool holds.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass(&self, variant: Variant, rated: bool) -> Result<(), Error> {
        self.pool_write(variant, rated, |_| false).await
    }

    /// One pass over every pool that has waiting tickets or unfinished
    /// matches (what each instance's lobby housekeeping runs).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass_all(&self) -> Result<(), Error> {
        for (variant, rated) in pools() {
            let snap = self
                .store()
                .get(Doc::QueuePool, &pool_id(variant, rated))
                .await?;
            if let Some(s) = snap {
                let pool: PoolRecord = records::decode(&s.state)?;
                if !pool.waiting.is_empty() || !pool.formed.is_empty() {
                    self.pass(variant, rated).await?;
                }
            }
        }
        Ok(())
    }

    /// Changes a pool with `change` (which says whether it changed
    /// anything), runs a matching pass in the same write, then finishes
    /// the pool's formed matches and expired tickets.
    async fn pool_write(
        &self,
        variant: Variant,
        rated: bool,
        mut change: impl FnMut(&mut PoolRecord) -> bool,
    ) -> Result<(), Error> {
        let store = self.store();
        let pid = pool_id(variant, rated);
        for attempt in 0..ATTEMPTS {
            let snap = store.get(Doc::QueuePool, &pid).await?;
            let mut pool: PoolRecord = match &snap {
                Some(s) => records::decode(&s.state)?,
                None => PoolRecord::default(),
            };
            let changed = change(&mut pool);
            let pass = run_pass(&mut pool, variant, clock_now_ms(), || {
                Ok(hex::encode(service::random_bytes::<12>()?))
            })?;
            let written = if changed || !pass.formed.is_empty() || !pass.expired.is_empty() {
                let state = records::encode(&pool)?;
                match &snap {
                    Some(s) => {
                        store
                            .replace(Doc::QueuePool, &pid, s.version, &state, None)
                            .await?
                    }
                    None => store.insert(Doc::QueuePool, &pid, &state, None).await?,
                }
            } else {
                true
            };
            if !written {
                if attempt > 4 {
                    let ms = 1 + u64::from(service::random_bytes::<1>()?[0]) % 8;
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                }
                continue;
            }
            for f in &pass.formed {
                tracing::info!(match_id = %f.match_id, pool = %pid, "queue formed a match");
            }
            for e in &pass.expired {
                self.finish_ticket(&e.ticket, TicketStatus::Expired, None)
                    .await?;
                for p in &e.players {
                    self.release(p, &e.ticket).await;
                }
            }
            for f in &pool.formed {
                self.finish_formed(variant, rated, f).await?;
            }
            return Ok(());
        }
        Err(Error::Busy(format!(
            "the queue changed under {ATTEMPTS} attempts in a row; nothing was done, retry"
        )))
    }

    /// Creates a formed match (once), marks its tickets matched, tells
    /// their players, and drops it from its pool.
    async fn finish_formed(&self, variant: Variant, rated: bool, f: &Formed) -> Result<(), Error> {
        let seats = f
            .seats
            .iter()
            .map(|s| match &s.player {
                Some(p) => NewSeat {
                    kind: SeatKind::Remote,
                    player: Some(p.clone()),
                    ..NewSeat::default()
                },
                None => NewSeat {
                    kind: SeatKind::Bot,
                    bot: s.bot.clone(),
                    ..NewSeat::default()
                },
            })
            .collect();
        let req = NewMatch {
            rules: rating::rated_rules(variant),
            seats: Some(seats),
            auto_deal: true,
            id: Some(f.match_id.clone()),
            rated,
            ..NewMatch::default()
        };
        let failed = match self.svc.create_at(req).await {
            Ok(_) => false,
            Err(Error::InvalidRequest(why)) => {
                tracing::warn!(match_id = %f.match_id, why, "queue match refused; its tickets are cancelled");
                true
            }
            Err(e) => return Err(e),
        };
        let mut tickets: Vec<&str> = f.seats.iter().filter_map(|s| s.ticket.as_deref()).collect();
        tickets.dedup();
        for t in tickets {
            let seats_of = |p: &str| {
                f.seats
                    .iter()
                    .position(|s| s.player.as_deref() == Some(p))
                    .map(|s| s as Seat)
            };
            let Some((_, rec)) = self.load_ticket(t).await? else {
                continue;
            };
            let outcome = if failed {
                TicketStatus::Cancelled
            } else {
                TicketStatus::Matched
            };
            let seat = seats_of(&rec.player);
            let partner_seat = rec.partner.as_deref().and_then(seats_of);
            let placed = (!failed).then(|| (f.match_id.clone(), seat, partner_seat));
            if self.finish_ticket(t, outcome, placed).await? && !failed {
                for (p, s) in [
                    (Some(&rec.player), seat),
                    (rec.partner.as_ref(), partner_seat),
                ] {
                    if let (Some(p), Some(s)) = (p, s) {
                        let event = PlayerEvent::QueueMatched {
                            ticket_id: t.to_string(),
                            match_id: f.match_id.clone(),
                            seat: s,
                        };
                        self.core.publish(p, &event).await;
                    }
                }
            }
            for p in std::iter::once(&rec.player).chain(rec.partner.as_ref()) {
                self.release(p, t).await;
            }
        }
        let store = self.store();
        let pid = pool_id(variant, rated);
        for _ in 0..ATTEMPTS {
            let Some(snap) = store.get(Doc::QueuePool, &pid).await? else {
                return Ok(());
            };
            let mut pool: PoolRecord = records::decode(&snap.state)?;
            let before = pool.formed.len();
            pool.formed.retain(|x| x.match_id != f.match_id);
            if pool.formed.len() == before
                || store
                    .replace(
                        Doc::QueuePool,
                        &pid,
                        snap.version,
                        &records::encode(&pool)?,
                        None,
                    )
                    .await?
            {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Moves a waiting ticket to `status`; `true` if this call did.
    async fn finish_ticket(
        &self,
        id: &str,
        status: TicketStatus,
        placed: Option<(String, Option<Seat>, Option<Seat>)>,
    ) -> Result<bool, Error> {
        let store = self.store();
        for _ in 0..ATTEMPTS {
            let Some((version, mut t)) = self.load_ticket(id).await? else {
                return Ok(false);
            };
            if t.status != TicketStatus::Waiting {
                return Ok(false);
            }
            t.status = status;
            t.finished_ms = Some(clock_now_ms());
            if let Some((m, seat, partner_seat)) = &placed {
                t.match_id = Some(m.clone());
                t.seat = *seat;
                t.partner_seat = *partner_seat;
            }
            if store
                .replace(
                    Doc::Ticket,
                    id,
                    version,
                    &records::encode(&t)?,
                    Some(KEEP_FINISHED),
                )
                .await?
            {
                return Ok(true);
            }
        }
        Err(Error::Busy(
            "the ticket changed under too many attempts; retry".into(),
        ))
    }

    /// Makes `ticket` the player's waiting ticket.
    ///
    /// # Errors
    /// `AlreadyQueued` when another ticket of the player still waits.
    async fn claim(&self, player: &str, ticket: &str) -> Result<(), Error> {
        let store = self.store();
        let state = records::encode(&QueuedRecord {
            ticket: Some(ticket.to_string()),
        })?;
        for _ in 0..ATTEMPTS {
            let Some(snap) = store.get(Doc::Queued, player).await? else {
                if store.insert(Doc::Queued, player, &state, None).await? {
                    return Ok(());
                }
                continue;
            };
            let q: QueuedRecord = records::decode(&snap.state)?;
            if let Some(other) = &q.ticket
                && let Some((_, t)) = self.load_ticket(other).await?
                && t.status == TicketStatus::Waiting
            {
                return Err(Error::AlreadyQueued(format!(
                    "player {player} waits in the queue already (ticket {other})"
                )));
            }
            if store
                .replace(Doc::Queued, player, snap.version, &state, None)
                .await?
            {
                return Ok(());
            }
        }
        Err(Error::Busy(
            "the queue changed under too many attempts; retry".into(),
        ))
    }

    /// Clears the player's waiting ticket if it is still `ticket`. A
    /// failure is logged: a stale entry names a ticket no longer waiting,
    /// which [`claim`](Self::claim) overwrites.
    async fn release(&self, player: &str, ticket: &str) {
        let store = self.store();
        for _ in 0..ATTEMPTS {
            let Ok(Some(snap)) = store.get(Doc::Queued, player).await else {
                return;
            };
            let Ok(q) = records::decode::<QueuedRecord>(&snap.state) else {
                return;
            };
            if q.ticket.as_deref() != Some(ticket) {
                return;
            }
            let Ok(state) = records::encode(&QueuedRecord::default()) else {
                return;
            };
            match store
                .replace(Doc::Queued, player, snap.version, &state, None)
                .await
            {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(player, error = %e, "queue entry not released");
                    return;
                }
            }
        }
    }

    async fn load_ticket(&self, id: &str) -> Result<Option<(u64, TicketRecord)>, Error> {
        match self.store().get(Doc::Ticket, id).await? {
            Some(s) => Ok(Some((s.version, records::decode(&s.state)?))),
            None => Ok(None),
        }
    }

    /// The ticket `id` if `player` queued with it (or is its partner).
    async fn own_ticket(&self, player: &str, id: &str) -> Result<TicketRecord, Error> {
        match self.load_ticket(id).await? {
            Some((_, t)) if t.player == player || t.partner.as_deref() == Some(player) => Ok(t),
            _ => Err(Error::TicketNotFound),
        }
    }

    async fn view_ticket(&self, id: &str) -> Result<TicketView, Error> {
        let (_, ticket) = self.load_ticket(id).await?.ok_or(Error::TicketNotFound)?;
        let now = clock_now_ms();
        let waited_ms = ticket
            .finished_ms
            .unwrap_or(now)
            .saturating_sub(ticket.created_ms);
        let (position, window) = if ticket.status == TicketStatus::Waiting {
            let pool = match self
                .store()
                .get(Doc::QueuePool, &pool_id(ticket.variant, ticket.rated))
                .await?
            {
                Some(s) => records::decode::<PoolRecord>(&s.state)?,
                None => PoolRecord::default(),
            };
            let w = window(waited_ms);
            (
                pool.waiting
                    .iter()
                    .position(|e| e.ticket == id)
                    .map(|p| p + 1),
                Some((ticket.rating - w, ticket.rating + w)),
            )
        } else {
            (None, None)
        };
        Ok(TicketView {
            created_at: rfc3339(ticket.created_ms),
            expires_at: rfc3339(ticket.expires_ms),
            ticket,
            position,
            waited_ms,
            window,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, players: &[&str], rating: f64, created_ms: u64) -> Entry {
        Entry {
            ticket: id.to_string(),
            players: players.iter().map(|p| p.to_string()).collect(),
            bots: vec![true; players.len()],
            rating,
            accept_bots: true,
            only_bots: false,
            fill_at_ms: None,
            created_ms,
            expires_ms: created_ms + 600_000,
        }
    }

    fn pass(pool: &mut PoolRecord, variant: Variant, now: u64) -> Pass {
        let mut n = 0;
        run_pass(pool, variant, now, || {
            n += 1;
            Ok(format!("m{n}"))
        })
        .unwrap()
    }

    fn players_of(f: &Formed) -> Vec<Option<String>> {
        f.seats.iter().map(|s| s.player.clone()).collect()
    }

    #[test]
    fn the_window_starts_at_100_and_widens_by_50_every_10_s_up_to_1000() {
        assert_eq!(window(0), 100.0);
        assert_eq!(window(9_999), 100.0);
        assert_eq!(window(10_000), 150.0);
        assert_eq!(window(60_000), 400.0);
        assert_eq!(window(10_000_000), WINDOW_MAX);
    }

    #[test]
    fn a_rating_outside_the_window_is_matched_once_the_window_has_widened() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("a", &["pa"], 1500.0, 0),
                entry("b", &["pb"], 1500.0, 0),
                entry("c", &["pc"], 1620.0, 0),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Abarrotada3, 5_000);
        assert!(p.formed.is_empty(), "120 points apart within ±100");
        assert_eq!(pool.waiting.len(), 3);
        let p = pass(&mut pool, Variant::Abarrotada3, 10_000);
        assert_eq!(p.formed.len(), 1, "±150 after 10 s");
        assert!(pool.waiting.is_empty());
        assert_eq!(pool.formed, p.formed);
    }

    #[test]
    fn the_nearest_ratings_are_grouped_and_the_rest_wait() {
        let mut pool = PoolRecord::default();
        for (i, r) in [1500.0, 1900.0, 1520.0, 1880.0, 1510.0, 1890.0]
            .into_iter()
            .enumerate()
        {
            let id = format!("t{i}");
            pool.waiting
                .push(entry(&id, &[&format!("p{i}")], r, i as u64));
        }
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 2);
        let mut first: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        first.sort();
        assert_eq!(first, ["p0", "p2", "p4"]);
        let mut second: Vec<_> = players_of(&p.formed[1]).into_iter().flatten().collect();
        second.sort();
        assert_eq!(second, ["p1", "p3", "p5"]);
    }

    #[test]
    fn a_pair_ticket_sits_opposite_and_single_players_fill_the_other_side() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("s1", &["x"], 1500.0, 0),
                entry("pair", &["a", "b"], 1500.0, 1),
                entry("s2", &["y"], 1500.0, 2),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Pairs, 10);
        assert_eq!(p.formed.len(), 1);
        let seats = players_of(&p.formed[0]);
        let at = |p: &str| seats.iter().position(|s| s.as_deref() == Some(p)).unwrap();
        assert_eq!((at("a") + 2) % 4, at("b"), "{seats:?}");
        assert_eq!((at("x") + 2) % 4, at("y"), "{seats:?}");
    }

    #[test]
    fn three_seats_of_four_wait_for_a_fourth() {
        let mut pool = PoolRecord {
            waiting: vec![
                entry("pair", &["a", "b"], 1500.0, 0),
                entry("s", &["x"], 1500.0, 1),
            ],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Pairs, 10).formed.is_empty());
        assert_eq!(pool.waiting.len(), 2);
    }

    #[test]
    fn bot_preferences_keep_tickets_apart() {
        let mut human = entry("h", &["h"], 1500.0, 0);
        human.bots = vec![false];
        let mut no_bots = entry("n", &["n"], 1500.0, 1);
        no_bots.bots = vec![false];
        no_bots.accept_bots = false;
        let mut only_bots = entry("o", &["o"], 1500.0, 2);
        only_bots.only_bots = true;
        let bot = entry("b", &["b"], 1500.0, 3);
        // `no_bots` refuses `only_bots` and `bot`; `only_bots` refuses the
        // humans: no three of the four can sit together.
        let mut pool = PoolRecord {
            waiting: vec![
                human.clone(),
                no_bots.clone(),
                only_bots.clone(),
                bot.clone(),
            ],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Abarrotada3, 10).formed.is_empty());
        // A second bot lets the bots (and only them) sit together.
        pool.waiting.push(entry("b2", &["b2"], 1500.0, 4));
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 1);
        let mut seated: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        seated.sort();
        assert_eq!(seated, ["b", "b2", "o"]);
        // Two more humans: the humans sit together, `no_bots` among them.
        let mut h2 = entry("h2", &["h2"], 1500.0, 5);
        h2.bots = vec![false];
        pool.waiting.push(h2);
        let p = pass(&mut pool, Variant::Abarrotada3, 10);
        assert_eq!(p.formed.len(), 1);
        let mut seated: Vec<_> = players_of(&p.formed[0]).into_iter().flatten().collect();
        seated.sort();
        assert_eq!(seated, ["h", "h2", "n"]);
    }

    #[test]
    fn after_its_fill_wait_a_ticket_is_completed_with_the_nearest_house_bot() {
        let mut lone = entry("l", &["l"], 1790.0, 0);
        lone.fill_at_ms = Some(5_000);
        let mut pool = PoolRecord {
            waiting: vec![lone],
            formed: Vec::new(),
        };
        assert!(pass(&mut pool, Variant::Pairs, 4_999).formed.is_empty());
        let p = pass(&mut pool, Variant::Pairs, 5_000);
        assert_eq!(p.formed.len(), 1);
        let bots: Vec<_> = p.formed[0]
            .seats
            .iter()
            .filter_map(|s| s.bot.clone())
            .collect();
        assert_eq!(bots, ["hard", "hard", "hard"]);
        assert_eq!(house_bot_near(1500.0), "medium");
        assert_eq!(house_bot_near(600.0), "random");
        assert_eq!(house_bot_near(1840.0), "expert");
    }

    #[test]
    fn a_ticket_past_its_life_expires_and_is_never_matched() {
        let mut old = entry("old", &["o"], 1500.0, 0);
        old.expires_ms = 1_000;
        let mut pool = PoolRecord {
            waiting: vec![
                old,
                entry("a", &["a"], 1500.0, 500),
                entry("b", &["b"], 1500.0, 500),
            ],
            formed: Vec::new(),
        };
        let p = pass(&mut pool, Variant::Abarrotada3, 1_000);
        assert_eq!(p.expired.len(), 1);
        assert_eq!(p.expired[0].ticket, "old");
        assert!(p.formed.is_empty());
        assert_eq!(pool.waiting.len(), 2);
    }
}
