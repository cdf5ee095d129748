//! The rate-limit fields every answer carries: the limits that applied to
//! its request, in the `RateLimit-Policy` and `RateLimit` fields of the
//! IETF httpapi draft *RateLimit header fields for HTTP*: one item per
//! bucket (`ip`, `token`,
//! `create`, `hint`), the policy with its quota `q` (the bucket's size) and
//! window `w` (seconds to refill it from empty), the service limit with
//! the requests `r` available now and the seconds `t` until the bucket is
//! full again (on a `429`, `r=0` and `t` the `Retry-After`).

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};

/// One bucket's policy and state, for the `RateLimit-Policy` and
/// `RateLimit` fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// The policy's name: `ip`, `token`, `create` or `hint`.
    pub name: &'static str,
    /// The bucket's size, in requests.
    pub quota: u64,
    /// Seconds to refill the bucket from empty.
    pub window: u64,
    /// Requests available now.
    pub remaining: u64,
    /// Seconds until the bucket is full again (on refusal, until the next
    /// request is allowed).
    pub reset: u64,
}

/// The `RateLimit-Policy` and `RateLimit` values of `quotas` (none when
/// no limit applied).
pub fn headers(quotas: &[Quota]) -> Option<(String, String)> {
    if quotas.is_empty() {
        return None;
    }
    let policy = quotas
        .iter()
        .map(|q| format!("\"{}\";q={};w={}", q.name, q.quota, q.window))
        .collect::<Vec<_>>()
        .join(", ");
    let state = quotas
        .iter()
        .map(|q| format!("\"{}\";r={};t={}", q.name, q.remaining, q.reset))
        .collect::<Vec<_>>()
        .join(", ");
    Some((policy, state))
}

/// Adds the `RateLimit-Policy` and `RateLimit` fields of `quotas`.
pub fn announce(map: &mut HeaderMap, quotas: &[Quota]) {
    if let Some((policy, state)) = headers(quotas)
        && let (Ok(policy), Ok(state)) = (
            HeaderValue::from_str(&policy),
            HeaderValue::from_str(&state),
        )
    {
        map.insert(HeaderName::from_static("ratelimit-policy"), policy);
        map.insert(HeaderName::from_static("ratelimit"), state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_follow_the_draft_syntax() {
        let q = |name, remaining, reset| Quota {
            name,
            quota: 10,
            window: 2,
            remaining,
            reset,
        };
        assert_eq!(headers(&[]), None);
        assert_eq!(
            headers(&[q("ip", 9, 1), q("token", 0, 3)]),
            Some((
                "\"ip\";q=10;w=2, \"token\";q=10;w=2".to_string(),
                "\"ip\";r=9;t=1, \"token\";r=0;t=3".to_string()
            ))
        );
    }
}
