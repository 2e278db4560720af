//! KLEE's `.ktest` files: one per witness, so `ktest-tool` shows them and a
//! libkleeRuntest-style replay (objects matched in the order the harness
//! makes them symbolic) runs them. Format, version 3, integers big-endian:
//! "KTEST", version, argument count and arguments (length-prefixed),
//! symbolic argv count and length, object count, then per object its name
//! (length-prefixed), byte count and bytes.

use super::json::Report;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8] = b"KTEST";
const VERSION: u32 = 3;

/// Writes `test000001.ktest`, ... into `dir` (created if needed), one per
/// finding that has a witness, in report order; returns the paths.
pub fn write_ktests(dir: &Path, report: &Report) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for finding in &report.findings {
        let Some(witness) = &finding.witness else { continue };
        let mut objects: Vec<(&str, Vec<u8>)> = Vec::new();
        // Creation order, as KLEE's replay expects; inputs the report does
        // not order (older reports) follow by name.
        let mut names: Vec<&str> = report.symbolic_inputs.iter().map(|i| i.name.as_str()).collect();
        for name in witness.keys() {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        for name in names {
            if let Some(hex) = witness.get(name) {
                objects.push((name, decode_hex(hex)));
            }
        }
        let path = dir.join(format!("test{:06}.ktest", written.len() + 1));
        let mut out = Vec::new();
        encode(&mut out, &report.input, &objects);
        std::fs::File::create(&path)?.write_all(&out)?;
        written.push(path);
    }
    Ok(written)
}

fn encode(out: &mut Vec<u8>, program: &str, objects: &[(&str, Vec<u8>)]) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_be_bytes());
    out.extend_from_slice(&1u32.to_be_bytes());
    put_bytes(out, program.as_bytes());
    out.extend_from_slice(&0u32.to_be_bytes()); // symbolic argv count
    out.extend_from_slice(&0u32.to_be_bytes()); // symbolic argv length
    out.extend_from_slice(&(objects.len() as u32).to_be_bytes());
    for (name, bytes) in objects {
        put_bytes(out, name.as_bytes());
        put_bytes(out, bytes);
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(bytes);
}

fn decode_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_klee_version_3() {
        let mut out = Vec::new();
        encode(&mut out, "h.c", &[("x", vec![1, 2, 3, 4])]);
        let mut want = b"KTEST".to_vec();
        want.extend_from_slice(&[0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 3]);
        want.extend_from_slice(b"h.c");
        want.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, b'x', 0, 0, 0, 4, 1, 2, 3, 4]);
        assert_eq!(out, want);
    }
}
