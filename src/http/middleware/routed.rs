//! The request as the router sees it: the one form every limit, log
//! redaction, metrics label and `405` classifies a request by, so that a
//! request counts as one however its path or query is spelled.
//!
//! - The path as actix's router matches it: every percent-encoded byte
//!   decoded but `%`, `/` and `+` (actix-router's requoting), so
//!   `/v1/%69nvites/X` is `/v1/invites/X`, while `%2F` stays and splits no
//!   segment. The router does not merge slashes or fold case:
//!   `//v1/players` and `/V1/players` match no route.
//! - The query as the query extractor reads it (`serde_urlencoded`): pairs
//!   split at `&`, key and value at the first `=`, `+` and `%XX` decoded,
//!   so `?h%69nt=` names `hint` and `?hint%3Dx` does not.

use actix_web::HttpRequest;

/// The path as the router matches it (the whole path, whatever the scope).
pub fn path(req: &HttpRequest) -> &str {
    req.match_info().as_str()
}

/// The pattern of the resource the router's path falls under
/// (`/v1/matches/{id}`), whatever the method; `None` when none does.
pub fn pattern(req: &HttpRequest) -> Option<String> {
    req.resource_map().match_pattern(path(req))
}

/// Whether `query` has a parameter named `key`, as the query extractor
/// reads the names.
pub fn has_query_key(query: &str, key: &str) -> bool {
    query
        .split('&')
        .any(|pair| decoded(pair.split_once('=').map_or(pair, |(k, _)| k)) == key)
}

/// The value of the first parameter of `query` named `key`, both as the
/// query extractor reads them.
pub fn query_value(query: &str, key: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (decoded(k) == key).then(|| decoded(v))
    })
}

/// A query key or value as the query extractor reads it: `+` is a space,
/// `%XX` its byte (an incomplete or invalid escape stays as written), the
/// bytes read as UTF-8 with replacement characters.
pub fn decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_path_is_the_routers() {
        let req = TestRequest::with_uri("/v1/%69nvites/AB%2FCD/j%6Fin?h%69nt=x").to_http_request();
        assert_eq!(path(&req), "/v1/invites/AB%2FCD/join");
        let req = TestRequest::with_uri("/%76%31/pl%61yers%2B%25").to_http_request();
        assert_eq!(path(&req), "/v1/players%2B%25");
    }

    #[test]
    fn the_query_is_the_extractors() {
        for q in ["hint=x", "h%69nt=x", "%68int", "a=1&hint=", "hint=a%3Db"] {
            assert!(has_query_key(q, "hint"), "{q}");
        }
        for q in ["hint%3Dx", "xhint=x", "hint+=x", "hin=t", "", "a=hint"] {
            assert!(!has_query_key(q, "hint"), "{q}");
        }
        assert_eq!(
            query_value("a=1&%61ccess_token=t%2B+1&access_token=2", "access_token").as_deref(),
            Some("t+ 1")
        );
        assert_eq!(
            query_value("access_token", "access_token").as_deref(),
            Some("")
        );
        assert_eq!(query_value("access_token%3Dt", "access_token"), None);
        assert_eq!(decoded("a+b%20c%zz%4"), "a b c%zz%4");
        assert_eq!(decoded("%C3%A9%FF"), "é\u{fffd}");
    }
}
