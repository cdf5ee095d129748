//! Throwaway Redis servers for the tests.
//!
//! [`redis_url`] gives every test of a process one shared server: the one in
//! `REDIS_URL` if set, otherwise a `redis-server` started here on a free
//! port. [`RedisProcess`] starts a private server that a test may stop and
//! restart on the same port, to simulate an outage.
//!
//! Cleanup: a server is a child process, and Rust never drops statics, so a
//! `Drop` guard alone would leak the shared server (and any server of a test
//! process that is killed). Each server therefore gets a tiny `sh` watchdog
//! that polls every second whether the test process is still alive and
//! kills the server once it is not. A [`RedisProcess`] also stops its server
//! (and watchdog) when dropped. No persistence: `--save ""`, `--appendonly
//! no`, so nothing is written to disk.
#![allow(dead_code)]

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const MISSING: &str =
    "Redis tests need REDIS_URL or redis-server on PATH; run scripts/test which installs it";

/// The URL of a Redis server shared by all tests of this process.
///
/// # Panics
///
/// If `REDIS_URL` is unset and `redis-server` cannot be started.
pub fn redis_url() -> String {
    static SHARED: OnceLock<String> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            if let Ok(url) = std::env::var("REDIS_URL")
                && !url.is_empty()
            {
                return url;
            }
            let server = RedisProcess::start();
            let url = server.url();
            // Lives until the process exits; the watchdog then kills it.
            std::mem::forget(server);
            url
        })
        .clone()
}

/// A private `redis-server` that can be stopped and restarted on its port.
#[derive(Debug)]
pub struct RedisProcess {
    port: u16,
    server: Option<Child>,
    watchdog: Option<Child>,
    /// With persistence: the directory of the append-only file, so data
    /// survives a crash and restart.
    persist_dir: Option<std::path::PathBuf>,
    /// Further options (a cluster node's).
    extra: Vec<String>,
}

impl RedisProcess {
    /// Starts a server on a free port.
    ///
    /// # Panics
    ///
    /// If `redis-server` is not on `PATH` or does not come up.
    pub fn start() -> Self {
        let mut last_error = String::new();
        for _ in 0..5 {
            let port = free_port();
            match Self::try_start_on(port) {
                Ok(process) => return process,
                // Most likely someone took the port in between; pick another.
                Err(e) => last_error = e,
            }
        }
        panic!("could not start redis-server: {last_error}");
    }

    /// Starts a server on `port`.
    ///
    /// # Panics
    ///
    /// If `redis-server` is not on `PATH` or does not come up.
    pub fn start_on(port: u16) -> Self {
        Self::try_start_on(port).unwrap_or_else(|e| panic!("could not start redis-server: {e}"))
    }

    fn try_start_on(port: u16) -> Result<Self, String> {
        let mut process = Self {
            port,
            server: None,
            watchdog: None,
            persist_dir: None,
            extra: Vec::new(),
        };
        process.launch()?;
        Ok(process)
    }

    /// Starts a server on a free port that writes every change to an
    /// append-only file (fsync always), so a killed and restarted server
    /// comes back with its data.
    ///
    /// # Panics
    ///
    /// If `redis-server` is not on `PATH` or does not come up.
    pub fn start_persistent() -> Self {
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("botifarra-redis-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the Redis data directory");
        let mut process = Self {
            port,
            server: None,
            watchdog: None,
            persist_dir: Some(dir),
            extra: Vec::new(),
        };
        process
            .launch()
            .unwrap_or_else(|e| panic!("could not start redis-server: {e}"));
        process
    }

    /// Starts a persistent Redis Cluster node (not yet part of a cluster)
    /// on a free port whose cluster bus port (+10000) is free too.
    ///
    /// # Panics
    ///
    /// If `redis-server` is not on `PATH` or does not come up.
    pub fn start_cluster_node() -> Self {
        let mut last_error = String::new();
        for _ in 0..20 {
            let port = free_port();
            if port > 55_000 || TcpListener::bind(("127.0.0.1", port + 10_000)).is_err() {
                continue;
            }
            let dir = std::env::temp_dir()
                .join(format!("botifarra-cluster-{}-{port}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("create the Redis data directory");
            let mut process = Self {
                port,
                server: None,
                watchdog: None,
                persist_dir: Some(dir),
                extra: [
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    "2000",
                ]
                .map(String::from)
                .to_vec(),
            };
            match process.launch() {
                Ok(()) => return process,
                Err(e) => last_error = e,
            }
        }
        panic!("could not start a cluster node: {last_error}");
    }

    /// Starts a replica of the server on `master_port`, on a free port
    /// (no persistence; it copies the master's data when it connects).
    ///
    /// # Panics
    ///
    /// If `redis-server` is not on `PATH` or does not come up.
    pub fn start_replica_of(master_port: u16) -> Self {
        let mut last_error = String::new();
        for _ in 0..5 {
            let mut process = Self {
                port: free_port(),
                server: None,
                watchdog: None,
                persist_dir: None,
                extra: vec![
                    "--replicaof".into(),
                    "127.0.0.1".into(),
                    master_port.to_string(),
                ],
            };
            match process.launch() {
                Ok(()) => return process,
                Err(e) => last_error = e,
            }
        }
        panic!("could not start a replica: {last_error}");
    }

    /// The port the server listens on (kept across restarts).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Whether the server was started and not stopped.
    pub fn is_running(&self) -> bool {
        self.server.is_some()
    }

    /// Kills the server (abruptly, like a crash) and waits until it is gone.
    pub fn stop(&mut self) {
        for child in [self.server.take(), self.watchdog.take()]
            .into_iter()
            .flatten()
        {
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port: empty, or with its data
    /// when started with [`RedisProcess::start_persistent`].
    ///
    /// # Panics
    ///
    /// If it does not come up.
    pub fn restart(&mut self) {
        self.stop();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.launch() {
                Ok(()) => return,
                Err(e) if Instant::now() > deadline => {
                    panic!("could not restart redis-server: {e}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(200)),
            }
        }
    }

    fn launch(&mut self) -> Result<(), String> {
        let port = self.port.to_string();
        let dir = self.persist_dir.clone().unwrap_or_else(std::env::temp_dir);
        let persistence: &[&str] = if self.persist_dir.is_some() {
            &[
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ]
        } else {
            &["--save", "", "--appendonly", "no"]
        };
        let mut server = Command::new("redis-server")
            .args(["--port", &port, "--bind", "127.0.0.1", "--daemonize", "no"])
            .args(persistence)
            .args(&self.extra)
            .arg("--dir")
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| match e.kind() {
                ErrorKind::NotFound => panic!("{MISSING}"),
                _ => format!("spawning redis-server: {e}"),
            })?;
        let watchdog = Command::new("sh")
            .arg("-c")
            .arg(r#"while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -9 "$2" 2>/dev/null"#)
            .arg("redis-watchdog")
            .arg(std::process::id().to_string())
            .arg(server.id().to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let watchdog = match watchdog {
            Ok(w) => w,
            Err(e) => {
                let _ = server.kill();
                let _ = server.wait();
                return Err(format!("spawning the watchdog: {e}"));
            }
        };
        self.server = Some(server);
        self.watchdog = Some(watchdog);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !answers_ping(self.port) {
            let exited = self
                .server
                .as_mut()
                .and_then(|s| s.try_wait().ok().flatten());
            if exited.is_some() || Instant::now() > deadline {
                self.stop();
                return Err(format!(
                    "redis-server on port {} did not answer PING ({exited:?})",
                    self.port
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }
}

impl Drop for RedisProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A port the OS considers free right now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("binding 127.0.0.1:0")
}

fn answers_ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}
