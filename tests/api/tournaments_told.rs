//! Telling a tournament's players survives a failure after the write it
//! tells of: the first try to tell a player of round 1, another of round
//! 2 and one of the end fail as if the store were down, after some
//! players of the same round were told. The instance tells again on its
//! next steps, and every player hears each round and the end exactly
//! once (a lost `round_started` would leave its players waiting; a
//! repeated one would show twice below).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::json;

use crate::app::{Backend, lobby_over, lobby_store_for, spawn_service, unlimited};
use crate::backends::both_stores;
use crate::tapped_store::TappedStore;
use crate::tournaments::{get, play_all, started};

/// Which try of each kind of telling fails: the 3rd `round_started` of
/// round 1, the 2nd of round 2 and the 5th `tournament_over`.
const REFUSED: [(&str, u32); 3] = [("1", 3), ("2", 2), ("over", 5)];

async fn a_failed_telling_is_told_again_once(backend: Backend) {
    let tries = Arc::new(Mutex::new(HashMap::<String, u32>::new()));
    let mut tapped = TappedStore::over(lobby_store_for(backend).await);
    let counted = Arc::clone(&tries);
    tapped.refuse_once = Box::new(move |once: &str| {
        // `round:<tournament>:<n>` or `over:<tournament>`.
        let kind = match once.split(':').collect::<Vec<_>>()[..] {
            ["round", _, n] => n.to_string(),
            [kind, ..] => kind.to_string(),
            [] => String::new(),
        };
        let mut tries = counted.lock().unwrap_or_else(PoisonError::into_inner);
        let n = tries.entry(kind.clone()).or_default();
        *n += 1;
        REFUSED.contains(&(kind.as_str(), *n))
    });
    let app = spawn_service(lobby_over(backend, Arc::new(tapped)).await, unlimited());
    let apps = [app];
    let (tid, who) = started(
        &apps,
        json!({"name": "Tossut", "variant": "pairs", "format": "swiss", "rounds": 2,
               "rules": {"variant": "pairs", "max_hands": 1}, "starts_in_s": 3600}),
        8,
    )
    .await;
    let heard = play_all(&apps, &tid, &who).await;
    for h in &heard {
        assert_eq!(h.rounds, vec![1, 2], "each round heard once");
        assert_eq!(h.over.as_ref().unwrap()["status"], "over");
    }
    let t = get(&apps[0], &format!("/v1/tournaments/{tid}")).await;
    assert_eq!(t["status"], "over");
    let tries = tries.lock().unwrap_or_else(PoisonError::into_inner).clone();
    for (kind, n) in REFUSED {
        assert!(
            tries.get(kind).copied().unwrap_or(0) > n,
            "the refused telling ({kind}, try {n}) was tried again: {tries:?}"
        );
    }
    // 8 players told of 2 rounds and the end, each once, plus the retries.
    assert!(tries.values().sum::<u32>() >= 3 * 8 + 3, "{tries:?}");
}

both_stores!(a_failed_telling_is_told_again_once);
