//! Redis Cluster beyond the store contract: a long poll on one server
//! instance woken by an action on another (sharded pub/sub), and a cluster
//! node's restart (503s while it is down, nothing lost).

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use botifarra::service::{Act, ActRequest, Error, Limits, NewMatch, Service};
use botifarra::store::{MatchStore, RedisStore};
use serde_json::Value;

use crate::backends::cluster::{Cluster, cluster_urls};

const TTL: Duration = Duration::from_secs(3600);

/// Guards against a hang only; the assertions never depend on durations.
async fn bounded<T>(what: &str, op: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), op)
        .await
        .unwrap_or_else(|_| panic!("{what} hung"))
}

/// A service on the cluster of `urls` whose long polls re-read only once a
/// minute: a prompt wake-up can only come from a notification.
async fn instance(urls: &[String]) -> Service {
    let store = RedisStore::connect_cluster(urls, TTL)
        .await
        .expect("connect to the test Redis Cluster")
        .with_recheck_interval(Duration::from_secs(60));
    Service::new(Arc::new(store), Limits::default()).unwrap()
}

async fn first_legal(svc: &Service, id: &str, token: &str) -> ActRequest {
    let view = serde_json::to_value(svc.view(id, Some(token)).await.unwrap()).unwrap();
    let action: Value = view["legal_actions"][0].clone();
    ActRequest {
        act: Act::Action(serde_json::from_value(action).expect("a legal action")),
        seat: None,
        expected_version: None,
        idempotency_key: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_a_long_poll_on_one_instance_wakes_for_an_action_on_another() {
    let urls = cluster_urls();
    let (a, b) = (instance(&urls).await, instance(&urls).await);
    let created = a.create(NewMatch::default()).await.unwrap();
    let id = created.match_id.clone();
    let token = created.tokens[0].token.clone();
    let last = b.events(&id, None, 0, 0, 100).await.unwrap().last_seq;
    // A waits up to 30 s for an event after `last`; B deals meanwhile.
    let poll = {
        let id = id.clone();
        tokio::spawn(async move { a.events(&id, None, last, 30_000, 100).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let dealer = created.view.game.turn.expect("a seat to deal");
    let dealer_token = &created
        .tokens
        .iter()
        .find(|t| t.seat == dealer)
        .unwrap()
        .token;
    let deal = first_legal(&b, &id, dealer_token).await;
    b.act(&id, Some(dealer_token), deal).await.unwrap();
    let page = bounded("the long poll", poll).await.unwrap().unwrap();
    assert!(
        !page.events.is_empty(),
        "the poll returned without the new events (not woken)"
    );
    assert_eq!(page.events[0].seq, last + 1);
    assert_eq!(page.events[0].body["type"], "hand_dealt");
    let _ = token;
}

/// The node holding match `id`'s keys: the one that has the state key
/// (the others answer with a redirection).
fn owner(cluster: &Cluster, id: &str) -> usize {
    let key = format!("bf:{{{id}}}:state");
    cluster
        .nodes
        .iter()
        .position(|n| {
            let out = Command::new("redis-cli")
                .args(["-p", &n.port().to_string(), "exists", &key])
                .output()
                .expect("redis-cli");
            String::from_utf8_lossy(&out.stdout).trim() == "1"
        })
        .expect("one node holds the match")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_survives_a_node_restart_with_503s_and_no_loss() {
    let mut cluster = Cluster::start();
    let store: Arc<dyn MatchStore> = Arc::new(
        RedisStore::connect_cluster(&cluster.urls(), TTL)
            .await
            .expect("connect to the test Redis Cluster"),
    );
    let svc = Service::new(store, Limits::default()).unwrap();
    let created = svc.create(NewMatch::default()).await.unwrap();
    let id = created.match_id.clone();
    let dealer = created.view.game.turn.expect("a seat to deal");
    let token = created
        .tokens
        .iter()
        .find(|t| t.seat == dealer)
        .unwrap()
        .token
        .clone();
    let deal = first_legal(&svc, &id, &token).await;
    svc.act(&id, Some(&token), deal).await.unwrap();
    let before = serde_json::to_value(svc.view(&id, None).await.unwrap()).unwrap();

    let node = owner(&cluster, &id);
    cluster.nodes[node].stop();
    // While the node is down: a clear "unavailable" (503), never a hang.
    let down = bounded("a view while the node is down", svc.view(&id, None)).await;
    assert!(
        matches!(down, Err(Error::StoreUnavailable)),
        "expected StoreUnavailable, got {down:?}"
    );
    cluster.nodes[node].restart();
    cluster.wait_ok();
    // Back: the match is all there and plays on.
    let mut after = None;
    for _ in 0..100 {
        match bounded("a view after the restart", svc.view(&id, None)).await {
            Ok(v) => {
                after = Some(serde_json::to_value(v).unwrap());
                break;
            }
            Err(Error::StoreUnavailable) => tokio::time::sleep(Duration::from_millis(200)).await,
            Err(e) => panic!("unexpected error after the restart: {e:?}"),
        }
    }
    let after = after.expect("the store came back");
    assert_eq!(after, before, "nothing lost");
    let seat = after["turn"].as_u64().unwrap();
    let token = &created
        .tokens
        .iter()
        .find(|t| u64::from(t.seat) == seat)
        .unwrap()
        .token;
    let next = first_legal(&svc, &id, token).await;
    svc.act(&id, Some(token), next).await.unwrap();
}
