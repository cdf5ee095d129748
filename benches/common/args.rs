//! Command-line options of the load tools: `--name value` pairs and bare
//! `--flag`s, read from the process's arguments.

/// The value after `name`, or `default`.
pub fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

/// The number after `name`, or `default`.
///
/// # Panics
/// When the value is not such a number.
pub fn num<T: std::str::FromStr + std::fmt::Display>(name: &str, default: T) -> T {
    arg(name, &default.to_string())
        .parse()
        .unwrap_or_else(|_| panic!("{name} takes a number"))
}

/// Whether the bare flag `name` was given.
#[allow(dead_code)]
pub fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}
