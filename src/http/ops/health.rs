//! Liveness and readiness.

use actix_web::web::Data;
use actix_web::{HttpResponse, get};
use serde::Serialize;
use utoipa::ToSchema;

use crate::http::problem::{ApiError, Problem};
use crate::service::Service;

/// Health status.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `ready`.
    pub status: &'static str,
    /// The store kind: `memory`, `redis` or `redis-cluster`.
    pub store: &'static str,
}

/// Liveness: the process serves requests.
#[utoipa::path(tag = "health", responses((status = 200, description = "Alive", body = Health)))]
#[get("/healthz")]
pub async fn healthz(svc: Data<Service>) -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok",
        store: svc.store_kind(),
    })
}

/// Readiness: the store answers.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "The store is unavailable", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(svc: Data<Service>) -> Result<HttpResponse, ApiError> {
    svc.ready().await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ready",
        store: svc.store_kind(),
    }))
}
