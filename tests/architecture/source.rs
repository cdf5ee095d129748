//! Rust source read without a parser: comments and literals blanked out,
//! then a flat list of tokens, each with its line.
//!
//! The checks only need paths, item names, braces and a few keywords, so a
//! small lexer is enough; what it must get right is never to see a path in
//! a comment, a doc comment or a string, and never to miscount a line.

/// One token of stripped source: an identifier (raw identifiers lose their
/// `r#`), a lifetime (`'a`), `::`, `->`, `=>`, a literal placeholder `""`,
/// or any other single character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token's text.
    pub text: String,
    /// Its 1-based line in the file.
    pub line: usize,
}

/// Whether `text` is an identifier or a keyword (`_` included).
pub fn is_ident(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// `src` with every comment (line, block, doc) blanked out and every string,
/// byte string, raw string and char literal replaced by `""`; every newline
/// is kept, so line numbers do not move.
pub fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        let end = if c[i] == '/' && next == Some('/') {
            line_comment_end(&c, i)
        } else if c[i] == '/' && next == Some('*') {
            block_comment_end(&c, i)
        } else if let Some(end) = literal_end(&c, i) {
            out.push_str("\"\"");
            end
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        };
        out.extend(c[i..end].iter().filter(|&&ch| ch == '\n'));
        i = end;
    }
    out
}

/// Where the line comment starting at `i` ends (its newline is kept).
fn line_comment_end(c: &[char], i: usize) -> usize {
    c[i..]
        .iter()
        .position(|&ch| ch == '\n')
        .map_or(c.len(), |n| i + n)
}

/// Where the block comment starting at `i` ends; block comments nest.
fn block_comment_end(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        match (c[i], c.get(i + 1).copied()) {
            ('/', Some('*')) => {
                depth += 1;
                i += 2;
            }
            ('*', Some('/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    c.len()
}

/// Where the string or char literal starting at `i` ends, if one starts
/// there: `"…"`, `b"…"`, `c"…"`, `r#"…"#`, `br"…"`, `'x'`, `b'\n'`, … A
/// lifetime (`'a`) is not a literal.
fn literal_end(c: &[char], i: usize) -> Option<usize> {
    let starts_word = i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    let mut j = i;
    if starts_word && matches!(c[j], 'b' | 'c') && matches!(c.get(j + 1), Some('"' | 'r' | '\'')) {
        j += 1;
    }
    match c[j] {
        '"' => Some(quoted_end(c, j + 1, '"')),
        '\'' => char_end(c, j),
        'r' if starts_word || j > i => raw_end(c, j),
        _ => None,
    }
}

/// Where a quoted literal whose body starts at `i` ends, escapes skipped.
fn quoted_end(c: &[char], mut i: usize, quote: char) -> usize {
    while i < c.len() {
        if c[i] == '\\' {
            i += 2;
        } else if c[i] == quote {
            return i + 1;
        } else {
            i += 1;
        }
    }
    c.len()
}

/// Where the char literal at `i` ends, or `None` for a lifetime or label.
fn char_end(c: &[char], i: usize) -> Option<usize> {
    match (c.get(i + 1), c.get(i + 2)) {
        (Some('\\'), _) => Some(quoted_end(c, i + 1, '\'')),
        (Some(_), Some('\'')) => Some(i + 3),
        _ => None,
    }
}

/// Where the raw string whose `r` is at `i` ends, or `None` when the `r`
/// starts an identifier (`r#type`, `rules`).
fn raw_end(c: &[char], i: usize) -> Option<usize> {
    let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
    if c.get(i + 1 + hashes) != Some(&'"') {
        return None;
    }
    let mut k = i + 2 + hashes;
    while k < c.len() {
        if c[k] == '"'
            && c[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&ch| ch == '#')
                .count()
                == hashes
        {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(c.len())
}

/// The tokens of stripped source (see [`strip`]).
pub fn tokenize(stripped: &str) -> Vec<Token> {
    let c: Vec<char> = stripped.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        let word = |from: usize| {
            let len = c[from..]
                .iter()
                .take_while(|&&x| x.is_ascii_alphanumeric() || x == '_');
            from + len.count()
        };
        let (end, text) = if ch == '\n' {
            line += 1;
            i += 1;
            continue;
        } else if ch.is_whitespace() {
            i += 1;
            continue;
        } else if ch.is_ascii_digit() {
            (word(i), None)
        } else if ch == 'r'
            && c.get(i + 1) == Some(&'#')
            && c.get(i + 2)
                .is_some_and(|x| x.is_ascii_alphabetic() || *x == '_')
        {
            let end = word(i + 2);
            (end, Some(c[i + 2..end].iter().collect()))
        } else if ch.is_ascii_alphabetic() || ch == '_' || ch == '\'' {
            let end = word(i + 1);
            (end, Some(c[i..end].iter().collect()))
        } else {
            let pair: String = c[i..(i + 2).min(c.len())].iter().collect();
            match pair.as_str() {
                "::" | "->" | "=>" | "\"\"" => (i + 2, Some(pair)),
                _ => (i + 1, Some(ch.to_string())),
            }
        };
        if let Some(text) = text {
            tokens.push(Token { text, line });
        }
        i = end;
    }
    tokens
}

/// For each token, whether it belongs to test-only code: an item marked
/// `#[cfg(test)]` (usually `mod tests { … }`), from the attribute to the
/// item's `;` or closing brace.
pub fn test_mask(tokens: &[Token]) -> Vec<bool> {
    let mut mask = vec![false; tokens.len()];
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
    for i in 0..tokens.len() {
        let attr = ["#", "[", "cfg", "(", "test", ")", "]"];
        if attr.iter().enumerate().all(|(k, a)| text(i + k) == *a) {
            let end = item_end(tokens, i + attr.len());
            mask[i..end].iter_mut().for_each(|m| *m = true);
        }
    }
    mask
}

/// The end (exclusive) of the item starting at `start`, after any further
/// attributes: its `;` at depth 0 or the brace closing its first block.
fn item_end(tokens: &[Token], start: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(start) {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" => depth = depth.saturating_sub(1),
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            ";" if depth == 0 => return k + 1,
            _ => {}
        }
    }
    tokens.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        tokenize(&strip(src)).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn comments_strings_and_chars_hide_their_paths_but_keep_lines() {
        let src = "a // crate::x\n/* crate::y\n /* nested */ */ b \"crate::z\\\"\" c\n\
                   r#\"crate::w \"# d b'x' '\\'' 'e' r#type br\"q\" f<'a>";
        let stripped = strip(src);
        assert!(!stripped.contains("crate"), "{stripped}");
        assert_eq!(stripped.lines().count(), 4);
        let words: Vec<String> = texts(src).into_iter().filter(|t| is_ident(t)).collect();
        assert_eq!(words, ["a", "b", "c", "d", "type", "f"]);
        assert!(texts("f<'a>").contains(&"'a".to_string()));
    }

    #[test]
    fn a_cfg_test_item_is_masked_to_its_end() {
        let tokens = tokenize(&strip("x; #[cfg(test)] mod t { y; } z;"));
        let mask = test_mask(&tokens);
        let masked: Vec<&str> = tokens
            .iter()
            .zip(&mask)
            .filter(|(_, m)| **m)
            .map(|(t, _)| t.text.as_str())
            .collect();
        assert_eq!(masked.join(" "), "# [ cfg ( test ) ] mod t { y ; }");
        assert!(!mask[tokens.len() - 1]);
    }
}
