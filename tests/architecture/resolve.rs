//! Where a path leads: from the path as written in one module to the file
//! that defines what it names, through imports and re-exports.

use std::collections::BTreeMap;

use crate::modules::{Crate, ModPath, Reference};

/// How deep imports may chain before a path counts as unresolvable (a
/// guard against `use` cycles the compiler would refuse anyway).
const MAX_HOPS: usize = 16;

/// The file a resolved path leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The file that defines the item named.
    Item(usize),
    /// The file of the module named (the path stops at a module).
    Module(usize),
    /// The file of the last module reached when the next name is found
    /// neither as an item, a module nor an import (an item a macro
    /// defines, or a variant): the best guess, usually right.
    Guess(usize),
}

/// `segs` written in module `scope`, made absolute: `crate`, `self`,
/// `super` (repeated), a child module's name or an imported name replaced
/// by the module path it stands for. `None` for a path outside the
/// package (`std::…`, an external crate, a type parameter, `Self`).
pub fn absolute(krate: &Crate, scope: &ModPath, segs: &[String]) -> Option<ModPath> {
    absolute_at(krate, scope, segs, 0)
}

fn absolute_at(krate: &Crate, scope: &ModPath, segs: &[String], hops: usize) -> Option<ModPath> {
    if hops > MAX_HOPS {
        return None;
    }
    let (first, rest) = segs.split_first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (
            ModPath {
                bin: scope.bin,
                segs: vec![],
            },
            rest,
        ),
        "botifarra" => (
            ModPath {
                bin: false,
                segs: vec![],
            },
            rest,
        ),
        "self" => (scope.clone(), rest),
        "super" => {
            let ups = segs.iter().take_while(|s| *s == "super").count();
            let keep = scope.segs.len().checked_sub(ups)?;
            let base = ModPath {
                bin: scope.bin,
                segs: scope.segs[..keep].to_vec(),
            };
            (base, &segs[ups..])
        }
        name => {
            let module = krate.modules.get(scope)?;
            if module.children.contains(name) {
                (scope.child(name), rest)
            } else {
                let import = module.imports.get(name)?;
                let base = absolute_at(krate, &import.scope, &import.segs, hops + 1)?;
                (base, rest)
            }
        }
    };
    base.segs.extend(rest.iter().cloned());
    Some(base)
}

/// The file an absolute path leads to: the defining file of the item it
/// names, following re-exports and globs, or the file of the module it
/// names. `None` when an import on the way leads outside the package.
pub fn resolve(krate: &Crate, path: &ModPath) -> Option<Target> {
    resolve_at(krate, path, 0)
}

fn resolve_at(krate: &Crate, path: &ModPath, hops: usize) -> Option<Target> {
    if hops > MAX_HOPS {
        return None;
    }
    let mut at = ModPath {
        bin: path.bin,
        segs: vec![],
    };
    for (k, name) in path.segs.iter().enumerate() {
        let module = krate.modules.get(&at)?;
        let rest = &path.segs[k + 1..];
        let is_child = module.children.contains(name);
        if is_child && !(rest.is_empty() && module.items.contains(name)) {
            at = at.child(name);
            continue;
        }
        if module.items.contains(name) {
            return Some(Target::Item(module.file));
        }
        if let Some(import) = module.imports.get(name) {
            let mut target = absolute_at(krate, &import.scope, &import.segs, hops + 1)?;
            target.segs.extend(rest.iter().cloned());
            return resolve_at(krate, &target, hops + 1);
        }
        for glob in &module.globs {
            let Some(mut target) = absolute_at(krate, &glob.scope, &glob.segs, hops + 1) else {
                continue;
            };
            target.segs.extend(path.segs[k..].iter().cloned());
            if let Some(found @ (Target::Item(_) | Target::Module(_))) =
                resolve_at(krate, &target, hops + 1)
            {
                return Some(found);
            }
        }
        return Some(Target::Guess(module.file));
    }
    krate.modules.get(&at).map(|m| Target::Module(m.file))
}

/// An import of one file by another: `from` uses an item `to` defines.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The importing file.
    pub from: usize,
    /// The defining file.
    pub to: usize,
    /// The first line of `from` that makes the edge.
    pub line: usize,
    /// The path written there.
    pub path: String,
}

/// The file that `reference` makes its file depend on, if any.
///
/// Not an edge: a path outside the package, test-only code, a path to the
/// file itself, a `use` of a module (its uses `module::Name` are the
/// edges), a module re-exporting what its own submodules define (`pub
/// use child::Name`: declaring and re-exporting a submodule is not
/// importing it), and a path to the file of one of the file's ancestor
/// modules (see [`is_ancestor_file`]).
pub fn edge_of(krate: &Crate, reference: &Reference) -> Option<usize> {
    if reference.test {
        return None;
    }
    let path = absolute(krate, &reference.scope, &reference.segs)?;
    let to = match resolve(krate, &path)? {
        Target::Module(_) if reference.import.is_some() => return None,
        Target::Item(file) | Target::Module(file) | Target::Guess(file) => file,
    };
    let re_export_of_own = reference.import == Some(true) && path.within(&reference.scope);
    let upwards = is_ancestor_file(krate, reference.file, to);
    (to != reference.file && !re_export_of_own && !upwards).then_some(to)
}

/// Whether file `to` is the front page (`mod.rs`, `lib.rs`, `main.rs`, or
/// the `x.rs` beside an `x/` folder) of a module that encloses file
/// `from`'s module. A child may use what its parents define: `act.rs`
/// naming `super::Service` from `service/mod.rs` while `mod.rs` calls
/// `act::…` is the usual shape of a module whose children add `impl`
/// blocks to its type, not a circle. Circles are still found among
/// siblings (also when one reaches the other through the parent's
/// re-export) and across modules.
pub fn is_ancestor_file(krate: &Crate, from: usize, to: usize) -> bool {
    let (from, to) = (&krate.files[from].module, &krate.files[to].module);
    from != to && from.within(to)
}

/// Every edge between files, one per pair (the first line that makes it).
pub fn edges(krate: &Crate) -> Vec<Edge> {
    let mut first: BTreeMap<(usize, usize), Edge> = BTreeMap::new();
    for reference in &krate.references {
        if let Some(to) = edge_of(krate, reference) {
            let from = reference.file;
            let edge = first.entry((from, to)).or_insert_with(|| Edge {
                from,
                to,
                line: reference.line,
                path: reference.segs.join("::"),
            });
            if reference.line < edge.line {
                edge.line = reference.line;
                edge.path = reference.segs.join("::");
            }
        }
    }
    first.into_values().collect()
}

/// The strongly connected components of the graph on `nodes` files with
/// `edges` (Tarjan's algorithm), each sorted, those of one file left out.
pub fn circles(nodes: usize, edges: &[Edge]) -> Vec<Vec<usize>> {
    let mut next = vec![vec![]; nodes];
    for e in edges {
        next[e.from].push(e.to);
    }
    let mut tarjan = Tarjan {
        next,
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        ..Tarjan::default()
    };
    for v in 0..nodes {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    let mut found: Vec<Vec<usize>> = tarjan
        .components
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect();
    for circle in &mut found {
        circle.sort_unstable();
    }
    found.sort();
    found
}

/// The state of Tarjan's strongly connected components search.
#[derive(Default)]
struct Tarjan {
    next: Vec<Vec<usize>>,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
    counter: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan {
    /// Numbers `v`, searches from it, and pops its component if `v` is
    /// the component's root.
    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for w in self.next[v].clone() {
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut component = vec![];
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use super::*;

    /// Writes a small crate of `files` (path, text) into a fresh directory.
    fn fixture(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let root = std::env::temp_dir().join(format!("arch-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().expect("a file has a folder")).expect("mkdir");
            fs::write(path, text).expect("write");
        }
        root
    }

    #[test]
    fn edges_follow_imports_and_re_exports_to_the_defining_file() {
        let root = fixture(
            "edges",
            &[
                ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
                (
                    "src/a/mod.rs",
                    "mod inner;\npub mod x;\npub use inner::Thing;\npub use x::*;\n\
                     pub struct Root;\n#[cfg(test)]\nmod tests {\n    use crate::b::Far;\n}\n",
                ),
                (
                    "src/a/inner.rs",
                    "use super::Root;\n// crate::b::Far\nconst S: &str = \"crate::b::Far\";\n\
                     pub struct Thing;\n",
                ),
                ("src/a/x.rs", "pub mod deep;\npub fn globbed() {}\n"),
                (
                    "src/a/x/deep.rs",
                    "use super::super::{self as top, inner as renamed};\n\
                     pub fn f() -> renamed::Thing { let _ = top::Root; todo!() }\n",
                ),
                (
                    "src/b.rs",
                    "use crate::a::{Thing as T, globbed};\nuse crate::c::C;\npub struct Far;\n",
                ),
                (
                    "src/c.rs",
                    "pub struct C;\nfn h() -> crate::b::Far { todo!() }\n",
                ),
            ],
        );
        let krate = Crate::read(&root);
        let rel = |f: usize| krate.files[f].rel.trim_start_matches("src/").to_string();
        let found: Vec<(String, String)> = edges(&krate)
            .iter()
            .map(|e| (rel(e.from), rel(e.to)))
            .collect();
        // `a/inner.rs` naming `super::Root` and `a/x/deep.rs` naming
        // `top::Root` lead to `a/mod.rs`, the file of an ancestor: no edge.
        let expected = [
            ("a/x/deep.rs", "a/inner.rs"),
            ("b.rs", "a/inner.rs"),
            ("b.rs", "a/x.rs"),
            ("b.rs", "c.rs"),
            ("c.rs", "b.rs"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let mut found_sorted = found.clone();
        found_sorted.sort();
        assert_eq!(found_sorted, expected);
        let circles = circles(krate.files.len(), &edges(&krate));
        let named: Vec<Vec<String>> = circles
            .iter()
            .map(|c| c.iter().map(|&f| rel(f)).collect())
            .collect();
        assert_eq!(named, [["b.rs", "c.rs"]]);
        let _ = fs::remove_dir_all(root);
    }

    #[test]
    fn children_may_use_their_parents_but_siblings_may_not_use_each_other() {
        let root = fixture(
            "ancestors",
            &[
                (
                    "src/lib.rs",
                    "pub mod p;
pub struct Top;
",
                ),
                (
                    "src/p/mod.rs",
                    "mod kid;
mod game;
mod hand;
pub use game::Event;
                     pub struct Parent;
pub fn run() -> kid::Kid { todo!() }
",
                ),
                (
                    "src/p/kid.rs",
                    "use super::Parent;
use crate::Top;
pub struct Kid(Parent, Top);
",
                ),
                (
                    "src/p/game.rs",
                    "use super::hand::Hand;
pub struct Event(pub Hand);
",
                ),
                (
                    "src/p/hand.rs",
                    "use super::Event;
pub struct Hand;
fn f(_: Event) {}
",
                ),
            ],
        );
        let krate = Crate::read(&root);
        let rel = |f: usize| krate.files[f].rel.trim_start_matches("src/").to_string();
        let mut found: Vec<(String, String)> = edges(&krate)
            .iter()
            .map(|e| (rel(e.from), rel(e.to)))
            .collect();
        found.sort();
        // `kid.rs` uses `p/mod.rs` and `lib.rs`, its ancestors' files, while
        // `p/mod.rs` calls into `kid.rs`: one edge, no circle. `hand.rs`
        // reaches `game.rs` through the parent's re-export: a sibling edge.
        let expected = [
            ("p/game.rs", "p/hand.rs"),
            ("p/hand.rs", "p/game.rs"),
            ("p/mod.rs", "p/kid.rs"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(found, expected);
        let named: Vec<Vec<String>> = circles(krate.files.len(), &edges(&krate))
            .iter()
            .map(|c| c.iter().map(|&f| rel(f)).collect())
            .collect();
        assert_eq!(named, [["p/game.rs", "p/hand.rs"]]);
        let _ = fs::remove_dir_all(root);
    }
}
