//! Raw HTTP/1.1 over TCP, for what a well-behaved client library will not
//! send: slow bodies, unfinished heads, connections held open.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Connects to `base` (`http://host:port`).
pub async fn connect(base: &str) -> TcpStream {
    let addr = base.trim_start_matches("http://");
    TcpStream::connect(addr)
        .await
        .expect("connect to the server")
}

/// Writes `bytes` on `conn`.
pub async fn write(conn: &mut TcpStream, bytes: &[u8]) {
    conn.write_all(bytes).await.expect("write to the server");
}

/// Reads what the server sends until it closes the connection, `done`
/// says so, or `limit` passes (a test bound, not a measurement).
async fn read_while(conn: &mut TcpStream, limit: Duration, done: fn(&[u8]) -> bool) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let _ = tokio::time::timeout(limit, async {
        loop {
            match conn.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    out.extend_from_slice(&buf[..n]);
                    if done(&out) {
                        break;
                    }
                }
            }
        }
    })
    .await;
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads what the server sends until it closes the connection or `limit`
/// passes; returns the text read.
pub async fn read_until_closed(conn: &mut TcpStream, limit: Duration) -> String {
    read_while(conn, limit, |_| false).await
}

/// Sends a whole `GET path` on `conn` and reads the answer's head (and
/// whatever body came with it) within `limit`.
pub async fn get(conn: &mut TcpStream, path: &str, limit: Duration) -> String {
    let req = format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n");
    write(conn, req.as_bytes()).await;
    read_while(conn, limit, |out| out.windows(4).any(|w| w == b"\r\n\r\n")).await
}
