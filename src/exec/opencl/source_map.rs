//! Where the text of an OpenCL program built from source lives in the
//! user's files, so that findings in kernels point there: either a .cl file
//! next to a host source with exactly that text (the host read it at run
//! time), or string literals in a host source whose concatenation contains
//! the text (the usual `"line\n"` per line idiom). When neither is found,
//! locations name the program and where it was built.

use std::path::Path;

/// Where each line of a program's source is.
pub enum SourceOrigin {
    /// A file with exactly the program's text: lines are unchanged.
    File(String),
    /// String literals in `file`: program line n (from 1) is at `lines[n-1]`
    /// (host line, host column of the line's first character).
    Literals { file: String, lines: Vec<(u32, u32)> },
}

/// Finds the origin of `source` among the host program's files.
pub fn locate(source: &str, host_files: &[String]) -> Option<SourceOrigin> {
    if source.trim().is_empty() {
        return None;
    }
    let user_files: Vec<&String> = host_files.iter().filter(|f| is_user_source(f)).collect();
    for f in &user_files {
        if let Some(origin) = in_literals(source, f) {
            return Some(origin);
        }
    }
    for f in &user_files {
        let dir = match Path::new(f.as_str()).parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut cl: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "cl")).collect();
        cl.sort();
        for p in cl {
            if std::fs::read(&p).is_ok_and(|t| t == source.as_bytes()) {
                let shown = p.strip_prefix(".").unwrap_or(&p);
                return Some(SourceOrigin::File(shown.display().to_string()));
            }
        }
    }
    None
}

/// A host source of the user's (not the runtime model's, not a system
/// header) that exists on disk.
fn is_user_source(f: &str) -> bool {
    let runtime = crate::frontend::runtime_dir().map(|d| d.display().to_string());
    !f.is_empty() && !f.starts_with("/usr/") && !runtime.is_some_and(|r| f.starts_with(&r)) && Path::new(f).is_file()
}

/// The contents of the string literals of a C file, concatenated, with the
/// host line and column of every character.
fn literal_text(text: &str) -> (String, Vec<(u32, u32)>) {
    let mut out = String::new();
    let mut at = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n as u32 + 1;
        let trimmed = line.trim_start();
        // Comments and preprocessor lines hold no program text.
        if trimmed.starts_with("//") || trimmed.starts_with('#') || trimmed.starts_with("/*") || trimmed.starts_with('*') {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '\'' {
                // Skip a character literal such as '"'.
                i += if chars.get(i + 1) == Some(&'\\') { 4 } else { 3 };
                continue;
            }
            if chars[i] != '"' {
                i += 1;
                continue;
            }
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let column = i as u32 + 1;
                let c = if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                    match chars[i] {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        other => other,
                    }
                } else {
                    chars[i]
                };
                out.push(c);
                at.push((line_no, column));
                i += 1;
            }
            i += 1;
        }
    }
    (out, at)
}

fn in_literals(source: &str, file: &str) -> Option<SourceOrigin> {
    let text = std::fs::read_to_string(file).ok()?;
    let (literals, at) = literal_text(&text);
    let start = literals.find(source)?;
    // Character index (not byte index) of the match, to index `at`.
    let first = literals[..start].chars().count();
    let mut lines = Vec::new();
    let mut line_start = true;
    for (k, c) in source.chars().enumerate() {
        if line_start {
            lines.push(at[first + k]);
        }
        line_start = c == '\n';
    }
    Some(SourceOrigin::Literals { file: file.to_string(), lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_lines_map_to_host_lines() {
        let dir = tempfile::tempdir().unwrap();
        let host = dir.path().join("host.c");
        std::fs::write(
            &host,
            "#include <x.h>\n// \"not this\"\nstatic const char *src =\n    \"__kernel void k(__global int *p) {\\n\"\n    \"  p[0] = '\\\"';\\n\"\n  \"}\\n\";\n",
        )
        .unwrap();
        let source = "__kernel void k(__global int *p) {\n  p[0] = '\"';\n}\n";
        let Some(SourceOrigin::Literals { file, lines }) = locate(source, &[host.display().to_string()]) else { panic!("not found") };
        assert_eq!(file, host.display().to_string());
        assert_eq!(lines, vec![(4, 6), (5, 6), (6, 4)]);
    }

    #[test]
    fn an_identical_cl_file_is_the_origin() {
        let dir = tempfile::tempdir().unwrap();
        let host = dir.path().join("host.c");
        std::fs::write(&host, "int main(void) { return 0; }\n").unwrap();
        std::fs::write(dir.path().join("other.cl"), "kernel void a() {}\n").unwrap();
        std::fs::write(dir.path().join("k.cl"), "kernel void k() {}\n").unwrap();
        let origin = locate("kernel void k() {}\n", &[host.display().to_string()]);
        assert!(matches!(origin, Some(SourceOrigin::File(f)) if f.ends_with("/k.cl")));
        assert!(locate("kernel void z() {}\n", &[host.display().to_string()]).is_none());
    }
}
