//! `botifarra solve`: the whole-hand solver's command line, run as a user
//! runs it (the built binary).

use std::process::Command;

fn solve(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_botifarra"))
        .arg("solve")
        .args(args)
        .output()
        .expect("the botifarra binary runs");
    assert!(out.status.success(), "solve {args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The `key=value` fields of a benchmark line.
fn field(line: &str, key: &str) -> f64 {
    let prefix = format!("{key}=");
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&prefix))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}

#[test]
fn the_benchmark_reports_each_deal_and_their_mean() {
    // Three seeds of four tricks left: both passes, then the value alone.
    let args = ["--bench", "3", "--seed", "5", "--played", "32"];
    let (out, err) = solve(&args);
    let labels: Vec<&str> = out.lines().filter_map(|l| l.split(':').next()).collect();
    assert_eq!(labels, ["value", "each_card"], "{out}");
    let per_deal: Vec<&str> = err.lines().collect();
    assert_eq!(per_deal.len(), 6, "one line a deal and pass: {err}");
    for (i, line) in per_deal.iter().enumerate() {
        assert_eq!(field(line, "seed") as usize, 5 + i % 3, "{line}");
        assert!(field(line, "nodes") >= 1.0, "{line}");
    }
    // The value pass's positions per deal is the mean of its deals'.
    let value = out.lines().next().unwrap();
    let nodes: f64 = per_deal[..3].iter().map(|l| field(l, "nodes")).sum();
    assert_eq!(
        field(value, "nodes_per_deal"),
        (nodes / 3.0).floor(),
        "{out}"
    );

    let (only, err) = solve(&[&args[..], &["--value-only"]].concat());
    assert_eq!(only.lines().count(), 1, "{only}");
    assert!(only.starts_with("value: deals=3 "), "{only}");
    assert_eq!(err.lines().count(), 3, "{err}");
    // The same deals, the same search: the same positions.
    assert_eq!(
        field(&only, "nodes_per_deal"),
        field(value, "nodes_per_deal")
    );
}

#[test]
fn a_probe_answers_as_the_value_does() {
    // Five tricks left: the value of each deal, then one search at each of
    // three thresholds, which must agree with it.
    let args = [
        "--bench",
        "4",
        "--seed",
        "9",
        "--played",
        "28",
        "--value-only",
    ];
    let (_, err) = solve(&args);
    let values: Vec<f64> = err.lines().map(|l| field(l, "value")).collect();
    assert_eq!(values.len(), 4, "{err}");
    for need in [5, 15, 25] {
        let need_s = need.to_string();
        let (out, err) = solve(&[&args[..], &["--probe", &need_s]].concat());
        assert!(out.starts_with("probe: deals=4 "), "{out}");
        for (line, &v) in err.lines().zip(&values) {
            let bound = field(line, "probe");
            assert_eq!(
                bound >= f64::from(need),
                v >= f64::from(need),
                "{line}, value {v}"
            );
            // A true bound: at most the value when reached, else at least.
            if bound >= f64::from(need) {
                assert!(bound <= v, "{line}, value {v}");
            } else {
                assert!(bound >= v, "{line}, value {v}");
            }
        }
    }
}

#[test]
fn a_position_s_cards_are_valued() {
    let (out, _) = solve(&["--seed", "9", "--played", "36"]);
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("card "))
        .skip(1)
        .take_while(|l| !l.starts_with("nodes="))
        .collect();
    assert!(!rows.is_empty(), "{out}");
    // The loss column: zero for a best card, never negative.
    let losses: Vec<i64> = rows
        .iter()
        .map(|r| r.split_whitespace().last().unwrap().parse().unwrap())
        .collect();
    assert!(losses.contains(&0), "{out}");
    assert!(losses.iter().all(|&l| l >= 0), "{out}");
}
