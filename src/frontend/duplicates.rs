//! When llvm-link fails because two inputs define the same symbol (two
//! harnesses that each have a `main`), say which files clash and that one
//! should be dropped, instead of llvm-link's "symbol multiply defined".
//! Only run after a failed link: each pair of inputs is linked alone to
//! find the pair that clashes.

use std::path::{Path, PathBuf};

/// The symbol llvm-link names in `Linking globals named 'main': symbol
/// multiply defined!`, if that is the error.
pub fn multiply_defined(stderr: &str) -> Option<String> {
    let line = stderr.lines().find(|l| l.contains("symbol multiply defined"))?;
    let start = line.find("named '")? + "named '".len();
    let end = start + line[start..].find('\'')?;
    Some(line[start..end].to_string())
}

/// The first two inputs (`sources[i]`, compiled to `objects[i]`) that
/// cannot be linked together, if any pair fails alone.
pub fn clashing_pair(llvm_link: &Path, sources: &[PathBuf], objects: &[PathBuf], scratch: &Path) -> Option<(PathBuf, PathBuf)> {
    let out = scratch.join("pair-check.bc");
    for j in 1..objects.len() {
        for i in 0..j {
            let pair = [objects[i].clone(), objects[j].clone()];
            if super::link::link(llvm_link, &pair, &out).is_err() {
                return Some((sources[i].clone(), sources[j].clone()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_symbol_from_llvm_links_message() {
        let stderr = "llvm-link-19: error: Linking globals named 'main': symbol multiply defined!\n";
        assert_eq!(multiply_defined(stderr).as_deref(), Some("main"));
        assert_eq!(multiply_defined("error: something else"), None);
    }
}
