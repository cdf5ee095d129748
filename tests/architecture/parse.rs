//! One file's tokens read into the crate model: the modules it declares,
//! the items they define, their imports, and every multi-segment path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::modules::{Import, ModPath, Module, Reference};
use crate::source::{Token, is_ident};

/// Keywords that follow `fn`, `const`, `type`, … without naming an item.
const NOT_NAMES: &[&str] = &[
    "fn", "unsafe", "extern", "async", "mut", "_", "self", "Self",
];

/// Keywords that start an item with a name (`macro_rules!` names it one
/// token later).
const ITEM_KEYWORDS: &[&str] = &[
    "struct",
    "enum",
    "union",
    "trait",
    "type",
    "const",
    "static",
    "fn",
    "macro_rules",
];

/// Walks one file's tokens, keeping the stack of braces to know which
/// module (the file's, or an inline `mod x { … }`) each name and path
/// belongs to.
pub struct Parser<'a> {
    /// The file's tokens, comments and literals stripped.
    pub tokens: &'a [Token],
    /// For each token, whether it is test-only code.
    pub test: &'a [bool],
    /// The file's index in the crate.
    pub file: usize,
    /// The directory the file's own `mod x;` declarations point into.
    pub dir: PathBuf,
    /// The crate's modules, added to.
    pub modules: &'a mut BTreeMap<ModPath, Module>,
    /// The crate's references, added to.
    pub references: &'a mut Vec<Reference>,
    /// The file modules declared so far, each with its directory.
    pub declared: Vec<(ModPath, PathBuf)>,
}

impl<'a> Parser<'a> {
    /// The text of token `i`, or `""` out of range.
    fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| t.text.as_str())
    }

    /// Scans the whole file, whose module is `root`; returns the file
    /// modules it declares, each with the directory its file is in.
    pub fn run(mut self, root: ModPath) -> Vec<(ModPath, PathBuf)> {
        self.modules.entry(root.clone()).or_default().file = self.file;
        // One entry per open brace: `Some(module)` for a module's body,
        // `None` for any other block (a function, an impl, a struct).
        let mut stack: Vec<Option<ModPath>> = vec![Some(root)];
        let mut inline = None;
        let mut i = 0;
        while i < self.tokens.len() {
            let at_module_level = stack.last().is_some_and(Option::is_some);
            i = match self.text(i) {
                "mod" if is_ident(self.text(i + 1)) => {
                    inline = self.declare_module(i, &stack);
                    i + 2
                }
                "use" if self.text(i + 1) != "<" => self.parse_use(i, innermost(&stack)),
                "{" => {
                    stack.push(inline.take());
                    i + 1
                }
                "}" if stack.len() > 1 => {
                    stack.pop();
                    i + 1
                }
                "pub" if self.text(i + 1) == "(" => self.skip_group(i + 1),
                word if ITEM_KEYWORDS.contains(&word) => {
                    if at_module_level {
                        self.define_item(i, innermost(&stack));
                    }
                    i + 1
                }
                word if is_ident(word) && !matches!(self.text(i.wrapping_sub(1)), "::" | ".") => {
                    self.parse_path(i, innermost(&stack))
                }
                _ => i + 1,
            };
        }
        self.declared
    }

    /// Declares the module of `mod name` at `i` in the innermost module of
    /// `stack`; returns it when it is inline (its `{` comes next).
    fn declare_module(&mut self, i: usize, stack: &[Option<ModPath>]) -> Option<ModPath> {
        let scope = innermost(stack);
        let name = self.text(i + 1);
        let child = scope.child(name);
        self.modules
            .entry(scope.clone())
            .or_default()
            .children
            .insert(name.to_string());
        if self.text(i + 2) == "{" {
            self.modules.entry(child.clone()).or_default().file = self.file;
            Some(child)
        } else {
            self.declared.push((child, inline_dir(&self.dir, stack)));
            None
        }
    }

    /// Records the item the keyword at `i` defines in `scope`, if it names
    /// one (`const fn`, `*const T` and `<const N: usize>` do not).
    fn define_item(&mut self, i: usize, scope: &ModPath) {
        let name_at = if self.text(i) == "macro_rules" {
            i + 2
        } else {
            i + 1
        };
        let name = self.text(name_at);
        let in_type = matches!(self.text(i.wrapping_sub(1)), "*" | "<" | ",");
        if is_ident(name) && !NOT_NAMES.contains(&name) && !in_type {
            let module = self.modules.entry(scope.clone()).or_default();
            module.items.insert(name.to_string());
        }
    }

    /// The index after the group opened at `open` (parentheses, brackets
    /// or braces, nested).
    fn skip_group(&self, open: usize) -> usize {
        let mut depth = 0usize;
        for k in open..self.tokens.len() {
            match self.text(k) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return k + 1;
                    }
                }
                _ => {}
            }
        }
        self.tokens.len()
    }

    /// Whether the item whose keyword is at `i` is re-exported: `pub`, or
    /// `pub(…)`, right before it.
    fn is_public(&self, i: usize) -> bool {
        let before = i.wrapping_sub(1);
        if self.text(before) != ")" {
            return self.text(before) == "pub";
        }
        let open = (0..before).rev().find(|&k| self.text(k) == "(");
        open.is_some_and(|k| self.text(k.wrapping_sub(1)) == "pub")
    }

    /// Records the path starting at `i` (`a::b::C`, stopping before `::<`,
    /// `::{` or `::*`) if it has more than one segment; returns the index
    /// after it.
    fn parse_path(&mut self, i: usize, scope: &ModPath) -> usize {
        let mut segs = vec![self.text(i).to_string()];
        let mut j = i + 1;
        while self.text(j) == "::" && is_ident(self.text(j + 1)) {
            segs.push(self.text(j + 1).to_string());
            j += 2;
        }
        if segs.len() > 1 {
            self.push_reference(i, scope.clone(), segs, None);
        }
        j
    }

    /// Records a reference written at token `i`.
    fn push_reference(
        &mut self,
        i: usize,
        scope: ModPath,
        segs: Vec<String>,
        import: Option<bool>,
    ) {
        self.references.push(Reference {
            file: self.file,
            scope,
            segs,
            line: self.tokens[i].line,
            test: self.test[i],
            import,
        });
    }

    /// Parses the `use` declaration at `i` into imports of `scope` and
    /// references; returns the index after its `;`.
    fn parse_use(&mut self, i: usize, scope: &ModPath) -> usize {
        let public = self.is_public(i);
        let mut leaves = vec![];
        let mut j = i + 1;
        self.use_tree(&mut j, vec![], &mut leaves);
        for (segs, leaf) in leaves {
            let import = Import {
                scope: scope.clone(),
                segs: segs.clone(),
            };
            let module = self.modules.entry(scope.clone()).or_default();
            match leaf {
                Leaf::Glob => module.globs.push(import),
                Leaf::Name(name) => {
                    module.imports.insert(name, import);
                }
                Leaf::Anonymous => {}
            }
            self.push_reference(i, scope.clone(), segs, Some(public));
        }
        if self.text(j) == ";" { j + 1 } else { i + 1 }
    }

    /// Parses the use tree at `*j` under the path `segs` (`a::b`,
    /// `a::{b, c::d}`, `a::*`, `a::{self, b as c}`) into its leaves.
    fn use_tree(
        &self,
        j: &mut usize,
        mut segs: Vec<String>,
        leaves: &mut Vec<(Vec<String>, Leaf)>,
    ) {
        loop {
            let word = self.text(*j);
            *j += 1;
            match word {
                "::" => {}
                "*" => return leaves.push((segs, Leaf::Glob)),
                "{" => {
                    while !matches!(self.text(*j), "}" | ";" | "") {
                        if self.text(*j) == "," {
                            *j += 1;
                        } else {
                            self.use_tree(j, segs.clone(), leaves);
                        }
                    }
                    *j += 1;
                    return;
                }
                "self" if !segs.is_empty() && self.text(*j) != "::" => {
                    let name = segs.last().cloned().unwrap_or_default();
                    let leaf = self.binding(j, name);
                    return leaves.push((segs, leaf));
                }
                word if is_ident(word) => {
                    segs.push(word.to_string());
                    if self.text(*j) != "::" {
                        let leaf = self.binding(j, word.to_string());
                        return leaves.push((segs, leaf));
                    }
                }
                _ => {
                    *j -= 1;
                    return;
                }
            }
        }
    }

    /// What a use leaf binds: `name`, or the name after `as` at `*j`.
    fn binding(&self, j: &mut usize, name: String) -> Leaf {
        if self.text(*j) != "as" {
            return Leaf::Name(name);
        }
        let renamed = self.text(*j + 1);
        *j += 2;
        if renamed == "_" {
            Leaf::Anonymous
        } else {
            Leaf::Name(renamed.to_string())
        }
    }
}

/// What a use leaf binds.
enum Leaf {
    /// A name (`use a::b` binds `b`; `use a::b as c` binds `c`).
    Name(String),
    /// Every public name of a module (`use a::*`).
    Glob,
    /// Nothing nameable (`use a::Trait as _`).
    Anonymous,
}

/// The module of the innermost module body on `stack` (a block belongs to
/// the module it is written in).
fn innermost(stack: &[Option<ModPath>]) -> &ModPath {
    stack
        .iter()
        .rev()
        .flatten()
        .next()
        .expect("the file's module is at the bottom")
}

/// The directory for a `mod x;` written inside the inline modules on
/// `stack` of a file whose own declarations point into `dir`.
fn inline_dir(dir: &Path, stack: &[Option<ModPath>]) -> PathBuf {
    let file_depth = stack[0].as_ref().map_or(0, |m| m.segs.len());
    let inner = innermost(stack);
    inner.segs[file_depth..]
        .iter()
        .fold(dir.to_path_buf(), |d, s| d.join(s))
}
