//! The store suite: the `MatchStore` contract on the in-memory store, on
//! Redis and on a Redis Cluster; the service over each store (a match stored
//! in the old layout plays on, idempotent answers rebuilt from the log); the
//! Redis store through an outage; and a cluster's long polls across
//! instances and a cluster node's restart.
//!
//! `backends` (shared with the api suite) makes the stores, starts
//! throwaway Redis servers and clusters and runs a store-parametrized test
//! on each as `memory::NAME`, `redis::NAME` and `cluster::NAME`.

#[path = "../backends/mod.rs"]
mod backends;

mod cluster;
mod contract;
mod layout;
mod lobby;
mod outage;
mod replicas;
