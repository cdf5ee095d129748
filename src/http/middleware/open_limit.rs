//! Per-address limits on what a client holds open: connections and event
//! streams. A slot is taken when the connection or stream opens and given
//! back when it is dropped, whichever way it ends.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::dev::Extensions;
use actix_web::rt::net::TcpStream;

use super::client_addr;

/// Open things per client address.
#[derive(Debug, Default)]
pub struct OpenCounts {
    map: Mutex<HashMap<String, usize>>,
}

/// One open thing; gives its slot back when dropped.
#[derive(Debug)]
pub struct Slot {
    counts: Arc<OpenCounts>,
    key: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = self
            .counts
            .map
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

impl OpenCounts {
    /// Takes a slot for `key` if fewer than `limit` are open (a `limit` of
    /// 0 means no limit); `None` when the limit is reached.
    pub fn try_open(self: &Arc<Self>, key: &str, limit: usize) -> Option<Slot> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        let n = map.entry(key.to_string()).or_insert(0);
        if limit > 0 && *n >= limit {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: Arc::clone(self),
            key: key.to_string(),
        })
    }

    /// How many are open for `key`.
    pub fn open(&self, key: &str) -> usize {
        let map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(key).copied().unwrap_or(0)
    }
}

/// What a connection carries: its slot, or the mark that its address had
/// too many connections open when it arrived.
#[derive(Debug)]
pub enum ConnSlot {
    /// Counted.
    Open(#[allow(dead_code)] Slot),
    /// Over the limit: every request on it is refused and the connection
    /// closed.
    Over,
}

/// The `on_connect` hook: counts the connection against its peer address
/// (in [`client_addr::key`]'s one spelling).
pub fn on_connect(counts: &Arc<OpenCounts>, limit: usize, conn: &dyn Any, ext: &mut Extensions) {
    let Some(peer) = conn
        .downcast_ref::<TcpStream>()
        .and_then(|s| s.peer_addr().ok())
    else {
        return;
    };
    let slot = match counts.try_open(&client_addr::key(peer.ip()), limit) {
        Some(s) => ConnSlot::Open(s),
        None => ConnSlot::Over,
    };
    ext.insert(slot);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_comes_back_when_dropped() {
        let counts = Arc::new(OpenCounts::default());
        let a = counts.try_open("a", 2).unwrap();
        let b = counts.try_open("a", 2).unwrap();
        assert!(counts.try_open("a", 2).is_none());
        assert!(counts.try_open("b", 2).is_some());
        drop(a);
        assert_eq!(counts.open("a"), 1);
        let _c = counts.try_open("a", 2).unwrap();
        drop(b);
        assert_eq!(counts.open("a"), 1);
    }
}
