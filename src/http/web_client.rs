//! The reference web client: a table to play, join and watch matches in a
//! browser, sign in as a player and play tournaments, built on the public
//! API only. Its files (`web/` in the
//! repository) are embedded in the binary, so the server needs nothing else
//! on disk; `BOTIFARRA_WEB_DIR=web` serves them from that folder instead,
//! to edit them without a rebuild. Every answer carries a strict
//! `Content-Security-Policy` (this origin only, no inline code) and an
//! `ETag`, so browsers revalidate rather than keep a stale client.

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{self, Path};
use actix_web::{HttpRequest, HttpResponse, guard};
use sha2::{Digest, Sha256};

use crate::http::middleware::conditional::IfNoneMatch;

/// What the pages may load and call: this origin only.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
    connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// One file of the client: its name under `/web/`, content type, bytes.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $type:literal) => {
        Asset {
            name: $name,
            content_type: $type,
            bytes: include_bytes!(concat!("../../web/", $name)),
        }
    };
}

/// Every file served; nothing else is (no paths from the request reach
/// the file system).
const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("app.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("api.js", "text/javascript; charset=utf-8"),
    asset!("cards.js", "text/javascript; charset=utf-8"),
    asset!("dom.js", "text/javascript; charset=utf-8"),
    asset!("i18n.js", "text/javascript; charset=utf-8"),
    asset!("table.js", "text/javascript; charset=utf-8"),
    asset!("replay.js", "text/javascript; charset=utf-8"),
    asset!("forms.js", "text/javascript; charset=utf-8"),
    asset!("player.js", "text/javascript; charset=utf-8"),
    asset!("tournaments.js", "text/javascript; charset=utf-8"),
    asset!("leaderboard.js", "text/javascript; charset=utf-8"),
    asset!("queue.js", "text/javascript; charset=utf-8"),
    asset!("challenges.js", "text/javascript; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// Registers `/` (the client's page) and `/web/{file}` (its assets). Not
/// part of the OpenAPI document: it is a client of the API, not the API.
pub fn routes(cfg: &mut web::ServiceConfig) {
    let get_or_head = || web::route().guard(guard::Any(guard::Get()).or(guard::Head()));
    cfg.route("/", get_or_head().to(index))
        .route("/web/{file}", get_or_head().to(file));
}

async fn index(req: HttpRequest) -> HttpResponse {
    serve(&req, "index.html")
}

async fn file(req: HttpRequest, name: Path<String>) -> HttpResponse {
    serve(&req, &name)
}

fn serve(req: &HttpRequest, name: &str) -> HttpResponse {
    let Some(asset) = ASSETS.iter().find(|a| a.name == name) else {
        return HttpResponse::NotFound().finish();
    };
    let bytes = match std::env::var_os("BOTIFARRA_WEB_DIR") {
        Some(dir) => match std::fs::read(std::path::Path::new(&dir).join(asset.name)) {
            Ok(b) => b,
            Err(_) => return HttpResponse::NotFound().finish(),
        },
        None => asset.bytes.to_vec(),
    };
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&bytes)[..12]));
    let fresh = IfNoneMatch::of(req).holds_tag(&etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, etag))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")));
    if fresh {
        return res.finish();
    }
    res.content_type(asset.content_type).body(bytes)
}

#[cfg(test)]
mod tests {
    use super::ASSETS;

    /// A file of `web/` left out of `ASSETS` would be a `404` for the
    /// browser, and one missing module stops the whole client.
    #[test]
    fn every_file_of_the_client_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(dir).expect("web/ is readable") {
            let name = entry.expect("an entry").file_name();
            let name = name.to_string_lossy();
            if !ASSETS.iter().any(|a| a.name == name) {
                missing.push(name.into_owned());
            }
        }
        assert!(missing.is_empty(), "not served: {missing:?}");
    }
}
