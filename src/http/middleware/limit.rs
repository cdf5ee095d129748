//! Rate limiting per client address, per credential and per match under a
//! credential (token buckets kept in this server instance's memory; which
//! buckets a request counts against is [`charges`]), and the per-address caps on open
//! connections and streams.
//!
//! Every answer announces the limits that applied to its request (see
//! [`fields`]).
//!
//! A refused request is counted in `botifarra_rate_limited_total` and
//! logged at most [`LOG_LINES_PER_SEC`] times a second, each line carrying
//! how many refusals went unlogged before it: a flood must not turn into a
//! flood of log lines.

mod charges;
pub mod fields;
mod streams;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web::Data;

use self::charges::Charge;
use self::fields::{Quota, announce};
use super::client_addr;
use super::open_limit::{ConnSlot, OpenCounts};
use crate::http::problem::{ApiError, Lang};
use crate::service::metrics::metrics;

/// Most log lines a second about refused requests.
pub const LOG_LINES_PER_SEC: u32 = 2;

/// Default requests per second per client address.
pub const PER_IP_PER_SEC: u32 = 1000;
/// Default requests per second per credential, all its matches together.
pub const PER_TOKEN_PER_SEC: u32 = 500;
/// Default requests per second per match per credential.
pub const PER_MATCH_PER_SEC: u32 = 100;

/// The limits; a rate or count of 0 switches that limit off.
#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Requests per second per client address (bursts of twice as many).
    pub per_ip_per_sec: u32,
    /// Requests per second per credential (an API key or a seat token),
    /// sent as `Authorization` or as `access_token` (bursts of twice as
    /// many): the budget of all of a bot's matches together.
    pub per_token_per_sec: u32,
    /// Requests per second per match per credential (bursts of twice as
    /// many), within the credential's; also the budget of its reads of
    /// `GET /v1/players/me/matches`, which the credential's bucket does
    /// not count.
    pub per_match_per_sec: u32,
    /// Matches a client address may create per minute.
    pub creates_per_min: u32,
    /// `GET …/legal-moves?hint=` requests per second per client address
    /// (bursts of twice as many): hints cost bot time.
    pub hints_per_sec: u32,
    /// Proxies in front of this server that append to `X-Forwarded-For`;
    /// 0 (the default) ignores the header (see [`client_addr`]).
    pub trusted_proxies: usize,
    /// Open connections per peer address (applies only when no proxy is
    /// trusted: behind proxies every connection comes from a proxy).
    pub connections_per_ip: usize,
    /// Open event streams per client address.
    pub streams_per_ip: usize,
    /// Requests under `/v1/invites/` per minute per client address (bursts
    /// of as many): invite codes must not be guessable by trying.
    pub invites_per_min: u32,
    /// Open event streams on this instance in all, whatever their address
    /// (past it `503 busy`).
    pub streams_total: usize,
    /// Players one client address may register per day (UTC), counted in
    /// the lobby's store so that it holds across instances (past it `429
    /// rate_limited` until the next day). Off by default here; the command
    /// line's default is 200.
    pub players_per_ip_per_day: u64,
    /// Players registered in all, counted in the lobby's store (past it
    /// `507 capacity_reached`). Off by default here; the command line's
    /// default is 1,000,000.
    pub max_players: u64,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits {
            per_ip_per_sec: PER_IP_PER_SEC,
            per_token_per_sec: PER_TOKEN_PER_SEC,
            per_match_per_sec: PER_MATCH_PER_SEC,
            creates_per_min: 600,
            hints_per_sec: 5,
            trusted_proxies: 0,
            connections_per_ip: 256,
            streams_per_ip: 32,
            invites_per_min: 20,
            streams_total: 4096,
            players_per_ip_per_day: 0,
            max_players: 0,
        }
    }
}

/// Log lines about refusals in the current second, and refusals not logged.
struct LogBudget {
    second: Instant,
    lines: u32,
    unlogged: u64,
}

struct Bucket {
    tokens: f64,
    at: Instant,
    /// When the bucket will be full again: from then on it is the same as
    /// no bucket at all, and may be swept.
    full_at: Instant,
}

/// The buckets, and the size at which full ones are next swept.
struct Buckets {
    map: HashMap<String, Bucket>,
    sweep_at: usize,
}

/// Token buckets by key.
pub struct Limiter {
    limits: RateLimits,
    buckets: Mutex<Buckets>,
    log: Mutex<LogBudget>,
    streams: Arc<OpenCounts>,
    connections: Arc<OpenCounts>,
}

/// Buckets kept before full ones are first swept.
const SWEEP_AT: usize = 100_000;

impl Limiter {
    /// A limiter with these limits.
    pub fn new(limits: RateLimits) -> Limiter {
        Limiter {
            limits,
            buckets: Mutex::new(Buckets {
                map: HashMap::new(),
                sweep_at: SWEEP_AT,
            }),
            log: Mutex::new(LogBudget {
                second: Instant::now(),
                lines: 0,
                unlogged: 0,
            }),
            streams: Arc::default(),
            connections: Arc::default(),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &RateLimits {
        &self.limits
    }

    /// The open-connection counts, for the server's `on_connect` hook.
    pub fn connections(&self) -> &Arc<OpenCounts> {
        &self.connections
    }

    /// The address `req` is counted against.
    pub fn client_ip(&self, req: &actix_web::HttpRequest) -> String {
        client_addr::client_ip(
            req.headers(),
            req.peer_addr().map(|a| a.ip()),
            self.limits.trusted_proxies,
        )
    }

    /// Logs a refusal unless this second's lines are spent.
    fn log_refusal(&self, limit: &str, ip: &str) {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if now.duration_since(log.second) >= Duration::from_secs(1) {
            log.second = now;
            log.lines = 0;
        }
        if log.lines >= LOG_LINES_PER_SEC {
            log.unlogged += 1;
            return;
        }
        log.lines += 1;
        let unlogged = std::mem::take(&mut log.unlogged);
        drop(log);
        tracing::warn!(
            limit,
            client = ip,
            unlogged,
            "request refused by a limit (sampled)"
        );
    }

    /// Takes one token from `key`'s bucket (refilled at `rate` per `per`
    /// seconds, holding `burst`): the requests left and the seconds until
    /// the bucket is full; on refusal, the seconds until one is back.
    fn take(&self, key: String, rate: u32, per: f64, burst: f64) -> Result<(u64, u64), u64> {
        if rate == 0 {
            return Ok((0, 0));
        }
        let per_sec = f64::from(rate) / per;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.map.len() >= buckets.sweep_at {
            // Each bucket by its own rate: only full ones go. The next sweep
            // waits until the map has doubled, so that a map of busy buckets
            // is not scanned on every request.
            buckets.map.retain(|_, b| b.full_at > now);
            buckets.sweep_at = (buckets.map.len() * 2).max(SWEEP_AT);
        }
        let b = buckets.map.entry(key).or_insert(Bucket {
            tokens: burst,
            at: now,
            full_at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * per_sec).min(burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            let to_full = (burst - b.tokens) / per_sec;
            b.full_at = now + Duration::from_secs_f64(to_full);
            Ok((b.tokens.floor() as u64, to_full.ceil() as u64))
        } else {
            Err(((1.0 - b.tokens) / per_sec).ceil().max(1.0) as u64)
        }
    }

    /// Takes a token from every bucket the request counts against: the
    /// state of each, or the refusal with the state of those checked.
    fn check(&self, req: &ServiceRequest) -> Result<Vec<Quota>, (ApiError, Vec<Quota>)> {
        if let Some(refusal) = self.connection_refusal(req) {
            return Err((refusal, Vec::new()));
        }
        let ip = self.client_ip(req.request());
        let mut quotas = Vec::new();
        for charge in charges::charges(&self.limits, req, &ip) {
            if charge.rate == 0 {
                continue;
            }
            match self.charge(charge, &ip) {
                Ok(quota) => quotas.push(quota),
                Err((refusal, quota)) => {
                    quotas.push(quota);
                    return Err((refusal, quotas));
                }
            }
        }
        Ok(quotas)
    }

    /// The refusal of every request on a connection that was over its
    /// address's cap when it opened (only when no proxy is trusted: behind
    /// proxies every connection comes from a proxy).
    fn connection_refusal(&self, req: &ServiceRequest) -> Option<ApiError> {
        let l = &self.limits;
        if l.trusted_proxies != 0 || !matches!(req.conn_data::<ConnSlot>(), Some(ConnSlot::Over)) {
            return None;
        }
        metrics().limit_hit("connections_per_ip");
        let ip = self.client_ip(req.request());
        self.log_refusal("connections", &ip);
        Some(ApiError::RateLimited {
            retry_after: 1,
            detail: format!(
                "limit: {} open connections per client address",
                l.connections_per_ip
            ),
        })
    }

    /// Takes a token from the bucket of `c`: the bucket's state, or the
    /// refusal with that state (counted, and logged as `ip`'s).
    fn charge(&self, c: Charge, ip: &str) -> Result<Quota, (ApiError, Quota)> {
        let size = f64::from(c.rate) * c.burst;
        let mut quota = Quota {
            name: c.label,
            quota: size as u64,
            window: (size * c.per / f64::from(c.rate)).ceil() as u64,
            remaining: 0,
            reset: 0,
        };
        match self.take(c.key, c.rate, c.per, size) {
            Ok((remaining, reset)) => {
                quota.remaining = remaining;
                quota.reset = reset;
                Ok(quota)
            }
            Err(retry_after) => {
                metrics().rate_limited.with_label_values(&[c.label]).inc();
                self.log_refusal(c.label, ip);
                quota.reset = retry_after;
                let refusal = ApiError::RateLimited {
                    retry_after,
                    detail: format!("limit: {} {}", c.rate, c.what),
                };
                Err((refusal, quota))
            }
        }
    }
}

/// The middleware: refuses with `429 rate_limited` past a limit, and
/// announces the limits on every answer. The refusal is answered here, as
/// a plain response rather than an error, so that the request logger does
/// not write a line for each one; the connection of a client over its
/// connection cap is closed.
pub async fn rate_limit(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    let Some(limiter) = req.app_data::<Data<Limiter>>().cloned() else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    match limiter.check(&req) {
        Err((e, quotas)) => {
            let mut res = e.response_in(Lang::from_headers(req.headers()));
            announce(res.headers_mut(), &quotas);
            if matches!(req.conn_data::<ConnSlot>(), Some(ConnSlot::Over)) {
                res.head_mut()
                    .set_connection_type(actix_web::http::ConnectionType::Close);
            }
            Ok(req.into_response(res).map_into_right_body())
        }
        Ok(quotas) => {
            let mut res = next.call(req).await?;
            announce(res.headers_mut(), &quotas);
            Ok(res.map_into_left_body())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sweep keeps a bucket that is still refilling, whatever the rate of
    /// the request that triggers it, and drops full ones.
    #[test]
    fn a_sweep_drops_only_full_buckets() {
        let limiter = Limiter::new(RateLimits {
            per_ip_per_sec: 1,
            per_token_per_sec: 1,
            creates_per_min: 1,
            ..RateLimits::default()
        });
        limiter.buckets.lock().unwrap().sweep_at = 2;
        // One creation per minute: the bucket is empty for a minute.
        assert_eq!(limiter.take("create:a".into(), 1, 60.0, 1.0), Ok((0, 60)));
        // A fast bucket (a million per second) is full again at once.
        assert!(limiter.take("ip:a".into(), 1_000_000, 1.0, 2.0).is_ok());
        std::thread::sleep(Duration::from_millis(5));
        // This request sweeps: the full fast bucket goes, the creation stays.
        assert!(limiter.take("ip:b".into(), 1_000_000, 1.0, 2.0).is_ok());
        {
            let buckets = limiter.buckets.lock().unwrap();
            assert!(buckets.map.contains_key("create:a"));
            assert!(!buckets.map.contains_key("ip:a"));
            assert!(buckets.sweep_at >= SWEEP_AT);
        }
        assert!(limiter.take("create:a".into(), 1, 60.0, 1.0).is_err());
    }
}
