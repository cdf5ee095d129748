//! The caps on open event streams (per client address, and per instance)
//! and the refusal of the players-per-address cap, with their metrics.

use super::Limiter;
use crate::http::middleware::open_limit::Slot;
use crate::http::problem::ApiError;
use crate::service::metrics::metrics;

impl Limiter {
    /// A stream slot for `req`'s client address and one of this
    /// instance's, held together while the stream lives.
    ///
    /// # Errors
    /// `RateLimited` when the address has as many streams open as allowed;
    /// `Busy` when the instance has.
    pub fn open_stream(&self, req: &actix_web::HttpRequest) -> Result<[Slot; 2], ApiError> {
        let ip = self.client_ip(req);
        let mine = self
            .streams
            .try_open(&ip, self.limits.streams_per_ip)
            .ok_or_else(|| {
                metrics().limit_hit("streams_per_ip");
                self.log_refusal("streams", &ip);
                ApiError::RateLimited {
                    retry_after: 15,
                    detail: format!(
                        "limit: {} open event streams per client address",
                        self.limits.streams_per_ip
                    ),
                }
            })?;
        // No address is spelled `*`: the instance's count has a key of its own.
        let all = self
            .streams
            .try_open("*", self.limits.streams_total)
            .ok_or_else(|| {
                metrics().limit_hit("streams_total");
                self.log_refusal("streams_total", &ip);
                ApiError::from(crate::service::Error::Busy(format!(
                    "limit: {} open event streams on this server; retry later",
                    self.limits.streams_total
                )))
            })?;
        Ok([mine, all])
    }

    /// Counts a registration refused by the players-per-address cap.
    pub fn players_per_day_refused(&self, ip: &str) -> ApiError {
        metrics().limit_hit("players_per_ip_per_day");
        self.log_refusal("players_per_ip_per_day", ip);
        ApiError::RateLimited {
            retry_after: crate::lobby::seconds_to_next_day(),
            detail: format!(
                "limit: {} players registered per client address per day",
                self.limits.players_per_ip_per_day
            ),
        }
    }
}
