//! The rows of src/neon/coverage.tsv (same columns as the x86 list:
//! intrinsic name, status, LLVM signature), shared by the NEON tests.

#![allow(dead_code)]

pub use super::x86sig::{parse_signature, Row};

pub const COVERAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/neon/coverage.tsv");

pub fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(COVERAGE).expect("src/neon/coverage.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "coverage row needs name, status, signature: {l}");
            // Structured loads return a struct of vectors, shown as void.
            let sig = match cols[2].find('}') {
                Some(end) if cols[2].starts_with('{') => format!("void{}", &cols[2][end + 1..]),
                _ => cols[2].to_string(),
            };
            let (ret, args) = parse_signature(&sig);
            Row { name: cols[0].into(), status: cols[1].into(), ret, args, signature: cols[2].into() }
        })
        .collect()
}
