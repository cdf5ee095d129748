//! Helpers shared by the integration tests (`mod support;` in each test crate).

#![allow(dead_code)]

pub mod app;
pub mod logs;
pub mod raw;
pub mod redis;
