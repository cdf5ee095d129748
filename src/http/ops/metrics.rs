//! `GET /metrics`: the server's metrics in the Prometheus text format.

use actix_web::web::Data;
use actix_web::{HttpRequest, HttpResponse, get};
use subtle::ConstantTimeEq;

use crate::http::middleware::extract::bearer_token;
use crate::http::middleware::metrics::MetricsAccess;
use crate::http::problem::{ApiError, Problem};
use crate::service::Error;
use crate::service::metrics::{CONTENT_TYPE, render};

/// Metrics of this server process, in the Prometheus text format.
///
/// Requests by route pattern and status, latency by route, store round
/// trips, commit conflicts and store errors, matches created, actions
/// applied, house-bot decision time, rate-limited requests and other limits
/// reached. The server may require a bearer token (`--metrics-token`) or
/// serve this only on a separate address (`--metrics-bind`).
#[utoipa::path(
    tag = "health",
    security((), ("metrics_token" = [])),
    responses(
        (
            status = 200,
            description = "Prometheus text exposition format (version 0.0.4)",
            body = String,
            content_type = "text/plain"
        ),
        (status = 401, description = "The server requires a metrics token and this is not it", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/metrics")]
pub async fn metrics_text(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    if let Some(access) = req.app_data::<Data<MetricsAccess>>()
        && let Some(want) = &access.token
    {
        let given = bearer_token(req.headers()).flatten().unwrap_or("");
        if !bool::from(given.as_bytes().ct_eq(want.as_bytes())) {
            return Err(ApiError::from(Error::Unauthorized(
                "send the metrics token as `Authorization: Bearer <token>`".into(),
            )));
        }
    }
    Ok(HttpResponse::Ok().content_type(CONTENT_TYPE).body(render()))
}
