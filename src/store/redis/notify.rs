//! The pub/sub side of the Redis stores (matches, and the lobby's): one
//! dedicated connection per store that listens on its notify channel and
//! wakes this process's long polls.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{PubSubSink, PubSubStream};
use redis::{Client, Msg};
use tokio::sync::oneshot;
use tokio::time::{Instant, timeout};

use super::{CONNECT_TIMEOUT, RESPONSE_TIMEOUT, unavailable};
use crate::store::StoreError;
use crate::store::waiters::Waiters;

/// Bounds of the reconnection backoff.
const MIN_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(2);
/// How often the idle connection is pinged, to notice a dead peer.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// Keeps a pub/sub connection subscribed to `channel` and passes each
/// announcement to the local waiters, reconnecting with backoff.
pub(crate) async fn run_subscriber(
    client: Client,
    channel: &'static str,
    waiters: Arc<Waiters>,
    ready: oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    let mut backoff = MIN_BACKOFF;
    loop {
        match subscribe(&client, channel).await {
            Ok((mut sink, mut stream)) => {
                backoff = MIN_BACKOFF;
                if let Some(ready) = ready.take() {
                    let _ = ready.send(());
                }
                tracing::debug!(channel, "redis pub/sub subscribed");
                let mut keepalive = tokio::time::interval_at(Instant::now() + KEEPALIVE, KEEPALIVE);
                loop {
                    tokio::select! {
                        msg = stream.next() => match msg {
                            Some(msg) => dispatch(&waiters, &msg),
                            None => break,
                        },
                        _ = keepalive.tick() => {
                            let pong = timeout(RESPONSE_TIMEOUT, sink.ping::<redis::Value>()).await;
                            if !matches!(pong, Ok(Ok(_))) {
                                break;
                            }
                        }
                    }
                }
                tracing::warn!("redis pub/sub connection lost; reconnecting");
            }
            Err(e) => {
                tracing::warn!(error = %e, retry_in = ?backoff, "redis pub/sub unavailable");
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

async fn subscribe(
    client: &Client,
    channel: &str,
) -> Result<(PubSubSink, PubSubStream), StoreError> {
    let pubsub = timeout(CONNECT_TIMEOUT, client.get_async_pubsub())
        .await
        .map_err(unavailable)?
        .map_err(unavailable)?;
    let (mut sink, stream) = pubsub.split();
    timeout(RESPONSE_TIMEOUT, sink.subscribe(channel))
        .await
        .map_err(unavailable)?
        .map_err(unavailable)?;
    Ok((sink, stream))
}

/// Parses `<id> <last_seq>` and wakes that match's waiters.
fn dispatch(waiters: &Waiters, msg: &Msg) {
    let payload = String::from_utf8_lossy(msg.get_payload_bytes());
    if let Some((id, Ok(seq))) = payload.rsplit_once(' ').map(|(id, seq)| (id, seq.parse())) {
        waiters.notify(id, seq);
    } else {
        tracing::warn!(%payload, "ignoring malformed notification");
    }
}
