//! Parsing of the `coverage.tsv` rows shared by the SIMD tests: intrinsic
//! name, status, and LLVM signature (`<4 x float>(<4 x float>, i32 immarg)`).

#![allow(dead_code)]

use symcross::expr::FpFormat;
use symcross::ir::Type;

pub struct Row {
    pub name: String,
    pub status: String,
    pub ret: Type,
    pub args: Vec<(Type, bool)>,
    pub signature: String,
}

pub const COVERAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/simd/coverage.tsv");

pub fn parse_type(t: &str) -> Type {
    let t = t.trim();
    if let Some(inner) = t.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        let (n, elem) = inner.split_once(" x ").expect("vector type");
        return Type::Vector { elem: Box::new(parse_type(elem)), len: n.trim().parse().expect("lanes") };
    }
    match t {
        "float" => Type::Float(FpFormat::Single),
        "double" => Type::Float(FpFormat::Double),
        "half" => Type::Float(FpFormat::Half),
        "bfloat" => Type::Int(16),
        "ptr" => Type::Ptr { addr_space: 0 },
        "void" => Type::Void,
        "x86_mmx" => Type::Int(64),
        _ => Type::Int(t.strip_prefix('i').and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("type {t}"))),
    }
}

/// Splits `ret(args)` into the result type and (type, is-immediate) pairs.
pub fn parse_signature(sig: &str) -> (Type, Vec<(Type, bool)>) {
    let open = sig.find('(').expect("signature");
    let ret = parse_type(&sig[..open]);
    let inner = &sig[open + 1..sig.len() - 1];
    let args = inner
        .split(", ")
        .filter(|s| !s.is_empty())
        .map(|a| {
            let imm = a.contains("immarg");
            let ty: Vec<&str> = a.split_whitespace().filter(|w| !matches!(*w, "immarg" | "noundef" | "nocapture")).collect();
            (parse_type(&ty.join(" ")), imm)
        })
        .collect();
    (ret, args)
}

pub fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(COVERAGE).expect("coverage.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "coverage row needs name, status, signature: {l}");
            let (ret, args) = parse_signature(cols[2]);
            Row { name: cols[0].into(), status: cols[1].into(), ret, args, signature: cols[2].into() }
        })
        .collect()
}
