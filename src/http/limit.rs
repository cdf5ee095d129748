//! Rate limiting per client address and per seat token (token buckets kept
//! in this server instance's memory).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web::Data;

use super::error::ApiError;
use super::extract::bearer_token;
use crate::service::Error;

/// The limits; a rate of 0 switches that limit off.
#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Requests per second per client address (bursts of twice as many).
    pub per_ip_per_sec: u32,
    /// Requests per second per seat token (bursts of twice as many).
    pub per_token_per_sec: u32,
    /// Matches a client address may create per minute.
    pub creates_per_min: u32,
    /// Take the client address from `X-Forwarded-For` (behind a trusted proxy).
    pub trust_forwarded_for: bool,
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
        }
    }

    /// Takes one token from `key`'s bucket (refilled at `rate` per `per`
    /// seconds, holding `burst`); on refusal, the seconds until one is back.
    fn take(&self, key: String, rate: u32, per: f64, burst: f64) -> Result<(), u64> {
        if rate == 0 {
            return Ok(());
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
            b.full_at = now + Duration::from_secs_f64((burst - b.tokens) / per_sec);
            Ok(())
        } else {
            Err(((1.0 - b.tokens) / per_sec).ceil().max(1.0) as u64)
        }
    }

    fn check(&self, req: &ServiceRequest) -> Result<(), Error> {
        let l = &self.limits;
        let ip = client_ip(req, l.trust_forwarded_for);
        let token = bearer_token(req.headers()).flatten();
        let creates = req.method() == actix_web::http::Method::POST && req.path() == "/v1/matches";
        // (bucket, rate, per seconds, burst, what is counted): bursts of
        // twice the rate per second, of the rate per minute.
        let checks = [
            Some((
                format!("ip:{ip}"),
                l.per_ip_per_sec,
                1.0,
                2.0,
                "requests per second per client address",
            )),
            token.map(|t| {
                (
                    format!("tok:{}", crate::service::token_key(t)),
                    l.per_token_per_sec,
                    1.0,
                    2.0,
                    "requests per second per seat token",
                )
            }),
            creates.then(|| {
                (
                    format!("create:{ip}"),
                    l.creates_per_min,
                    60.0,
                    1.0,
                    "matches created per minute per client address",
                )
            }),
        ];
        for (key, rate, per, burst, what) in checks.into_iter().flatten() {
            self.take(key, rate, per, f64::from(rate) * burst)
                .map_err(|retry_after| Error::RateLimited {
                    retry_after,
                    detail: format!("limit: {rate} {what}"),
                })?;
        }
        Ok(())
    }
}

fn client_ip(req: &ServiceRequest, trust_forwarded_for: bool) -> String {
    if trust_forwarded_for
        && let Some(first) = req
            .headers()
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .and_then(|s| s.trim().parse::<IpAddr>().ok())
    {
        return first.to_string();
    }
    req.peer_addr()
        .map_or_else(|| "unknown".to_string(), |a| a.ip().to_string())
}

/// The middleware: refuses with `429 rate_limited` past a limit.
pub async fn rate_limit(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    if let Some(limiter) = req.app_data::<Data<Limiter>>()
        && let Err(e) = limiter.check(&req)
    {
        return Err(ApiError(e).into());
    }
    next.call(req).await
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
            trust_forwarded_for: false,
        });
        limiter.buckets.lock().unwrap().sweep_at = 2;
        // One creation per minute: the bucket is empty for a minute.
        assert_eq!(limiter.take("create:a".into(), 1, 60.0, 1.0), Ok(()));
        // A fast bucket (a million per second) is full again at once.
        assert_eq!(limiter.take("ip:a".into(), 1_000_000, 1.0, 2.0), Ok(()));
        std::thread::sleep(Duration::from_millis(5));
        // This request sweeps: the full fast bucket goes, the creation stays.
        assert_eq!(limiter.take("ip:b".into(), 1_000_000, 1.0, 2.0), Ok(()));
        {
            let buckets = limiter.buckets.lock().unwrap();
            assert!(buckets.map.contains_key("create:a"));
            assert!(!buckets.map.contains_key("ip:a"));
            assert!(buckets.sweep_at >= SWEEP_AT);
        }
        assert!(limiter.take("create:a".into(), 1, 60.0, 1.0).is_err());
    }
}
