//! The crate's module tree as the compiler would build it from `mod`
//! declarations, with what each module defines and imports, and every
//! path that leaves a file's own names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::parse::Parser;
use crate::source::{Token, strip, test_mask, tokenize};

/// A module: its crate (the library, or the binary of `main.rs`) and its
/// path from that crate's root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModPath {
    /// Whether the module belongs to the binary crate rooted at `main.rs`.
    pub bin: bool,
    /// The names from the crate root down to the module.
    pub segs: Vec<String>,
}

impl ModPath {
    /// The module `name` inside this one.
    pub fn child(&self, name: &str) -> ModPath {
        let mut segs = self.segs.clone();
        segs.push(name.to_string());
        ModPath {
            bin: self.bin,
            segs,
        }
    }

    /// Whether `self` is `other` or inside it.
    pub fn within(&self, other: &ModPath) -> bool {
        self.bin == other.bin && self.segs.starts_with(&other.segs)
    }
}

/// A name brought into a module by `use`, or a glob import.
#[derive(Clone, Debug)]
pub struct Import {
    /// The module whose `use` it is (paths are relative to it).
    pub scope: ModPath,
    /// The imported path as written (`super`, `self`, `crate` included).
    pub segs: Vec<String>,
}

/// What one module holds, by name.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// The file the module's items are written in.
    pub file: usize,
    /// Modules declared in it (`mod x;` or `mod x { … }`).
    pub children: BTreeSet<String>,
    /// Items it defines: structs, enums, unions, traits, types, consts,
    /// statics, functions, `macro_rules!`.
    pub items: BTreeSet<String>,
    /// Names it imports (`use a::b as c` is `c`).
    pub imports: BTreeMap<String, Import>,
    /// Its glob imports (`use a::*`).
    pub globs: Vec<Import>,
}

/// A path written in a file that may lead outside it.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The file it is written in.
    pub file: usize,
    /// The module it is written in (an inline `mod` counts).
    pub scope: ModPath,
    /// The path's segments as written.
    pub segs: Vec<String>,
    /// Its line.
    pub line: usize,
    /// Whether it is in test-only code (`#[cfg(test)]`).
    pub test: bool,
    /// `Some(public)` for a `use` (re-exported or not), `None` for a path in
    /// code, types or attributes.
    pub import: Option<bool>,
}

/// One source file of the crate.
#[derive(Clone, Debug)]
pub struct File {
    /// Its path relative to the crate directory (`src/rules/game.rs`).
    pub rel: String,
    /// The module it is the file of.
    pub module: ModPath,
    /// Its raw text.
    pub text: String,
    /// Its tokens, comments and literals stripped.
    pub tokens: Vec<Token>,
    /// For each token, whether it is test-only code.
    pub test: Vec<bool>,
}

/// The library and binary crates of the package, as read from `src/`.
#[derive(Debug, Default)]
pub struct Crate {
    /// Every file reached from `lib.rs` and `main.rs` through `mod`.
    pub files: Vec<File>,
    /// Every module, inline ones included.
    pub modules: BTreeMap<ModPath, Module>,
    /// Every path that may lead outside its file, `use` paths included.
    pub references: Vec<Reference>,
}

impl Crate {
    /// Reads the crate under `root`: `src/lib.rs`, `src/main.rs` and every
    /// file their `mod` declarations reach, sorted by path.
    pub fn read(root: &Path) -> Crate {
        let mut found = Crate::default();
        let mut todo = vec![];
        for (name, bin) in [("lib.rs", false), ("main.rs", true)] {
            let path = root.join("src").join(name);
            if path.exists() {
                todo.push((path, ModPath { bin, segs: vec![] }));
            }
        }
        let mut files = vec![];
        while let Some((path, module)) = todo.pop() {
            let index = found.add_file(root, &path, module.clone());
            for (child, dir) in found.parse(index) {
                todo.push((child_file(&root.join(dir), &child), child));
            }
            files.push((path, module));
        }
        files.sort();
        let mut krate = Crate::default();
        for (path, module) in files {
            let index = krate.add_file(root, &path, module);
            krate.parse(index);
        }
        krate
    }

    /// Reads one file and appends it; returns its index.
    fn add_file(&mut self, root: &Path, path: &Path, module: ModPath) -> usize {
        let text = fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let rel = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let tokens = tokenize(&strip(&text));
        let test = test_mask(&tokens);
        self.files.push(File {
            rel,
            module,
            text,
            tokens,
            test,
        });
        self.files.len() - 1
    }

    /// Records the modules, items, imports and references of file `index`;
    /// returns the file modules it declares, each with the directory (from
    /// the crate's) its file is in.
    fn parse(&mut self, index: usize) -> Vec<(ModPath, PathBuf)> {
        let file = &self.files[index];
        let parser = Parser {
            tokens: &file.tokens,
            test: &file.test,
            file: index,
            dir: module_dir(&file.rel),
            modules: &mut self.modules,
            references: &mut self.references,
            declared: vec![],
        };
        parser.run(file.module.clone())
    }
}

/// The directory where the file modules declared in file `rel` live:
/// beside `lib.rs`, `main.rs` and `mod.rs`, in `a/b/` for `a/b.rs`.
fn module_dir(rel: &str) -> PathBuf {
    let path = Path::new(rel);
    let dir = path.parent().unwrap_or(Path::new(""));
    match path.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => dir.to_path_buf(),
        _ => dir.join(path.file_stem().unwrap_or_default()),
    }
}

/// The file of module `child` declared with `mod` for directory `dir`:
/// `dir/name.rs` or `dir/name/mod.rs`.
fn child_file(dir: &Path, child: &ModPath) -> PathBuf {
    let name = child.segs.last().expect("a declared module has a name");
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    match (flat.exists(), nested.exists()) {
        (true, _) => flat,
        (false, true) => nested,
        (false, false) => panic!("`mod {name};` has no file {}", flat.display()),
    }
}
