//! `GET /metrics` and the middleware that counts and times every request.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{HttpResponse, get};

use crate::service::metrics::{CONTENT_TYPE, metrics, render};

/// Metrics of this server process, in the Prometheus text format.
///
/// Requests by route pattern and status, latency by route, store round
/// trips, commit conflicts and store errors, matches created, actions
/// applied and house-bot decision time.
#[utoipa::path(
    tag = "health",
    responses((
        status = 200,
        description = "Prometheus text exposition format (version 0.0.4)",
        body = String,
        content_type = "text/plain"
    ))
)]
#[get("/metrics")]
pub async fn metrics_text() -> HttpResponse {
    HttpResponse::Ok().content_type(CONTENT_TYPE).body(render())
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

/// The middleware: counts each request by route pattern (`unmatched` when
/// no route matched), method and final status, and times it until the
/// response head is ready.
pub async fn track(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let start = Instant::now();
    let route = req
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_string());
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
