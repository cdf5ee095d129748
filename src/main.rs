use std::time::Duration;

fn main() {
    let secs: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let (hands, el) = botifarra::sim::bench_hands(&botifarra::rules::Rules::default(), Duration::from_secs(secs), 1);
    println!("hands={hands} seconds={:.3}", el.as_secs_f64());
    println!("hands_per_second={}", (hands as f64 / el.as_secs_f64()) as u64);
}
