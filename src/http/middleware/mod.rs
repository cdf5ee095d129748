//! What every request goes through around its handler, whatever its
//! domain, and the request parts the handlers share:
//!
//! - [`limit`]: rate limits per client address and per token, announced
//!   on every answer, counted against the address of [`client_addr`], with
//!   the caps on open connections and event streams of [`open_limit`];
//! - [`extract`]: bearer tokens, action guards, JSON bodies read within a
//!   time and size limit;
//! - [`conditional`]: conditional reads, `ETag` and `If-None-Match`;
//! - [`redact`]: the request log, without the request's secrets;
//! - [`metrics`]: request counts and latencies, and the metrics address;
//! - [`allow`]: `405` with `Allow`, or `404`, for what no route takes;
//! - [`routed`]: the path and query as the router and the query extractor
//!   see them, the one form the limits, the log's redaction, the metrics'
//!   labels and `405` classify a request by.
//!
//! Imports: [`crate::http::problem`] for the refusals, and the service and
//! lobby for what they define (errors, metrics, token keys); no domain of
//! `http`, and nothing of `http::openapi`.

pub mod allow;
pub mod client_addr;
pub mod conditional;
pub mod extract;
pub mod limit;
pub mod metrics;
pub mod open_limit;
pub mod redact;
pub mod routed;
