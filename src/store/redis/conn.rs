//! The connection the Redis store sends its commands on: to a standalone
//! server, or to a Redis Cluster (each command routed to the node owning
//! its key's slot).

use redis::aio::{ConnectionLike, ConnectionManager};
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use redis::{Cmd, Pipeline, RedisFuture, Value};

/// A standalone server's auto-reconnecting connection, or a cluster's.
#[derive(Clone)]
pub(crate) enum Conn {
    /// A standalone server.
    Single(ConnectionManager),
    /// A Redis Cluster.
    Cluster(ClusterConnection),
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Conn::Single(c) => c.req_packed_command(cmd),
            Conn::Cluster(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Conn::Single(c) => c.req_packed_commands(pipeline, offset, count),
            Conn::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(c) => c.get_db(),
            Conn::Cluster(c) => c.get_db(),
        }
    }
}

impl Conn {
    /// Waits up to `timeout_ms` until `replicas` replicas of the master
    /// holding `key` have every write this connection sent it (`WAIT`);
    /// returns how many did.
    pub(crate) async fn wait_replicas(
        &mut self,
        key: &str,
        replicas: u32,
        timeout_ms: u64,
    ) -> redis::RedisResult<u64> {
        let mut cmd = redis::cmd("WAIT");
        cmd.arg(replicas).arg(timeout_ms);
        match self {
            Conn::Single(c) => cmd.query_async(c).await,
            Conn::Cluster(c) => {
                let route = Route::with_key(key, SlotAddr::Master);
                let at = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(route));
                let value = c.route_command(cmd, at).await?;
                Ok(redis::from_redis_value(value)?)
            }
        }
    }

    /// The fewest replicas any master has: `connected_slaves` of a
    /// standalone server; on a cluster, the replicas `CLUSTER NODES`
    /// lists for each master not marked failed.
    pub(crate) async fn fewest_replicas(&mut self) -> redis::RedisResult<u32> {
        match self {
            Conn::Single(c) => {
                let info: String = redis::cmd("INFO").arg("replication").query_async(c).await?;
                Ok(info
                    .lines()
                    .find_map(|l| l.strip_prefix("connected_slaves:"))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(0))
            }
            Conn::Cluster(c) => {
                let mut cmd = redis::cmd("CLUSTER");
                cmd.arg("NODES");
                let at = RoutingInfo::SingleNode(SingleNodeRoutingInfo::Random);
                let nodes: String = redis::from_redis_value(c.route_command(cmd, at).await?)?;
                Ok(fewest_in_cluster_nodes(&nodes))
            }
        }
    }
}

/// The fewest replicas of a master not marked failed in a `CLUSTER
/// NODES` listing (a replica line names its master's id in its fourth
/// field).
fn fewest_in_cluster_nodes(listing: &str) -> u32 {
    let lines: Vec<Vec<&str>> = listing
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let alive = |f: &[&str]| f.len() > 3 && !f[2].contains("fail");
    lines
        .iter()
        .filter(|f| alive(f) && f[2].contains("master"))
        .map(|m| {
            let n = lines.iter().filter(|f| alive(f) && f[3] == m[0]).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::fewest_in_cluster_nodes;

    #[test]
    fn the_fewest_replicas_of_the_live_masters_are_counted() {
        let listing = "\
a 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460
b 127.0.0.1:7002@17002 master - 0 0 2 connected 5461-10922
c 127.0.0.1:7003@17003 master - 0 0 3 connected 10923-16383
d 127.0.0.1:7004@17004 slave a 0 0 1 connected
e 127.0.0.1:7005@17005 slave b 0 0 2 connected
f 127.0.0.1:7006@17006 slave,fail c 0 0 3 connected
";
        assert_eq!(fewest_in_cluster_nodes(listing), 0, "c's replica failed");
        let healed = listing.replace("slave,fail", "slave");
        assert_eq!(fewest_in_cluster_nodes(&healed), 1);
        assert_eq!(fewest_in_cluster_nodes(""), 0);
    }
}
