//! What answers a request no route takes: `405 method_not_allowed` with
//! `Allow` when the path is a resource of this server (asked with a method
//! it does not take), `404 not_found` otherwise.
//!
//! The resources are read from the OpenAPI document (the same calls that
//! route build it), plus the pages the document does not describe (the web
//! client, Swagger UI and the document itself).

use actix_web::HttpRequest;
use actix_web::dev::ResourceDef;
use actix_web::web::Data;
use utoipa::openapi::OpenApi;

use super::routed;
use crate::http::problem::ApiError;

/// Resources outside the OpenAPI document, with the methods they take.
const PAGES: &[(&str, &str)] = &[
    ("/", "GET, HEAD"),
    ("/web/{file}", "GET, HEAD"),
    ("/swagger-ui/{_:.*}", "GET"),
    ("/api-docs/openapi.json", "GET"),
];

/// Every resource's path pattern and the methods it takes.
pub struct Resources(Vec<(ResourceDef, String)>);

impl Resources {
    /// The resources of `api` and [`PAGES`].
    pub fn new(api: &OpenApi) -> Resources {
        let mut all: Vec<(ResourceDef, String)> = api
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods: Vec<&str> = [
                    ("GET", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                ]
                .into_iter()
                .filter_map(|(m, has)| has.then_some(m))
                .collect();
                (ResourceDef::new(path.as_str()), methods.join(", "))
            })
            .collect();
        all.extend(
            PAGES
                .iter()
                .map(|(p, m)| (ResourceDef::new(*p), (*m).to_string())),
        );
        Resources(all)
    }

    /// The methods the resource at `path` takes, if there is one.
    pub fn allow(&self, path: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(def, _)| def.is_match(path))
            .map(|(_, allow)| allow.as_str())
    }
}

/// The default service: `405` with `Allow` for a known path (as the
/// router matches it), else `404`.
///
/// # Errors
/// Always: the refusal.
pub async fn refuse(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    let allow = req
        .app_data::<Data<Resources>>()
        .and_then(|r| r.allow(routed::path(&req)).map(str::to_string));
    let path = req.path().to_string();
    Err(match allow {
        Some(allow) => ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            path,
            allow,
        },
        None => ApiError::NotFound(path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_path_lists_its_methods_and_an_unknown_one_none() {
        let r = Resources::new(&crate::http::openapi());
        assert_eq!(r.allow("/v1/matches"), Some("POST"));
        assert_eq!(r.allow("/v1/matches/abc"), Some("GET"));
        assert_eq!(r.allow("/v1/matches/abc/actions"), Some("POST"));
        assert_eq!(r.allow("/web/app.js"), Some("GET, HEAD"));
        assert_eq!(r.allow("/v1/matches/abc/nothing"), None);
        assert_eq!(r.allow("/v2"), None);
    }
}
