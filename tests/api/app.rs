//! A real server on a free port, over either store, and a small client.

use std::net::TcpListener;
use std::sync::Arc;

use botifarra::http::ServeOptions;
use botifarra::http::limit::RateLimits;
use botifarra::lobby::Lobby;
use botifarra::lobby::store::MemoryLobbyStore;
use botifarra::service::{Limits, Service};
use botifarra::store::MatchStore;
use reqwest::{Client, Method, StatusCode};
use serde_json::Value;

pub use crate::backends::{Backend, store_for};

/// A running server and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The HTTP client.
    pub client: Client,
    handle: Option<actix_web::dev::ServerHandle>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            drop(h.stop(false));
        }
    }
}

/// Starts a server over `backend` on a free port.
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_with_store(store_for(backend, None).await).await
}

/// Starts a server over `store` on a free port, without rate limits.
pub async fn spawn_with_store(store: Arc<dyn MatchStore>) -> TestApp {
    spawn_with(store, unlimited()).await
}

/// Starts a server over `store` with these options.
pub async fn spawn_with(store: Arc<dyn MatchStore>, opts: ServeOptions) -> TestApp {
    spawn_full(store, opts, Limits::default(), None).await
}

/// Starts a server over `store` with these options and service limits,
/// serving `/metrics` only on `metrics_listener` when one is given.
pub async fn spawn_full(
    store: Arc<dyn MatchStore>,
    opts: ServeOptions,
    limits: Limits,
    metrics_listener: Option<TcpListener>,
) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let port = listener.local_addr().expect("local address").port();
    let svc = Service::new(store, limits).expect("start the service");
    let lobby = Lobby::new(svc, Arc::new(MemoryLobbyStore::new()));
    let server = botifarra::http::serve_split(listener, metrics_listener, lobby, opts)
        .expect("start the server");
    let handle = server.handle();
    tokio::spawn(server);
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        client: Client::new(),
        handle: Some(handle),
    }
}

/// Starts a server over `backend` for both matches and the lobby
/// (players, tables, player streams), without rate limits.
pub async fn spawn_lobby_app(backend: Backend) -> TestApp {
    spawn_lobby_with(backend, unlimited()).await
}

/// Starts a server over `backend` for matches and the lobby, with `opts`.
pub async fn spawn_lobby_with(backend: Backend, opts: ServeOptions) -> TestApp {
    spawn_service(lobby_for(backend).await, opts)
}

/// A match service and lobby over `backend` for both.
pub async fn lobby_for(backend: Backend) -> Lobby {
    lobby_over(backend, lobby_store_for(backend).await).await
}

/// The lobby's store on `backend`.
pub async fn lobby_store_for(backend: Backend) -> Arc<dyn botifarra::lobby::store::LobbyStore> {
    use botifarra::lobby::store::RedisLobbyStore;
    match backend {
        Backend::Redis => Arc::new(
            RedisLobbyStore::connect(&crate::backends::redis::redis_url())
                .await
                .expect("connect the lobby to the test Redis"),
        ),
        Backend::Cluster => Arc::new(
            RedisLobbyStore::connect_cluster(&crate::backends::cluster::cluster_urls())
                .await
                .expect("connect the lobby to the test Redis Cluster"),
        ),
        Backend::Memory => Arc::new(MemoryLobbyStore::new()),
    }
}

/// A lobby kept in `lobby_store`, over a match service on `backend`.
pub async fn lobby_over(
    backend: Backend,
    lobby_store: Arc<dyn botifarra::lobby::store::LobbyStore>,
) -> Lobby {
    let store = store_for(backend, None).await;
    let svc = Service::new(store, Limits::default()).expect("start the service");
    Lobby::new(svc, lobby_store)
}

/// Servers for a race: one on memory; two instances sharing the test
/// Redis (or the test Redis Cluster) otherwise.
pub async fn instances(backend: Backend) -> Vec<TestApp> {
    match backend {
        Backend::Memory => vec![spawn_lobby_app(backend).await],
        _ => vec![
            spawn_lobby_app(backend).await,
            spawn_lobby_app(backend).await,
        ],
    }
}

/// Starts a server over a lobby (and its match service) made by the caller.
pub fn spawn_service(lobby: Lobby, opts: ServeOptions) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let port = listener.local_addr().expect("local address").port();
    let server = botifarra::http::serve(listener, lobby, opts).expect("start the server");
    let handle = server.handle();
    tokio::spawn(server);
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        client: Client::new(),
        handle: Some(handle),
    }
}

/// Server options without rate limits (the other limits at their defaults).
pub fn unlimited() -> ServeOptions {
    ServeOptions {
        workers: Some(2),
        rate_limits: RateLimits {
            per_ip_per_sec: 0,
            per_token_per_sec: 0,
            per_match_per_sec: 0,
            creates_per_min: 0,
            hints_per_sec: 0,
            ..RateLimits::default()
        },
        ..ServeOptions::default()
    }
}

/// A response: status, headers of interest and the JSON body.
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status.
    pub status: StatusCode,
    /// The `Content-Type`.
    pub content_type: String,
    /// The raw body.
    pub text: String,
    /// The body as JSON (`Null` when it is not JSON).
    pub json: Value,
}

impl TestApp {
    /// A client for a server running elsewhere (another process).
    pub fn external(base: String) -> TestApp {
        TestApp {
            base,
            client: Client::new(),
            handle: None,
        }
    }

    /// Sends a request with an optional token, body and extra headers.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut req = self
            .client
            .request(method, format!("{}{}", self.base, path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        Self::reply(req).await
    }

    /// `POST path` with a raw body sent as JSON (malformed on purpose).
    pub async fn post_raw(&self, path: &str, body: &str) -> Reply {
        let req = self
            .client
            .post(format!("{}{}", self.base, path))
            .header("content-type", "application/json")
            .body(body.to_string());
        Self::reply(req).await
    }

    /// Sends `req` and reads the answer.
    async fn reply(req: reqwest::RequestBuilder) -> Reply {
        let resp = req.send().await.expect("the request reaches the server");
        let status = resp.status();
        let content_type = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let text = resp.text().await.unwrap_or_default();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            content_type,
            text,
            json,
        }
    }

    /// `GET path` with an optional token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.send(Method::GET, path, token, None, &[]).await
    }

    /// `POST path` with a token and a JSON body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.send(Method::POST, path, token, Some(body), &[]).await
    }

    /// Creates a match and returns (id, tokens by seat).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>) {
        let r = self.post("/v1/matches", None, body).await;
        assert_eq!(r.status, StatusCode::CREATED, "create failed: {}", r.text);
        let id = r.json["match_id"].as_str().expect("match_id").to_string();
        let seats = r.json["view"]["seats"].as_array().map_or(0, Vec::len);
        let mut tokens = vec![None; seats];
        for t in r.json["tokens"].as_array().expect("tokens") {
            let seat = t["seat"].as_u64().expect("seat") as usize;
            tokens[seat] = Some(t["token"].as_str().expect("token").to_string());
        }
        (id, tokens)
    }
}

impl TestApp {
    /// Plays `token`'s seat with its first legal action until the match is
    /// over (the other seats must be house bots), and checks that it is.
    pub async fn finish_match(&self, id: &str, token: &str) {
        let path = format!("/v1/matches/{id}");
        for _ in 0..1000 {
            let view = self.get(&path, Some(token)).await;
            if view.json["phase"] == "match_over" {
                return;
            }
            let action = view.json["legal_actions"][0].clone();
            let r = self
                .post(&format!("{path}/actions"), Some(token), action)
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        panic!("the match did not end");
    }
}

/// Every card code found anywhere in a JSON document (any string value that
/// parses as a card), with the JSON path where it was found.
pub fn card_strings(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) if s.len() <= 3 && s.parse::<botifarra::rules::Card>().is_ok() => {
            out.push((path.to_string(), s.to_uppercase()));
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                card_strings(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                card_strings(x, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}
