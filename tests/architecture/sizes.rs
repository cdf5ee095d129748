//! The size limits: lines per file before its tests, lines per function.

use crate::source::{Token, is_ident};

/// The most lines a file may have before its test module.
pub const MAX_FILE_LINES: usize = 450;

/// The most lines a function may span, from its `fn` line to its closing
/// brace.
pub const MAX_FN_LINES: usize = 80;

/// The lines of `text` that count towards its size: all of them, or those
/// before the first top-level `#[cfg(test)]` that marks a `mod` (the unit
/// tests that follow do not count).
pub fn counted_lines(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let is_test_mod = |k: usize| {
        let next = lines[k + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty() && !l.starts_with("#[") && !l.starts_with("//"));
        next.is_some_and(|l| l.split_whitespace().take(2).any(|w| w == "mod"))
    };
    let cut = (0..lines.len()).find(|&k| lines[k].trim_end() == "#[cfg(test)]" && is_test_mod(k));
    cut.unwrap_or(lines.len())
}

/// A function with a body and its span in lines.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// The line of its `fn`.
    pub line: usize,
    /// Lines from its `fn` line to its closing brace, both included.
    pub lines: usize,
}

/// Every function and method with a body outside test-only code, in
/// stripped tokens (`fn name` followed, after its signature and any
/// `where` clause, by a body; trait methods without a body are skipped).
pub fn functions(tokens: &[Token], test: &[bool]) -> Vec<Function> {
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
    let mut found = vec![];
    for i in 0..tokens.len() {
        if text(i) != "fn" || !is_ident(text(i + 1)) || test[i] {
            continue;
        }
        let mut depth = 0usize;
        let body = (i + 2..tokens.len()).find_map(|k| {
            match text(k) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                ";" if depth == 0 => return Some(None),
                "{" if depth == 0 => return Some(Some(k)),
                _ => {}
            }
            None
        });
        let Some(Some(open)) = body else { continue };
        let close = closing_brace(tokens, open);
        found.push(Function {
            name: text(i + 1).to_string(),
            line: tokens[i].line,
            lines: tokens[close].line - tokens[i].line + 1,
        });
    }
    found
}

/// The index of the brace that closes the one at `open`.
fn closing_brace(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tokens.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{strip, test_mask, tokenize};

    #[test]
    fn a_function_spans_from_its_fn_line_to_its_closing_brace() {
        let src = "trait T {\n    fn bare(&self);\n    fn body(&self) -> u8 {\n        1\n    }\n}\n\
                   fn g<F>(f: F)\nwhere\n    F: Fn() -> u8,\n{\n    let s = \"}\";\n}\n\
                   #[cfg(test)]\nmod tests {\n    fn t() {}\n}\n";
        let tokens = tokenize(&strip(src));
        let found = functions(&tokens, &test_mask(&tokens));
        let spans: Vec<(&str, usize, usize)> = found
            .iter()
            .map(|f| (f.name.as_str(), f.line, f.lines))
            .collect();
        assert_eq!(spans, [("body", 3, 3), ("g", 7, 6)]);
        assert_eq!(counted_lines(src), 12);
    }
}
