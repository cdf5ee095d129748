//! The client address a request is counted against.
//!
//! Behind proxies, each proxy appends the address it received the request
//! from to `X-Forwarded-For`; the client can write anything to the left of
//! that. So the address is read from the right: with `n` trusted proxies in
//! front of this server, the `n`-th entry from the right is the one the
//! outermost trusted proxy saw, and everything further left is the client's
//! own claim, ignored. Several `X-Forwarded-For` headers read as one list.
//!
//! An address is counted in one spelling, [`key`]'s: an IPv4-mapped IPv6
//! address (`::ffff:1.2.3.4`, as a dual-stack listener sees an IPv4
//! client) is its IPv4 address.

use std::net::IpAddr;

use actix_web::http::header::HeaderMap;

/// How `ip` is written wherever an address keys a bucket or a cap: its
/// canonical form (an IPv4-mapped IPv6 address as IPv4), so that one
/// address is one key whatever its spelling.
pub fn key(ip: IpAddr) -> String {
    ip.to_canonical().to_string()
}

/// The address of the client, as [`key`] writes it: the
/// `trusted_proxies`-th `X-Forwarded-For` entry from the right, or the
/// peer's address when no proxy is trusted, the header is missing, or the
/// entry there is not an address.
///
/// With fewer entries than trusted proxies, the leftmost entry is taken
/// (the request came through fewer proxies, and that entry was written by
/// one of them).
pub fn client_ip(headers: &HeaderMap, peer: Option<IpAddr>, trusted_proxies: usize) -> String {
    let peer = || peer.map_or_else(|| "unknown".to_string(), key);
    if trusted_proxies == 0 {
        return peer();
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let Some(first) = entries.first() else {
        return peer();
    };
    let chosen = entries
        .len()
        .checked_sub(trusted_proxies)
        .map_or(*first, |i| entries[i]);
    chosen.parse::<IpAddr>().map_or_else(|_| peer(), key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(
                HeaderName::from_static("x-forwarded-for"),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    const PEER: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 9)));

    #[test]
    fn the_address_is_taken_from_the_right_past_the_trusted_proxies() {
        let h = headers(&["6.6.6.6, 1.2.3.4"]);
        assert_eq!(client_ip(&h, PEER, 1), "1.2.3.4");
        assert_eq!(client_ip(&h, PEER, 2), "6.6.6.6");
        assert_eq!(client_ip(&h, PEER, 0), "10.0.0.9");
        // Two headers are one list, in order.
        let h = headers(&["6.6.6.6", "5.5.5.5, 1.2.3.4"]);
        assert_eq!(client_ip(&h, PEER, 1), "1.2.3.4");
        assert_eq!(client_ip(&h, PEER, 2), "5.5.5.5");
        // Fewer entries than proxies: the leftmost.
        assert_eq!(client_ip(&headers(&["1.2.3.4"]), PEER, 3), "1.2.3.4");
        // No header, or garbage where the proxy's entry should be: the peer.
        assert_eq!(client_ip(&HeaderMap::new(), PEER, 1), "10.0.0.9");
        assert_eq!(
            client_ip(&headers(&["1.2.3.4, nonsense"]), PEER, 1),
            "10.0.0.9"
        );
    }

    #[test]
    fn an_address_is_one_key_whatever_its_spelling() {
        for spelled in [
            "1.2.3.4",
            "::ffff:1.2.3.4",
            "::FFFF:102:304",
            "0:0:0:0:0:ffff:1.2.3.4",
        ] {
            assert_eq!(client_ip(&headers(&[spelled]), PEER, 1), "1.2.3.4");
        }
        let mapped_peer = Some("::ffff:10.0.0.9".parse().unwrap());
        assert_eq!(client_ip(&HeaderMap::new(), mapped_peer, 0), "10.0.0.9");
        // A real IPv6 address stays one, in its one spelling.
        let v6 = headers(&["2001:DB8:0:0::1"]);
        assert_eq!(client_ip(&v6, PEER, 1), "2001:db8::1");
    }
}
