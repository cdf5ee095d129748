//! Captures the process's log lines (INFO and above, with a line for every
//! closed request span and its fields) so a test can read or count them.
//! One capture serves every test of the binary: a process has one global
//! logger.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// The captured lines, shared by every test of the binary.
#[derive(Clone, Default)]
pub struct Lines(Arc<Mutex<Vec<u8>>>);

impl Lines {
    /// How many captured lines contain every one of `needles`.
    pub fn count_all(&self, needles: &[&str]) -> usize {
        let buf = self.0.lock().unwrap();
        String::from_utf8_lossy(&buf)
            .lines()
            .filter(|l| needles.iter().all(|n| l.contains(n)))
            .count()
    }

    /// Everything captured so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs the capturing logger once for the test binary and returns it.
pub fn capture() -> Lines {
    static LINES: OnceLock<Lines> = OnceLock::new();
    LINES
        .get_or_init(|| {
            let lines = Lines::default();
            let writer = lines.clone();
            tracing_subscriber::fmt()
                .with_max_level(tracing::Level::INFO)
                .with_ansi(false)
                .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
                .with_writer(move || writer.clone())
                .init();
            lines
        })
        .clone()
}
