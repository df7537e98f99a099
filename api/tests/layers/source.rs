//! What the checker reads of a source file: its code without comments, strings or inline test
//! modules, and the paths that code names.

/// `text` with comments blanked and string and character literals emptied, so that a path
/// named in a doc comment or a message is not taken for a use.
pub fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_string(&chars, i) {
            i = skip_raw_string(&chars, i);
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && is_char_literal(&chars, i) {
            i += 1;
            while chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the `r` at `at` opens a raw string (`r"…"`, `r#"…"#`) rather than ending a name.
fn is_raw_string(chars: &[char], at: usize) -> bool {
    let after_name = at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_');
    if after_name {
        return false;
    }
    let mut i = at + 1;
    while chars.get(i) == Some(&'#') {
        i += 1;
    }
    chars.get(i) == Some(&'"')
}

/// The index just past the raw string that opens at `at`.
fn skip_raw_string(chars: &[char], at: usize) -> usize {
    let mut i = at + 1;
    let mut hashes = 0;
    while chars[i] == '#' {
        hashes += 1;
        i += 1;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// Whether the quote at `at` opens a character literal (`'a'`, `'\n'`), not a lifetime.
fn is_char_literal(chars: &[char], at: usize) -> bool {
    match chars.get(at + 1) {
        Some('\\') => true,
        Some(_) => chars.get(at + 2) == Some(&'\''),
        None => false,
    }
}

/// `code` without its inline test modules (`#[cfg(test)] mod name { … }`): tests may reach
/// anything, and no design rule is about them.
pub fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(start) = rest.find("#[cfg(test)]") {
        let after = &rest[start + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_inline_module = trimmed.starts_with("mod ")
            && trimmed.find(['{', ';']).is_some_and(|at| trimmed.as_bytes()[at] == b'{');
        if !is_inline_module {
            out.push_str(&rest[..start + "#[cfg(test)]".len()]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..start]);
        let open = start
            + "#[cfg(test)]".len()
            + (after.len() - trimmed.len())
            + trimmed.find('{').unwrap_or(0);
        let mut depth = 0;
        let mut end = rest.len();
        for (offset, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A `use` declaration: whether it re-exports (`pub use`, `pub(crate) use`, …) and each path it
/// names, braces expanded, with the name it binds.
#[derive(Debug, PartialEq, Eq)]
pub struct UseDecl {
    pub reexport: bool,
    pub paths: Vec<UsePath>,
}

/// One path of a `use` declaration: `segments` (`["super", "games", "GameHub"]`, a trailing
/// `self` or `*` dropped) and the name it binds (`None` for a glob).
#[derive(Debug, PartialEq, Eq)]
pub struct UsePath {
    pub segments: Vec<String>,
    pub binds: Option<String>,
}

/// Every `use` declaration of `code`.
pub fn use_decls(code: &str) -> Vec<UseDecl> {
    use_spans(code)
        .into_iter()
        .map(|(start, end, reexport)| {
            let words: Vec<&str> = code[start + "use ".len()..end].split_whitespace().collect();
            let tree = words.join(" ").replace(" as ", "@").replace(' ', "");
            let mut paths = Vec::new();
            expand(&tree, &mut Vec::new(), &mut paths);
            UseDecl { reexport, paths }
        })
        .collect()
}

/// Where each `use` declaration of `code` stands: from its `use` to its `;`, and whether it
/// re-exports.
fn use_spans(code: &str) -> Vec<(usize, usize, bool)> {
    let bytes = code.as_bytes();
    let mut spans = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let starts_word =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if !starts_word {
            continue;
        }
        let statement_start = code[..at].rfind(['\n', ';', '{', '}']).map_or(0, |i| i + 1);
        let before = code[statement_start..at].trim();
        let reexport = before.starts_with("pub");
        if !(before.is_empty() || reexport) {
            continue;
        }
        let Some(length) = code[at..].find(';') else { continue };
        spans.push((at, at + length, reexport));
    }
    spans
}

/// Expands a use tree (`a::{b, c::{self, D}}`) under `prefix` into its paths.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<UsePath>) {
    let (head, group) = match tree.find('{') {
        Some(open) if tree.ends_with('}') => (&tree[..open], Some(&tree[open + 1..tree.len() - 1])),
        _ => (tree, None),
    };
    let depth = prefix.len();
    for segment in head.split("::").filter(|segment| !segment.is_empty()) {
        prefix.push(segment.to_owned());
    }
    match group {
        Some(group) => {
            for part in split_top_level(group) {
                expand(part, prefix, out);
            }
        }
        None => out.push(use_path(prefix)),
    }
    prefix.truncate(depth);
}

/// The path `segments` binds, its alias (`name@alias`, written `name as alias`), `self` and
/// `*` read.
fn use_path(segments: &[String]) -> UsePath {
    let mut segments = segments.to_vec();
    let last = segments.pop().unwrap_or_default();
    let (name, alias) = match last.split_once('@') {
        Some((name, alias)) => (name.to_owned(), Some(alias.to_owned())),
        None => (last, None),
    };
    match name.as_str() {
        "*" => UsePath { segments, binds: None },
        "self" => {
            let binds = alias.or_else(|| segments.last().cloned());
            UsePath { segments, binds }
        }
        _ => {
            segments.push(name.clone());
            UsePath { segments, binds: Some(alias.unwrap_or(name)) }
        }
    }
}

/// The comma-separated parts of a brace group, nested groups kept whole.
fn split_top_level(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts.into_iter().filter(|part| !part.is_empty()).collect()
}

/// Every path written in code outside `use` declarations (`crate::live::Broadcast`,
/// `super::super::Clock`, `task::restore`), as its segments: those that name none of the
/// crate's modules are dropped when resolved.
pub fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut without_uses = code.to_owned();
    for (start, end, _) in use_spans(code) {
        without_uses.replace_range(start..end, &" ".repeat(end - start));
    }
    let bytes = without_uses.as_bytes();
    let mut paths = Vec::new();
    for (at, _) in without_uses.match_indices("::") {
        let start = without_uses[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let first = &without_uses[start..at];
        let continues_a_path = start >= 1 && bytes[start - 1] == b':';
        let is_module_like = first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        if continues_a_path || !is_module_like {
            continue;
        }
        let rest = &without_uses[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let segments: Vec<String> = rest[..end]
            .split("::")
            .take_while(|segment| !segment.is_empty())
            .map(str::to_owned)
            .collect();
        paths.push(segments);
    }
    paths
}
