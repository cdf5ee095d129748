//! Bytes Redis holds per match: `MEMORY USAGE` (every element sampled) on
//! the three keys of a match, averaged over a sample of matches.

use botifarra::store::redis_keys as keys;

/// Most matches measured per group.
const SAMPLE: usize = 50;

/// Average bytes per key kind and in total, over up to [`SAMPLE`] of `ids`
/// spread evenly over the list.
async fn average(
    con: &mut redis::aio::MultiplexedConnection,
    ids: &[String],
) -> Result<Option<String>, String> {
    if ids.is_empty() {
        return Ok(None);
    }
    // Evenly spread over the list: matches finished first are the short ones.
    let step = ids.len().div_ceil(SAMPLE);
    let ids: Vec<&String> = ids.iter().step_by(step).collect();
    let mut sums = [0u64; 3];
    let mut present = 0usize;
    for id in &ids {
        let mut found = false;
        for (sum, key) in sums.iter_mut().zip(keys(id)) {
            let bytes: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(key)
                .arg("SAMPLES")
                .arg(0)
                .query_async(con)
                .await
                .map_err(|e| format!("MEMORY USAGE: {e}"))?;
            found |= bytes.is_some();
            *sum += bytes.unwrap_or(0);
        }
        present += usize::from(found);
    }
    if present == 0 {
        return Ok(Some(format!(
            "none of {} sampled matches in Redis",
            ids.len()
        )));
    }
    let avg = |s: u64| s / present as u64;
    Ok(Some(format!(
        "{} bytes/match (state {} + events {} + idempotency {}; {present} matches sampled)",
        avg(sums.iter().sum()),
        avg(sums[0]),
        avg(sums[1]),
        avg(sums[2]),
    )))
}

/// Reports Redis memory per active and per finished match, and overall.
///
/// # Errors
/// When Redis cannot be reached.
pub async fn report(url: &str, active: &[String], finished: &[String]) -> Result<(), String> {
    let client = redis::Client::open(url).map_err(|e| format!("Redis URL: {e}"))?;
    let mut con = client
        .get_multiplexed_async_connection()
        .await
        .map_err(|e| format!("Redis: {e}"))?;
    if let Some(line) = average(&mut con, active).await? {
        println!("redis_bytes_per_active_match: {line}");
    }
    if let Some(line) = average(&mut con, finished).await? {
        println!("redis_bytes_per_finished_match: {line}");
    }
    let keys: u64 = redis::cmd("DBSIZE")
        .query_async(&mut con)
        .await
        .map_err(|e| format!("DBSIZE: {e}"))?;
    let info: String = redis::cmd("INFO")
        .arg("memory")
        .query_async(&mut con)
        .await
        .map_err(|e| format!("INFO: {e}"))?;
    let used = info
        .lines()
        .find_map(|l| l.strip_prefix("used_memory_human:"))
        .unwrap_or("?")
        .trim()
        .to_string();
    println!("redis_keys: {keys} used_memory: {used}");
    Ok(())
}
