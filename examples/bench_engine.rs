//! The engine benchmark on its own: `cargo run --release --example
//! bench_engine -- [seconds]`. The last line is `hands_per_second=<n>`.

fn main() {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let r = botifarra::sim::bench_engine(seconds);
    println!("hands={} seconds={:.3}", r.hands, r.seconds);
    println!("hands_per_second={:.0}", r.hands_per_second);
}
