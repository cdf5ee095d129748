//! Helpers shared by the integration tests (`mod support;` in each test crate).

pub mod redis;
