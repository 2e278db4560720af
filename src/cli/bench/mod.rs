//! `symcross bench`: runs the sections `--only` names (all by default) in
//! their fixed order and writes their Markdown to `--markdown`, or prints
//! it after the figures. The measuring is sections.rs; `--peers` adds the
//! table of peers.rs.

mod peers;
mod sections;

use super::args::BenchArgs;
use crate::Error;
use sections::SECTIONS;

/// Runs `symcross bench` with its arguments; the exit status is 0 unless
/// a section fails with an error.
pub fn bench(a: BenchArgs) -> Result<i32, Error> {
    let wanted: Vec<String> = match &a.only {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None if a.peers => Vec::new(),
        None => SECTIONS.iter().map(|s| s.to_string()).collect(),
    };
    if let Some(bad) = wanted.iter().find(|w| !SECTIONS.contains(&w.as_str())) {
        return Err(Error::Usage(format!("unknown bench section `{bad}` (expected one of {})", SECTIONS.join(", "))));
    }
    let mut md = String::new();
    for name in SECTIONS.iter().filter(|s| wanted.iter().any(|w| w == *s)) {
        md.push_str(&sections::section(name)?);
    }
    if a.peers {
        md.push_str(&peers::peers_section()?);
    }
    if let Some(path) = a.markdown {
        std::fs::write(&path, &md).map_err(|e| Error::Io(path.clone(), e))?;
    } else {
        println!("\n{md}");
    }
    Ok(0)
}
