//! Finding and reading rule directories: the built-in `rewrite-rules/`
//! (or `$SYMCROSS_RULES`) and user directories given with `--rules DIR`.

use super::parse::parse_rules;
use super::{Rule, RuleError};
use std::path::{Path, PathBuf};

/// `$SYMCROSS_RULES` if set, else the repository's `rewrite-rules/`.
pub fn builtin_rules_dir() -> PathBuf {
    match std::env::var_os("SYMCROSS_RULES") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rewrite-rules")),
    }
}

/// Every `*.rules` file of `dir`, in name order.
pub fn load_dir(dir: &Path) -> Result<Vec<Rule>, RuleError> {
    let io = |e: std::io::Error| RuleError::Io { path: dir.display().to_string(), message: e.to_string() };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    let mut rules = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| RuleError::Io { path: f.display().to_string(), message: e.to_string() })?;
        rules.extend(parse_rules(&text, &f)?);
    }
    Ok(rules)
}
