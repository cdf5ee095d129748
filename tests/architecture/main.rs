//! The architecture check: the crate's own source under `src/` read at run
//! time and held to the shape `docs/architecture.md` describes.
//!
//! - Layers: each top-level module (a room) imports only the rooms the
//!   doc's table of arrows allows it; the doc is the single source, so the
//!   table and the code cannot drift apart silently.
//! - No circle of files: no two files depend on each other, directly or
//!   through others (an edge goes from a file to the file that defines
//!   what it names; an edge up to the file of an enclosing module is not
//!   counted, so children may use what their parents define).
//! - Sizes: files and functions stay short enough to read whole.
//!
//! The check uses std only and a small lexer (`source`) instead of a Rust
//! parser, so it builds in seconds; it understands `mod`, `use` trees,
//! re-exports, `crate::`/`super::`/`self::` paths, inline modules and
//! `#[cfg(test)]` code, which is all the crate's layout is made of.
//! Run it with `cargo test --test architecture`.

mod modules;
mod parse;
mod resolve;
mod rooms;
mod sizes;
mod source;

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use modules::Crate;

/// The crate directory: the check reads the source it is compiled with.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The crate's source, read once for all the tests.
fn krate() -> &'static Crate {
    static KRATE: OnceLock<Crate> = OnceLock::new();
    KRATE.get_or_init(|| Crate::read(root()))
}

/// The failure message for a list of problems under a heading, each on its
/// own line.
fn report(heading: &str, problems: &[String], advice: &str) -> String {
    format!(
        "{heading} ({}):\n  {}\n\n{advice}",
        problems.len(),
        problems.join("\n  ")
    )
}

/// Layers: every room is in the doc's table, and no file imports a room its
/// own room's row does not list. Keeps the low rooms (rules, store) free of
/// the high ones, so each can be understood and tested alone.
#[test]
fn every_room_imports_only_the_rooms_the_architecture_doc_allows() {
    let doc = fs::read_to_string(root().join(rooms::DOC)).expect("docs/architecture.md exists");
    let arrows = rooms::read_arrows(&doc).unwrap_or_else(|e| panic!("{e}"));
    let missing: Vec<String> = rooms::rooms_on_disk(root())
        .into_iter()
        .filter(|room| !arrows.contains_key(room))
        .map(|room| format!("src/{room}: add a row `| {room} | <rooms it may import> |`"))
        .collect();
    assert!(
        missing.is_empty(),
        "{}",
        report(
            "rooms under src/ that the arrows table in docs/architecture.md does not list",
            &missing,
            "Every top-level module is a room and needs a row saying what it may import."
        )
    );
    let krate = krate();
    let violations: Vec<String> = rooms::violations(krate, &arrows)
        .into_iter()
        .map(|v| {
            let test = if v.test { " (test code)" } else { "" };
            let paths: Vec<&str> = v.paths.iter().map(String::as_str).collect();
            format!(
                "{}: {} → {}{test}: {}",
                v.at,
                v.from,
                v.to,
                paths.join(", ")
            )
        })
        .collect();
    assert!(
        violations.is_empty(),
        "{}",
        report(
            "imports between rooms that docs/architecture.md does not allow",
            &violations,
            "Move the code to a room that may import what it needs, invert the dependency \
             (a trait or hook in the lower room), or, if the arrow is right, add it to the \
             table in docs/architecture.md."
        )
    );
}

/// No circle of files: in the graph from each file to the files defining
/// what it names, edges up to an enclosing module's file left out, no
/// strongly connected component has two files or more. A circle means
/// neither file can be read, changed or split alone.
#[test]
fn no_source_files_import_each_other_in_a_circle() {
    let krate = krate();
    let edges = resolve::edges(krate);
    let circles = resolve::circles(krate.files.len(), &edges);
    let described: Vec<String> = circles
        .iter()
        .map(|circle| {
            let names: Vec<&str> = circle
                .iter()
                .map(|&f| krate.files[f].rel.as_str())
                .collect();
            let inside = edges
                .iter()
                .filter(|e| circle.contains(&e.from) && circle.contains(&e.to));
            let arrows: Vec<String> = inside
                .map(|e| {
                    let (from, to) = (&krate.files[e.from].rel, &krate.files[e.to].rel);
                    format!("      {from}:{} → {to} via {}", e.line, e.path)
                })
                .collect();
            format!(
                "{} files: {}\n{}",
                names.len(),
                names.join(", "),
                arrows.join("\n")
            )
        })
        .collect();
    assert!(
        described.is_empty(),
        "{}",
        report(
            "circles of files that import each other",
            &described,
            "Break each circle by cutting one of its arrows: move the shared item into its \
             own file that both sides import, or pass it in from the caller."
        )
    );
}

/// Sizes: no file over [`sizes::MAX_FILE_LINES`] lines before its tests,
/// no function over [`sizes::MAX_FN_LINES`] lines, so each reads whole.
#[test]
fn no_file_or_function_is_longer_than_its_limit() {
    let krate = krate();
    let mut problems = vec![];
    for file in &krate.files {
        let lines = sizes::counted_lines(&file.text);
        if lines > sizes::MAX_FILE_LINES {
            problems.push(format!(
                "{}: file of {lines} lines before its tests",
                file.rel
            ));
        }
        for f in sizes::functions(&file.tokens, &file.test) {
            if f.lines > sizes::MAX_FN_LINES {
                problems.push(format!(
                    "{}:{}: fn {} of {} lines",
                    file.rel, f.line, f.name, f.lines
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}",
        report(
            &format!(
                "files over {} lines or functions over {} lines",
                sizes::MAX_FILE_LINES,
                sizes::MAX_FN_LINES
            ),
            &problems,
            "Split the file by job into sibling modules, or the function into named steps."
        )
    );
}
