//! The request metrics: the middleware that counts and times every
//! request, and the one that keeps `/metrics` on its own address when it
//! has one (who may read `/metrics` is [`MetricsAccess`]).

use std::net::SocketAddr;
use std::time::Instant;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web::Data;

use super::routed;
use crate::http::problem::{Lang, Problem};
use crate::service::metrics::metrics;

/// Who may read `/metrics`: with `token`, only a request bearing it; with
/// `addr`, only requests to that listening address (where nothing else is
/// served).
#[derive(Debug, Clone, Default)]
pub struct MetricsAccess {
    /// The bearer token required.
    pub token: Option<String>,
    /// The separate address `/metrics` is served on.
    pub addr: Option<SocketAddr>,
}

fn not_found(req: &ServiceRequest) -> Problem {
    let lang = Lang::from_headers(req.headers());
    Problem::localized(
        404,
        "not_found",
        &format!("no resource at {}", req.path()),
        lang,
    )
}

/// Refuses, on the metrics address, every path but `/metrics`; and
/// `/metrics` on any other address when it has its own.
pub async fn metrics_address_only(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    let own = req.app_data::<Data<MetricsAccess>>().and_then(|a| a.addr);
    if let Some(addr) = own {
        let on_metrics_addr = req.app_config().local_addr() == addr;
        if on_metrics_addr != (routed::path(req.request()) == "/metrics") {
            let res = not_found(&req).response();
            return Ok(req.into_response(res).map_into_right_body());
        }
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// The `method` label: the standard methods, anything else as `other`
/// (a client must not be able to grow the label set).
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// The middleware: counts each request by route pattern (of its path as
/// the router matches it; `unmatched` when no route matches), method and
/// final status, and times it until the response head is ready.
pub async fn track(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let start = Instant::now();
    let route = routed::pattern(req.request()).unwrap_or_else(|| "unmatched".to_string());
    let method = method_label(req.method());
    let res = next.call(req).await;
    let status = match &res {
        Ok(r) => r.status(),
        Err(e) => e.as_response_error().status_code(),
    };
    let m = metrics();
    m.http_requests
        .with_label_values(&[route.as_str(), method, status.as_str()])
        .inc();
    m.http_duration
        .with_label_values(&[route.as_str(), method])
        .observe(start.elapsed().as_secs_f64());
    res
}
