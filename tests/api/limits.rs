//! Rate limits: a flood from one client is refused while another client's
//! requests still succeed; creating matches is limited per minute.

use std::net::{IpAddr, Ipv4Addr};

use botifarra::http::ServeOptions;
use botifarra::http::limit::RateLimits;
use reqwest::Client;
use serde_json::{Value, json};

use crate::app::{Backend, spawn_with, store_for};

fn limited(per_ip_per_sec: u32, creates_per_min: u32) -> ServeOptions {
    with_limits(per_ip_per_sec, 0, creates_per_min)
}

fn with_limits(per_ip_per_sec: u32, per_token_per_sec: u32, creates_per_min: u32) -> ServeOptions {
    ServeOptions {
        workers: Some(2),
        rate_limits: RateLimits {
            per_ip_per_sec,
            per_token_per_sec,
            creates_per_min,
            ..RateLimits::default()
        },
        cors_origins: vec!["*".into()],
        ..ServeOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_client_is_limited_while_another_client_still_succeeds() {
    let app = spawn_with(store_for(Backend::Memory, None).await, limited(20, 0)).await;
    let flooder = Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1)))
        .build()
        .unwrap();
    let other = Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)))
        .build()
        .unwrap();
    let url = format!("{}/healthz", app.base);
    let mut refused = None;
    for _ in 0..300 {
        let r = flooder.get(&url).send().await.unwrap();
        if r.status() == 429 {
            refused = Some(r);
            break;
        }
    }
    let r = refused.expect("the flood was never limited");
    let retry_after: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    assert_eq!(r.headers()["content-type"], "application/problem+json");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(body["status"], 429);
    assert_eq!(body["retry_after"], retry_after);
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("20 requests per second"),
        "{body}"
    );
    // The other client is not affected.
    for _ in 0..10 {
        assert_eq!(other.get(&url).send().await.unwrap().status(), 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_matches_is_limited_per_minute() {
    let app = spawn_with(store_for(Backend::Memory, None).await, limited(0, 3)).await;
    for _ in 0..3 {
        assert_eq!(app.post("/v1/matches", None, json!({})).await.status, 201);
    }
    let r = app.post("/v1/matches", None, json!({})).await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert_eq!(r.json["code"], "rate_limited");
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains("3 matches created per minute")
    );
    // Reading is not creating.
    assert_eq!(app.get("/healthz", None).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_on_another_origin_may_call_the_api() {
    let app = spawn_with(store_for(Backend::Memory, None).await, limited(0, 0)).await;
    let r = app
        .client
        .request(reqwest::Method::OPTIONS, format!("{}/v1/matches", app.base))
        .header("Origin", "https://cards.example")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, content-type",
        )
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "preflight refused: {}", r.status());
    assert!(r.headers().contains_key("access-control-allow-origin"));
}

/// One seat token flooding is limited (whatever the case of `Bearer`),
/// while another seat's token from the same address still succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_with_one_seat_token_is_limited_while_another_token_succeeds() {
    let app = spawn_with(store_for(Backend::Memory, None).await, with_limits(0, 5, 0)).await;
    let (id, tokens) = app.create(json!({})).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let url = format!("{}/v1/matches/{id}", app.base);
    let mut refused = None;
    for i in 0..200 {
        let scheme = if i % 2 == 0 { "Bearer" } else { "bearer" };
        let r = app
            .client
            .get(&url)
            .header("authorization", format!("{scheme} {t0}"))
            .send()
            .await
            .unwrap();
        if r.status() == 429 {
            refused = Some(r);
            break;
        }
    }
    let body: Value = refused
        .expect("the token flood was never limited")
        .json()
        .await
        .unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("per API key or seat token")),
        "{body}"
    );
    let other = app.get(&format!("/v1/matches/{id}"), Some(&t1)).await;
    assert_eq!(other.status, 200, "{}", other.text);
}
