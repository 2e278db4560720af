//! Human-readable printing: infix with explicit brackets, byte runs of an
//! input shown as `name[first..last]`, floating-point constants shown as
//! numbers where an FP operation consumes them, and subterms used more than
//! once named `N0`, `N1`, ... and defined before the expression.

use super::*;

/// A piece of output still to write (`Printer::stream`).
enum Piece {
    Text(&'static str),
    Owned(String),
    /// A subterm: its name if it has one, else spelled out.
    Term(ExprId, Option<FpFormat>),
    /// A subterm spelled out even when it has a name.
    Node(ExprId, Option<FpFormat>),
}

struct Printer<'a> {
    pool: &'a ExprPool,
    names: FxHashMap<ExprId, String>,
    defs: Vec<String>,
    mark: Option<ExprId>,
}

/// Prints `root` as `N0 := ...` lines followed by the expression.
pub fn print_expr(pool: &ExprPool, root: ExprId) -> String {
    print_with(pool, &[root], None).pop().unwrap_or_default()
}

/// Prints two expressions with shared subterms named across both and the
/// first differing subterm of each side marked with `⟪ ⟫`. Returns
/// (definitions, left, right).
pub fn print_pair(pool: &ExprPool, a: ExprId, b: ExprId) -> (String, String, String) {
    let (da, db) = first_difference(pool, a, b);
    let mut p = Printer::new(pool, &[a, b], None);
    p.mark = Some(da);
    let left = p.render(a, None);
    p.mark = Some(db);
    let right = p.render(b, None);
    (p.defs.join("\n"), left, right)
}

/// Prints two expressions with shared subterms named across both, no
/// subterm marked (the operands of a comparison). Returns (definitions,
/// left, right).
pub fn print_operands(pool: &ExprPool, a: ExprId, b: ExprId) -> (String, String, String) {
    let mut p = Printer::new(pool, &[a, b], None);
    let left = p.render(a, None);
    let right = p.render(b, None);
    (p.defs.join("\n"), left, right)
}

fn print_with(pool: &ExprPool, roots: &[ExprId], mark: Option<ExprId>) -> Vec<String> {
    let mut p = Printer::new(pool, roots, mark);
    let rendered: Vec<String> = roots.iter().map(|r| p.render(*r, None)).collect();
    let mut out = Vec::new();
    for r in rendered {
        let mut s = p.defs.join("\n");
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&r);
        out.push(s);
    }
    out
}

/// The first pair of corresponding subterms that differ, walking both
/// sides in step while they have the same operator.
pub fn first_difference(pool: &ExprPool, mut a: ExprId, mut b: ExprId) -> (ExprId, ExprId) {
    loop {
        if std::mem::discriminant(&*pool.get(a)) != std::mem::discriminant(&*pool.get(b)) || !same_operator(pool, a, b) {
            return (a, b);
        }
        let (ca, cb) = (pool.children(a), pool.children(b));
        if ca.len() != cb.len() {
            return (a, b);
        }
        match ca.iter().zip(cb.iter()).find(|(x, y)| x != y) {
            Some((x, y)) => {
                a = *x;
                b = *y;
            }
            None => return (a, b),
        }
    }
}

fn same_operator(pool: &ExprPool, a: ExprId, b: ExprId) -> bool {
    match (&*pool.get(a), &*pool.get(b)) {
        (Expr::Bin(x, ..), Expr::Bin(y, ..)) => x == y,
        (Expr::Cmp(x, ..), Expr::Cmp(y, ..)) => x == y,
        (Expr::FBin(x, f, ..), Expr::FBin(y, g, ..)) => x == y && f == g,
        (Expr::FUn(x, f, _), Expr::FUn(y, g, _)) => x == y && f == g,
        (Expr::FCmp(x, f, ..), Expr::FCmp(y, g, ..)) => x == y && f == g,
        (Expr::Extract { offset: o1, width: w1, .. }, Expr::Extract { offset: o2, width: w2, .. }) => o1 == o2 && w1 == w2,
        (Expr::Apply(f), Expr::Apply(g)) => f.function == g.function,
        (Expr::Const { .. }, _) | (Expr::Input { .. }, _) | (Expr::Fresh { .. }, _) => false,
        _ => pool.width(a) == pool.width(b),
    }
}

impl<'a> Printer<'a> {
    fn new(pool: &'a ExprPool, roots: &[ExprId], mark: Option<ExprId>) -> Self {
        // Count parents to find shared subterms.
        let mut uses: FxHashMap<ExprId, u32> = FxHashMap::default();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<ExprId> = roots.to_vec();
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            for c in pool.children(e) {
                *uses.entry(c).or_default() += 1;
                stack.push(c);
            }
        }
        let mut p = Printer { pool, names: FxHashMap::default(), defs: Vec::new(), mark };
        let mut shared: Vec<ExprId> = uses.into_iter().filter(|(e, n)| *n > 1 && !p.is_leafish(*e)).map(|(e, _)| e).collect();
        shared.sort();
        // Define in id order: children have smaller ids, so definitions
        // only mention names already defined.
        for e in shared {
            let body = p.render_node(e, None);
            let name = format!("N{}", p.defs.len());
            p.defs.push(format!("{name} := {body}"));
            p.names.insert(e, name);
        }
        p
    }

    fn is_leafish(&self, e: ExprId) -> bool {
        matches!(&*self.pool.get(e), Expr::Const { .. } | Expr::Input { .. } | Expr::Fresh { .. }) || self.byte_run(e).is_some()
    }

    /// `e` as text: its name when it has one, marked when it is `mark`.
    fn render(&mut self, e: ExprId, fp: Option<FpFormat>) -> String {
        self.stream(Piece::Term(e, fp))
    }

    /// `e` spelled out (never its own name; its subterms may be names).
    fn render_node(&mut self, e: ExprId, fp: Option<FpFormat>) -> String {
        self.stream(Piece::Node(e, fp))
    }

    /// Writes `first` into one string with an explicit stack of pieces
    /// still to write, so that the depth of an expression never becomes
    /// recursion depth (a chain of a million dependent operations prints).
    fn stream(&mut self, first: Piece) -> String {
        let mut out = String::new();
        let mut todo = vec![first];
        while let Some(piece) = todo.pop() {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Owned(t) => out.push_str(&t),
                Piece::Term(e, fp) => {
                    let marked = self.mark == Some(e);
                    if marked {
                        out.push('⟪');
                        todo.push(Piece::Text("⟫"));
                    }
                    match self.names.get(&e) {
                        Some(n) => out.push_str(n),
                        None => todo.push(Piece::Node(e, fp)),
                    }
                }
                Piece::Node(e, fp) => {
                    let start = todo.len();
                    self.pieces(e, fp, &mut todo);
                    // Pieces were pushed in reading order; the stack pops
                    // from the end.
                    todo[start..].reverse();
                }
            }
        }
        out
    }

    /// The pieces that spell `e` out, in reading order.
    fn pieces(&self, e: ExprId, fp: Option<FpFormat>, out: &mut Vec<Piece>) {
        use Piece::{Owned, Term, Text};
        if let Some((a, i, j)) = self.byte_run(e) {
            out.push(Owned(self.input_range(a, i, j)));
            return;
        }
        let pool = self.pool;
        let infix = |out: &mut Vec<Piece>, a: Piece, sym: &'static str, b: Piece| {
            out.extend([Text("("), a, Text(" "), Text(sym), Text(" "), b, Text(")")]);
        };
        match pool.get(e).into_owned() {
            Expr::Const { width, value } => out.push(Owned(self.constant(width, value, fp))),
            Expr::Input { array, index } => out.push(Owned(format!("{}[{index}]", self.array_name(array)))),
            Expr::Fresh { id, width } => out.push(Owned(format!("fresh{id}:i{width}"))),
            Expr::Bin(op, a, b) => {
                let sym = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::UDiv => "/u",
                    BinOp::SDiv => "/s",
                    BinOp::URem => "%u",
                    BinOp::SRem => "%s",
                    BinOp::And => "&",
                    BinOp::Or => "|",
                    BinOp::Xor => "^",
                    BinOp::Shl => "<<",
                    BinOp::LShr => ">>u",
                    BinOp::AShr => ">>s",
                };
                infix(out, Term(a, None), sym, Term(b, None));
            }
            Expr::Not(a) => out.extend([Text("~"), Term(a, None)]),
            Expr::Cmp(op, a, b) => {
                let sym = match op {
                    CmpOp::Eq => "==",
                    CmpOp::Ult => "<u",
                    CmpOp::Ule => "<=u",
                    CmpOp::Slt => "<s",
                    CmpOp::Sle => "<=s",
                };
                infix(out, Term(a, None), sym, Term(b, None));
            }
            Expr::Ite(c, t, f) => out.extend([Text("("), Term(c, None), Text(" ? "), Term(t, fp), Text(" : "), Term(f, fp), Text(")")]),
            Expr::Concat(h, l) => out.extend([Text("concat("), Term(h, None), Text(", "), Term(l, None), Text(")")]),
            Expr::Extract { value, offset, width } => {
                out.extend([Term(value, None), Owned(format!("[bits {}..{}]", offset, offset + width - 1))])
            }
            Expr::ZExt(a, w) => out.extend([Owned(format!("zext{w}(")), Term(a, None), Text(")")]),
            Expr::SExt(a, w) => out.extend([Owned(format!("sext{w}(")), Term(a, None), Text(")")]),
            Expr::FBin(op, f, a, b) => {
                let (x, y) = (Term(a, Some(f)), Term(b, Some(f)));
                let sym = match op {
                    FBinOp::Add => "+.",
                    FBinOp::Sub => "-.",
                    FBinOp::Mul => "*.",
                    FBinOp::Div => "/.",
                    FBinOp::Rem => "%.",
                    FBinOp::Min | FBinOp::Max => {
                        let name = if op == FBinOp::Min { "fmin" } else { "fmax" };
                        out.extend([Owned(format!("{name}.{}(", f.name())), x, Text(", "), y, Text(")")]);
                        return;
                    }
                };
                infix(out, x, sym, y);
            }
            Expr::FUn(op, f, a) => {
                let name = format!("{op:?}").to_lowercase();
                out.extend([Owned(format!("{name}.{}(", f.name())), Term(a, Some(f)), Text(")")]);
            }
            Expr::Fma(f, a, b, c) => out.extend([
                Owned(format!("fma.{}(", f.name())),
                Term(a, Some(f)),
                Text(", "),
                Term(b, Some(f)),
                Text(", "),
                Term(c, Some(f)),
                Text(")"),
            ]),
            Expr::FCmp(set, f, a, b) => {
                out.extend([Owned(format!("{}(", set.name())), Term(a, Some(f)), Text(", "), Term(b, Some(f)), Text(")")])
            }
            Expr::FpToInt { signed, rounding, from, value, width } => {
                let r = if rounding == IntRounding::TowardZero { "" } else { ".rne" };
                let s = if signed { "si" } else { "ui" };
                out.extend([Owned(format!("fpto{s}{width}{r}(")), Term(value, Some(from)), Text(")")]);
            }
            Expr::IntToFp { signed, to, value } => {
                let s = if signed { "si" } else { "ui" };
                out.extend([Owned(format!("{s}to{}(", to.name())), Term(value, None), Text(")")]);
            }
            Expr::FpConvert { from, to, value } => out.extend([Owned(format!("({})", to.name())), Term(value, Some(from))]),
            Expr::LogRead(r) => {
                let writes = super::log_read::updates(&r.newest).count();
                out.extend([Owned(format!("read{}(", r.len(pool) * 8)), Term(r.offset, None)]);
                out.extend([Owned(format!(" through {writes} writes, over ")), Term(r.base, None), Text(")")]);
            }
            Expr::InputAt { array, index } => {
                out.extend([Owned(format!("{}[", self.array_name(array))), Term(index, None), Text("]")]);
            }
            Expr::Apply(app) => {
                let (function, args) = (&app.function, &app.args);
                out.push(Owned(format!("{function}(")));
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(Text(", "));
                    }
                    out.push(Term(*a, None));
                }
                out.push(Text(")"));
            }
        }
    }

    /// `name[i..j]` when `e` is consecutive bytes of one input, little-endian.
    fn byte_run(&self, e: ExprId) -> Option<(u32, u32, u32)> {
        let mut bytes = Vec::new();
        let mut cur = e;
        loop {
            match &*self.pool.get(cur) {
                Expr::Concat(h, l) => {
                    let Expr::Input { array, index } = *self.pool.get(*h) else { return None };
                    bytes.push((array, index));
                    cur = *l;
                }
                Expr::Input { array, index } => {
                    bytes.push((*array, *index));
                    break;
                }
                _ => return None,
            }
        }
        let (array, top) = bytes[0];
        let n = bytes.len() as u32;
        if n < 2 || top + 1 < n {
            return None;
        }
        let first = top + 1 - n;
        for (k, (a, i)) in bytes.iter().enumerate() {
            if *a != array || *i != top - k as u32 {
                return None;
            }
        }
        Some((array, first, top))
    }

    /// Bytes `i..=j` of input `a`: `src[1]` when they are exactly one
    /// element of the input's type, `src[4..7]` (bytes) otherwise.
    fn input_range(&self, a: u32, i: u32, j: u32) -> String {
        let name = self.array_name(a);
        match self.pool.arrays().get(a as usize).and_then(|x| x.element) {
            Some(t) if i.is_multiple_of(t.size()) && j + 1 - i == t.size() => format!("{name}[{}]", i / t.size()),
            _ => format!("{name}[{i}..{j}]"),
        }
    }

    fn array_name(&self, a: u32) -> String {
        self.pool.arrays().get(a as usize).map(|x| x.name.clone()).unwrap_or_else(|| format!("in{a}"))
    }

    fn constant(&self, width: Width, value: u128, fp: Option<FpFormat>) -> String {
        match fp {
            Some(FpFormat::Single) if width == 32 => single_literal(f32::from_bits(value as u32)),
            Some(FpFormat::Double) if width == 64 => float_literal(f64::from_bits(value as u64), ""),
            Some(FpFormat::Half) if width == 16 => float_literal(half::f16::from_bits(value as u16).to_f64(), "h"),
            _ if width == 1 => (if value != 0 { "true" } else { "false" }).to_string(),
            _ if value < 10 => format!("{value}"),
            _ => format!("0x{:0w$x}", value, w = width.div_ceil(4) as usize),
        }
    }
}

/// A float constant with the shortest decimal that reads back as the same
/// float (through f64, 0.1f would print as 0.10000000149011612f).
fn single_literal(v: f32) -> String {
    if v.is_finite() && v != v.trunc() {
        format!("{v}f")
    } else {
        float_literal(v as f64, "f")
    }
}

fn float_literal(v: f64, suffix: &str) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "+inf" } else { "-inf" }.into()
    } else if v == 0.0 && v.is_sign_negative() {
        format!("-0.0{suffix}")
    } else if v == v.trunc() && v.abs() < 1e15 {
        format!("{v:.1}{suffix}")
    } else {
        format!("{v}{suffix}")
    }
}
