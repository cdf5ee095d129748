//! A throwaway Redis Cluster for the tests: three persistent nodes
//! (`redis-server --cluster-enabled yes`) on free loopback ports, joined
//! with `redis-cli --cluster create`, no replicas. Never skipped: without
//! `redis-server` and `redis-cli` the tests fail with a clear message.
#![allow(dead_code)]

use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::redis::RedisProcess;

/// Three nodes holding all 16384 slots between them.
pub struct Cluster {
    /// The nodes, which a test may stop and restart.
    pub nodes: Vec<RedisProcess>,
}

impl Cluster {
    /// Starts three nodes and makes them a cluster, waiting until every
    /// node reports `cluster_state:ok`.
    ///
    /// # Panics
    ///
    /// If a node does not start or the cluster does not form.
    pub fn start() -> Cluster {
        Self::start_with(3, 0)
    }

    /// Starts three masters, each with a replica, and waits until every
    /// replica has synced with its master.
    ///
    /// # Panics
    ///
    /// If a node does not start, the cluster does not form, or a replica
    /// does not sync within 30 seconds.
    pub fn start_with_replicas() -> Cluster {
        let cluster = Self::start_with(6, 1);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let synced = cluster
                .nodes
                .iter()
                .filter(|n| {
                    let info = cluster.cli(n.port(), &["info", "replication"]);
                    info.contains("role:master") && info.contains("state=online")
                })
                .count();
            if synced == 3 {
                return cluster;
            }
            assert!(Instant::now() < deadline, "the replicas never synced");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// What `redis-cli -p port args…` prints.
    pub fn cli(&self, port: u16, args: &[&str]) -> String {
        Command::new("redis-cli")
            .args(["-p", &port.to_string()])
            .args(args)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// The port of the master that holds `key`'s slot now, asked of a
    /// node still up.
    pub fn master_of(&self, key: &str) -> u16 {
        let port = self
            .nodes
            .iter()
            .find(|n| n.is_running())
            .expect("a node up")
            .port();
        let slot: u32 = self
            .cli(port, &["cluster", "keyslot", key])
            .trim()
            .parse()
            .expect("a slot");
        for line in self.cli(port, &["cluster", "nodes"]).lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 9 || !f[2].contains("master") || f[2].contains("fail") {
                continue;
            }
            let holds = f[8..].iter().any(|r| {
                let (lo, hi) = r.split_once('-').unwrap_or((r, r));
                matches!((lo.parse::<u32>(), hi.parse::<u32>()), (Ok(lo), Ok(hi)) if (lo..=hi).contains(&slot))
            });
            if holds {
                let addr = f[1].split('@').next().unwrap_or_default();
                return addr
                    .rsplit(':')
                    .next()
                    .unwrap_or_default()
                    .parse()
                    .expect("a port");
            }
        }
        panic!("no master holds slot {slot}")
    }

    /// Starts `n` nodes and makes them a cluster with `replicas` replicas
    /// per master, waiting until every node reports `cluster_state:ok`.
    fn start_with(n: usize, replicas: u32) -> Cluster {
        let nodes: Vec<RedisProcess> = (0..n).map(|_| RedisProcess::start_cluster_node()).collect();
        let addrs: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port()))
            .collect();
        let out = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(&addrs)
            .args(["--cluster-replicas", &replicas.to_string(), "--cluster-yes"])
            .output()
            .unwrap_or_else(|e| panic!("running redis-cli --cluster create: {e}"));
        assert!(
            out.status.success(),
            "redis-cli --cluster create failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let cluster = Cluster { nodes };
        cluster.wait_ok();
        cluster
    }

    /// `redis://127.0.0.1:<port>` of every node.
    pub fn urls(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|n| format!("redis://127.0.0.1:{}", n.port()))
            .collect()
    }

    /// Waits until every node answers `cluster_state:ok`.
    ///
    /// # Panics
    ///
    /// After 30 seconds.
    pub fn wait_ok(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        for n in &self.nodes {
            loop {
                let info = Command::new("redis-cli")
                    .args(["-p", &n.port().to_string(), "cluster", "info"])
                    .output()
                    .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                    .unwrap_or_default();
                if info.contains("cluster_state:ok") {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "node {} never reported cluster_state:ok: {info}",
                    n.port()
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// The node URLs of a cluster shared by every test of this process.
pub fn cluster_urls() -> Vec<String> {
    static SHARED: OnceLock<Vec<String>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            let cluster = Cluster::start();
            let urls = cluster.urls();
            // Lives until the process exits; the watchdogs then kill it.
            std::mem::forget(cluster);
            urls
        })
        .clone()
}
