//! The rooms of the crate (its top-level modules) and the arrows between
//! them, read from the table in `docs/architecture.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::modules::{Crate, ModPath};
use crate::resolve::absolute;

/// The doc that holds the table of arrows, relative to the crate.
pub const DOC: &str = "docs/architecture.md";

/// The header cells that mark the table of arrows in [`DOC`].
const HEADER: [&str; 2] = ["room", "may import"];

/// Per room, the rooms its files may import.
pub type Arrows = BTreeMap<String, BTreeSet<String>>;

/// Reads the table of arrows from `doc`: the first markdown table whose
/// header is `| room | may import |`, one row per room, the rooms it may
/// import separated by commas (backticks allowed), `nothing` for none.
pub fn read_arrows(doc: &str) -> Result<Arrows, String> {
    let cells = |line: &str| -> Vec<String> {
        let line = line.trim().trim_start_matches('|').trim_end_matches('|');
        line.split('|').map(|c| c.trim().replace('`', "")).collect()
    };
    let mut lines = doc.lines().skip_while(|l| {
        let header = cells(l);
        !(header.len() == 2
            && header
                .iter()
                .zip(HEADER)
                .all(|(c, h)| c.eq_ignore_ascii_case(h)))
    });
    if lines.next().is_none() {
        return Err(format!(
            "{DOC} has no table with the header `| room | may import |`"
        ));
    }
    let mut arrows = Arrows::new();
    for line in lines
        .skip(1)
        .take_while(|l| l.trim_start().starts_with('|'))
    {
        let [room, targets] = <[String; 2]>::try_from(cells(line))
            .map_err(|_| format!("{DOC}: a row of the arrows table needs two cells: {line}"))?;
        let targets: BTreeSet<String> = match targets.as_str() {
            "nothing" | "" | "-" | "—" => BTreeSet::new(),
            list => list.split(',').map(|t| t.trim().to_string()).collect(),
        };
        if let Some(bad) = targets.iter().chain([&room]).find(|n| !is_room_name(n)) {
            return Err(format!("{DOC}: {bad:?} is not a room name, in row: {line}"));
        }
        if arrows.insert(room.clone(), targets).is_some() {
            return Err(format!(
                "{DOC}: room `{room}` has two rows in the arrows table"
            ));
        }
    }
    let unknown: Vec<String> = arrows
        .iter()
        .flat_map(|(room, targets)| targets.iter().map(move |t| (room, t)))
        .filter(|(_, t)| !arrows.contains_key(*t))
        .map(|(room, t)| format!("{room} → {t}"))
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "{DOC}: arrows to rooms without a row: {}",
            unknown.join(", ")
        ));
    }
    Ok(arrows)
}

/// Whether `name` can be a module name.
fn is_room_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The rooms that exist under `root/src`: each directory, and each `.rs`
/// file but `lib.rs` and `main.rs`.
pub fn rooms_on_disk(root: &Path) -> BTreeSet<String> {
    let entries = fs::read_dir(root.join("src")).expect("src/ is readable");
    entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            if path.is_dir() {
                Some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "lib" && stem != "main").then(|| stem.to_string())
            }
        })
        .collect()
}

/// The room of the file at `rel` (`src/<room>/…` or `src/<room>.rs`), or
/// `None` for `lib.rs` and `main.rs`, which may import anything.
pub fn room_of_file(rel: &str) -> Option<String> {
    let inside = rel.strip_prefix("src/")?;
    match inside.split_once('/') {
        Some((room, _)) => Some(room.to_string()),
        None => inside
            .strip_suffix(".rs")
            .filter(|r| *r != "lib" && *r != "main")
            .map(String::from),
    }
}

/// The room an absolute path lies in, `None` for a crate root.
fn room_of_path(path: &ModPath) -> Option<&str> {
    path.segs.first().map(String::as_str)
}

/// A line that imports from a room its own room may not import.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    /// The file and line (`src/lobby/records.rs:11`).
    pub at: String,
    /// The room of the file.
    pub from: String,
    /// The room the paths lead to.
    pub to: String,
    /// Whether the line is test-only code.
    pub test: bool,
    /// The paths written on that line, as written.
    pub paths: BTreeSet<String>,
}

/// Every line that crosses rooms against `arrows`: a path written from
/// `crate`, `super` or `self` (or `botifarra` in the binary) whose absolute
/// module path starts in another room. Paths through imported names are
/// not counted again: their `use` is.
pub fn violations(krate: &Crate, arrows: &Arrows) -> Vec<Violation> {
    let mut found: BTreeMap<(String, String, String, bool), BTreeSet<String>> = BTreeMap::new();
    for reference in &krate.references {
        let written_from = ["crate", "botifarra", "super", "self"];
        if !written_from.contains(&reference.segs[0].as_str()) {
            continue;
        }
        let file = &krate.files[reference.file];
        let (Some(from), Some(path)) = (
            room_of_file(&file.rel),
            absolute(krate, &reference.scope, &reference.segs),
        ) else {
            continue;
        };
        let Some(to) = room_of_path(&path) else {
            continue;
        };
        let allowed = arrows.get(&from).is_some_and(|a| a.contains(to));
        if to != from && !allowed {
            let at = format!("{}:{}", file.rel, reference.line);
            let key = (at, from, to.to_string(), reference.test);
            found
                .entry(key)
                .or_default()
                .insert(reference.segs.join("::"));
        }
    }
    let violations = found
        .into_iter()
        .map(|((at, from, to, test), paths)| Violation {
            at,
            from,
            to,
            test,
            paths,
        });
    violations.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrows_table_is_read_from_its_header_to_its_last_row() {
        let doc = "text\n\n| Room | may import |\n| --- | --- |\n| `a` | nothing |\n\
                   | `b` | `a` |\n| c | a, b |\n\nmore | text |\n";
        let arrows = read_arrows(doc).expect("the table reads");
        assert_eq!(arrows.len(), 3);
        assert!(arrows["a"].is_empty());
        assert_eq!(arrows["c"].iter().collect::<Vec<_>>(), ["a", "b"]);
        let typo = "| room | may import |\n|-|-|\n| a | rulez |\n";
        assert!(read_arrows(typo).unwrap_err().contains("a → rulez"));
    }

    #[test]
    fn a_file_belongs_to_the_room_of_its_first_folder_or_its_name() {
        assert_eq!(
            room_of_file("src/http/limit/fields.rs").as_deref(),
            Some("http")
        );
        assert_eq!(room_of_file("src/config.rs").as_deref(), Some("config"));
        assert_eq!(room_of_file("src/main.rs"), None);
    }
}
