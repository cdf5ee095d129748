//! The server: the application (routes, middleware, error handlers, the
//! web client and Swagger UI) and the listeners it runs on.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::ErrorHandlers;
use actix_web::web::{self, Data};
use actix_web::{App, HttpServer};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use super::middleware::{allow, extract, limit, metrics, open_limit, redact};
use super::openapi::openapi;
use super::problem::{invalid, problem_for_any_error};
use super::routes::routes;
use super::web_client;
use crate::lobby::Lobby;
use crate::service::Service;

/// How a server instance runs: workers, rate limits, CORS.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Worker threads (default: one per core).
    pub workers: Option<usize>,
    /// Rate limits.
    pub rate_limits: limit::RateLimits,
    /// Origins allowed to call from a browser: `*` for any (the default when
    /// empty), else exact origins such as `https://play.example`.
    pub cors_origins: Vec<String>,
    /// How long a client may take to send a request's head (line and
    /// headers); past it the connection is closed.
    pub header_timeout: Duration,
    /// How long a client may take to send a request body; past it the
    /// request is refused with `408 request_timeout` and the connection
    /// closed.
    pub body_timeout: Duration,
    /// A bearer token `/metrics` requires (none: `/metrics` is open).
    pub metrics_token: Option<String>,
    /// How the scheduler of due work (bots, deals, clocks) runs.
    pub scheduler: crate::service::SchedulerOptions,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            workers: None,
            rate_limits: limit::RateLimits::default(),
            cors_origins: Vec::new(),
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            metrics_token: None,
            scheduler: crate::service::SchedulerOptions::default(),
        }
    }
}

fn cors(origins: &[String]) -> actix_cors::Cors {
    let base = actix_cors::Cors::default()
        .allow_any_method()
        .allow_any_header()
        .expose_headers([
            "Retry-After",
            "Location",
            "ETag",
            "Allow",
            "RateLimit",
            "RateLimit-Policy",
        ])
        .max_age(3600);
    if origins.is_empty() || origins.iter().any(|o| o == "*") {
        return base.allow_any_origin();
    }
    origins.iter().fold(base, |c, o| c.allowed_origin(o))
}

/// What every worker's application is built from: the state its handlers
/// and middleware read, its CORS origins and body timeout, and the
/// document Swagger UI serves (built once by [`openapi`]).
#[derive(Clone)]
struct Shared {
    svc: Data<Service>,
    lobby: Data<Lobby>,
    limiter: Data<limit::Limiter>,
    access: Data<metrics::MetricsAccess>,
    resources: Data<allow::Resources>,
    cors_origins: Vec<String>,
    body_timeout: Duration,
    api: utoipa::openapi::OpenApi,
}

/// The application: routes, extractor error handlers, size limits, rate
/// limits, CORS, request metrics, Swagger UI serving the document, and
/// `405`/`404` for what no route takes.
fn app(
    shared: Shared,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let Shared {
        svc,
        lobby,
        limiter,
        access,
        resources,
        cors_origins,
        body_timeout,
        api,
    } = shared;
    App::new()
        .into_utoipa_app()
        .app_data(svc)
        .app_data(lobby)
        .app_data(limiter)
        .app_data(access)
        .app_data(resources)
        .app_data(extract::BodyTimeout(body_timeout))
        .app_data(web::PayloadConfig::new(extract::MAX_BODY_BYTES))
        .app_data(
            web::QueryConfig::default()
                .error_handler(|e, _| invalid(format!("invalid query: {e}"))),
        )
        .app_data(
            web::PathConfig::default().error_handler(|e, _| invalid(format!("invalid path: {e}"))),
        )
        .configure(routes)
        .into_app()
        .configure(web_client::routes)
        .service(
            SwaggerUi::new("/swagger-ui/{_:.*}")
                .url("/api-docs/openapi.json", api)
                // Keep the seat token entered under "Authorize" across reloads.
                .config(utoipa_swagger_ui::Config::default().persist_authorization(true)),
        )
        .default_service(web::to(allow::refuse))
        .wrap(actix_web::middleware::from_fn(limit::rate_limit))
        .wrap(actix_web::middleware::from_fn(
            metrics::metrics_address_only,
        ))
        .wrap(ErrorHandlers::new().default_handler(problem_for_any_error))
        .wrap(cors(&cors_origins))
        .wrap(actix_web::middleware::from_fn(metrics::track))
        .wrap(tracing_actix_web::TracingLogger::<redact::RedactedRootSpan>::new())
}

/// Starts serving `lobby` and its match service on `listener` (bind port 0 in tests and read the port
/// from the listener). Stops gracefully on SIGTERM/SIGINT.
///
/// # Errors
/// When the listener cannot be used.
pub fn serve(listener: TcpListener, lobby: Lobby, opts: ServeOptions) -> std::io::Result<Server> {
    serve_split(listener, None, lobby, opts)
}

/// Like [`serve`], with `/metrics` served only on `metrics_listener` when
/// one is given (and nothing else served there).
///
/// # Errors
/// When a listener cannot be used.
pub fn serve_split(
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    lobby: Lobby,
    opts: ServeOptions,
) -> std::io::Result<Server> {
    if opts.scheduler.enabled {
        crate::lobby::spawn_housekeeping(&lobby);
    }
    crate::service::spawn_scheduler(lobby.service(), opts.scheduler);
    let data = Data::from(Arc::clone(lobby.service()));
    let lobby = Data::new(lobby);
    let limiter = Data::new(limit::Limiter::new(opts.rate_limits.clone()));
    let access = Data::new(metrics::MetricsAccess {
        token: opts.metrics_token.clone(),
        addr: metrics_listener
            .as_ref()
            .map(TcpListener::local_addr)
            .transpose()?,
    });
    let counts = Arc::clone(limiter.connections());
    let per_ip = opts.rate_limits.connections_per_ip;
    let api = openapi();
    let shared = Shared {
        svc: data,
        lobby,
        limiter,
        access,
        resources: Data::new(allow::Resources::new(&api)),
        cors_origins: opts.cors_origins.clone(),
        body_timeout: opts.body_timeout,
        api,
    };
    let mut server = HttpServer::new(move || app(shared.clone()))
        .on_connect(move |conn, ext| open_limit::on_connect(&counts, per_ip, conn, ext))
        .client_request_timeout(opts.header_timeout)
        .client_disconnect_timeout(Duration::from_secs(1))
        .keep_alive(Duration::from_secs(5))
        .listen(listener)?;
    if let Some(m) = metrics_listener {
        server = server.listen(m)?;
    }
    if let Some(w) = opts.workers {
        server = server.workers(w);
    }
    Ok(server.shutdown_timeout(10).run())
}
