//! SMT-LIB 2 printer for queries: the text the FP backend sends to a solver
//! process (cvc5 or z3).
//!
//! Each shared DAG node is printed once as `(define-fun nK () (_ BitVec w)
//! ...)`, so the text stays linear in the DAG size. Every value is a
//! bit-vector, as in the DAG; floating-point operations reinterpret their
//! operands with `(_ to_fp e s)` and come back to bits through the exact
//! encodings of `smtlib_fp.rs`. Input bytes are `a{array}_{index}`, fresh
//! values `f{id}`: the names `process.rs` asks values of. An input read
//! at a symbolic position (`Expr::InputAt`) is also the array `arr{array}`
//! (64-bit positions to bytes), its elements at the positions read at
//! numbers asserted equal to those bytes; the position and byte of each
//! such read are asked too, and give the model's bytes there.

use super::Query;
use crate::expr::{BinOp, CmpOp, Expr, ExprId, ExprPool, Width};
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// A variable whose value makes up the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ModelVar {
    Byte {
        array: u32,
        index: u32,
    },
    Fresh {
        id: u32,
        width: Width,
    },
    /// A read of input `array` at a symbolic position: the terms naming
    /// the position and the byte read.
    ReadAt {
        array: u32,
        size: u32,
        position: String,
        byte: String,
    },
}

impl ModelVar {
    /// The terms whose values `get-value` is asked for this variable.
    pub(crate) fn names(&self) -> Vec<String> {
        match self {
            ModelVar::Byte { array, index } => vec![format!("a{array}_{index}")],
            ModelVar::Fresh { id, .. } => vec![format!("f{id}")],
            ModelVar::ReadAt { position, byte, .. } => vec![position.clone(), byte.clone()],
        }
    }
}

/// The SMT-LIB sort of an input's bytes by position.
const ARRAY_SORT: &str = "(Array (_ BitVec 64) (_ BitVec 8))";

/// A complete SMT-LIB script (check-sat and get-value included).
#[derive(Clone, Debug)]
pub struct SmtScript {
    /// The script, ready to be piped to the solver.
    pub text: String,
    pub(crate) vars: Vec<ModelVar>,
    /// Half precision appears (cvc5 1.0.3 needs `--fp-exp` for it).
    pub uses_half: bool,
}

/// The name of an uninterpreted function: one per name and signature, as
/// SMT-LIB has no overloading.
pub(crate) fn uf_name(function: &str, arg_widths: &[Width], width: Width) -> String {
    let mut s = String::from("uf_");
    for ch in function.chars() {
        match ch {
            'a'..='z' | 'A'..='Z' | '0'..='9' => s.push(ch),
            _ => {
                let _ = write!(s, "_{:x}_", ch as u32);
            }
        }
    }
    for w in arg_widths {
        let _ = write!(s, "_{w}");
    }
    let _ = write!(s, "_to{width}");
    s
}

/// A bit-vector literal of exactly `width` bits.
pub(crate) fn bv_lit(width: Width, value: u128) -> String {
    let mut s = String::with_capacity(width as usize + 2);
    s.push_str("#b");
    for i in (0..width).rev() {
        s.push(if (value >> i) & 1 == 1 { '1' } else { '0' });
    }
    s
}

pub(crate) fn bv_sort(width: Width) -> String {
    format!("(_ BitVec {width})")
}

/// Prints `query` as a script ending in check-sat and get-value.
pub fn print_query(pool: &ExprPool, query: &Query) -> SmtScript {
    let constraints = query.constraints();
    let mut p = Printer {
        pool,
        assume: query.assumptions,
        body: String::new(),
        decls: String::new(),
        done: FxHashSet::default(),
        vars: Vec::new(),
        ufs: FxHashSet::default(),
        has_fp: false,
        uses_half: false,
        read_at: std::collections::BTreeSet::new(),
    };
    for &c in &constraints {
        p.define_all(c);
    }
    for &c in &constraints {
        let _ = writeln!(p.body, "(assert {})", p.truth(c));
    }
    // The bytes of an input read at a symbolic position and at numbers are
    // one: its array's elements there are those bytes.
    for v in &p.vars {
        if let ModelVar::Byte { array, index } = v {
            if p.read_at.contains(array) {
                let _ = writeln!(p.body, "(assert (= (select arr{array} (_ bv{index} 64)) a{array}_{index}))");
            }
        }
    }
    let logic = if !p.ufs.is_empty() || (p.has_fp && !p.read_at.is_empty()) {
        "ALL"
    } else if p.has_fp {
        "QF_BVFP"
    } else if !p.read_at.is_empty() {
        "QF_ABV"
    } else {
        "QF_BV"
    };
    let mut text = format!("(set-option :produce-models true)\n(set-logic {logic})\n");
    text.push_str(&p.decls);
    text.push_str(&p.body);
    text.push_str("(check-sat)\n");
    if !p.vars.is_empty() {
        let names: Vec<String> = p.vars.iter().flat_map(|v| v.names()).collect();
        let _ = writeln!(text, "(get-value ({}))", names.join(" "));
    }
    text.push_str("(exit)\n");
    SmtScript { text, vars: p.vars, uses_half: p.uses_half }
}

pub(crate) struct Printer<'a> {
    pub(crate) pool: &'a ExprPool,
    pub(crate) assume: crate::assumptions::Assumptions,
    /// define-fun, declare-fun of helper values and their asserts.
    pub(crate) body: String,
    /// declare-fun of inputs, fresh values and functions.
    decls: String,
    done: FxHashSet<ExprId>,
    vars: Vec<ModelVar>,
    ufs: FxHashSet<String>,
    pub(crate) has_fp: bool,
    pub(crate) uses_half: bool,
    /// The inputs read at symbolic positions (their arrays are declared).
    read_at: std::collections::BTreeSet<u32>,
}

impl Printer<'_> {
    /// The term naming node `id` (constants are printed inline).
    pub(crate) fn term(&self, id: ExprId) -> String {
        match &*self.pool.get(id) {
            Expr::Const { width, value } => bv_lit(*width, *value),
            Expr::Input { array, index } => format!("a{array}_{index}"),
            Expr::Fresh { id, .. } => format!("f{id}"),
            _ => format!("n{}", id.index()),
        }
    }

    /// A Boolean formula true when the width-1 node `id` is 1. Comparisons
    /// are asserted directly, which lets solvers substitute `x = c`.
    fn truth(&self, id: ExprId) -> String {
        // An explicit stack of what is still to write: conjunctions and
        // negations nest as deep as the path condition.
        enum Piece {
            Text(&'static str),
            Formula(ExprId),
        }
        let mut out = String::new();
        let mut todo = vec![Piece::Formula(id)];
        while let Some(piece) = todo.pop() {
            let id = match piece {
                Piece::Text(t) => {
                    out.push_str(t);
                    continue;
                }
                Piece::Formula(id) => id,
            };
            match &*self.pool.get(id) {
                Expr::Cmp(op, a, b) => {
                    let _ = write!(out, "({} {} {})", cmp_name(*op), self.term(*a), self.term(*b));
                }
                Expr::Not(a) if self.pool.width(*a) == 1 => {
                    out.push_str("(not ");
                    todo.extend([Piece::Text(")"), Piece::Formula(*a)]);
                }
                Expr::Bin(BinOp::And, a, b) if self.pool.width(*a) == 1 => {
                    out.push_str("(and ");
                    todo.extend([Piece::Text(")"), Piece::Formula(*b), Piece::Text(" "), Piece::Formula(*a)]);
                }
                _ => {
                    let _ = write!(out, "(= {} #b1)", self.term(id));
                }
            }
        }
        out
    }

    /// Defines `root` and everything below it, children first.
    fn define_all(&mut self, root: ExprId) {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.done.contains(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(self.pool.children(id).into_iter().map(|c| (c, false)));
                continue;
            }
            self.done.insert(id);
            self.define(id);
        }
    }

    pub(crate) fn define_bv(&mut self, name: &str, width: Width, term: &str) {
        let _ = writeln!(self.body, "(define-fun {name} () {} {term})", bv_sort(width));
    }

    fn define(&mut self, id: ExprId) {
        let w = self.pool.width(id);
        let name = self.term(id);
        let t = |e: &ExprId| self.term(*e);
        let term = match self.pool.get(id).into_owned() {
            Expr::Const { .. } => return,
            Expr::Input { array, index } => {
                let _ = writeln!(self.decls, "(declare-fun {name} () {})", bv_sort(8));
                self.vars.push(ModelVar::Byte { array, index });
                return;
            }
            Expr::Fresh { id: f, width } => {
                let _ = writeln!(self.decls, "(declare-fun {name} () {})", bv_sort(width));
                self.vars.push(ModelVar::Fresh { id: f, width });
                return;
            }
            Expr::Bin(op, a, b) => format!("({} {} {})", bin_name(op), t(&a), t(&b)),
            Expr::Not(a) => format!("(bvnot {})", t(&a)),
            Expr::Cmp(op, a, b) => format!("(ite ({} {} {}) #b1 #b0)", cmp_name(op), t(&a), t(&b)),
            Expr::Ite(c, a, b) => format!("(ite (= {} #b1) {} {})", t(&c), t(&a), t(&b)),
            Expr::Concat(h, l) => format!("(concat {} {})", t(&h), t(&l)),
            Expr::Extract { value, offset, width } => {
                format!("((_ extract {} {offset}) {})", offset + width - 1, t(&value))
            }
            Expr::ZExt(a, to) => format!("((_ zero_extend {}) {})", to - self.pool.width(a), t(&a)),
            Expr::SExt(a, to) => format!("((_ sign_extend {}) {})", to - self.pool.width(a), t(&a)),
            Expr::InputAt { array, index } => {
                if self.read_at.insert(array) {
                    let _ = writeln!(self.decls, "(declare-fun arr{array} () {ARRAY_SORT})");
                }
                let size = self.pool.arrays().get(array as usize).map_or(0, |a| a.size);
                let at = self.term(index);
                self.vars.push(ModelVar::ReadAt { array, size, position: at.clone(), byte: name.clone() });
                // 0 past the declared end (input_at.rs).
                format!("(ite (bvult {at} (_ bv{size} 64)) (select arr{array} {at}) #x00)")
            }
            Expr::LogRead(r) => {
                let (offset, base) = (t(&r.offset), t(&r.base));
                let mut word = String::new();
                for k in 0..r.len(self.pool) {
                    let (candidates, otherwise) = crate::expr::log_read::byte_sources(self.pool, &r, k);
                    let mut byte = match otherwise {
                        Some(b) => t(&b),
                        None => format!("((_ extract {} {}) {base})", 8 * k + 7, 8 * k),
                    };
                    for c in candidates.iter().rev() {
                        byte = format!("(ite (= (bvadd {offset} (_ bv{} 64)) {}) {} {byte})", c.delta, t(&c.at), t(&c.byte));
                    }
                    // Little-endian: later bytes are higher.
                    word = if k == 0 { byte } else { format!("(concat {byte} {word})") };
                }
                word
            }
            Expr::Apply(app) => {
                let (function, args, width) = (&app.function, &app.args, app.width);
                let widths: Vec<Width> = args.iter().map(|a| self.pool.width(*a)).collect();
                let f = uf_name(function, &widths, width);
                if self.ufs.insert(f.clone()) {
                    let sorts: Vec<String> = widths.iter().map(|w| bv_sort(*w)).collect();
                    let _ = writeln!(self.decls, "(declare-fun {f} ({}) {})", sorts.join(" "), bv_sort(width));
                }
                let a: Vec<String> = args.iter().map(|x| self.term(*x)).collect();
                format!("({f} {})", a.join(" "))
            }
            _ => {
                self.has_fp = true;
                self.define_fp(id);
                return;
            }
        };
        self.define_bv(&name, w, &term);
    }
}

fn bin_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        BinOp::Mul => "bvmul",
        BinOp::UDiv => "bvudiv",
        BinOp::SDiv => "bvsdiv",
        BinOp::URem => "bvurem",
        BinOp::SRem => "bvsrem",
        BinOp::And => "bvand",
        BinOp::Or => "bvor",
        BinOp::Xor => "bvxor",
        BinOp::Shl => "bvshl",
        BinOp::LShr => "bvlshr",
        BinOp::AShr => "bvashr",
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ult => "bvult",
        CmpOp::Ule => "bvule",
        CmpOp::Slt => "bvslt",
        CmpOp::Sle => "bvsle",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{ExprPool, FpFormat};

    #[test]
    fn shared_nodes_are_defined_once_and_functions_declared() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let (b0, b1) = (p.input_byte(a, 0), p.input_byte(a, 1));
        let x = p.concat(b1, b0);
        let s = p.fbin(crate::expr::FBinOp::Add, FpFormat::Half, x, x);
        let f = p.apply("sin.f", vec![s], 16);
        let g = p.eq(f, s);
        let script = print_query(&p, &Query::all(vec![g]));
        let t = &script.text;
        assert_eq!(t.matches(&format!("(define-fun n{} ()", s.index())).count(), 1);
        assert!(t.contains("(declare-fun uf_sin_2e_f_16_to16 ((_ BitVec 16)) (_ BitVec 16))"), "{t}");
        assert!(t.contains("(set-logic ALL)") && script.uses_half);
        assert!(t.contains("(get-value (a0_1 a0_0))") || t.contains("(get-value (a0_0 a0_1))"), "{t}");
    }

    /// A lazy read prints as selects on the writes' offsets, over its base.
    #[test]
    fn a_lazy_read_prints_as_its_selects() {
        use crate::expr::log_read::Update;
        let mut p = ExprPool::new();
        let (x, y) = (p.fresh(64), p.fresh(64));
        let seven = p.constant(8, 7);
        let older = std::rc::Rc::new(Update { offset: x, residue: (1, 0), bytes: vec![Some(seven)].into(), older: None });
        let base = p.constant(8, 0);
        let read = p.log_read(older, y, (1, 0), base);
        let zero = p.constant(8, 0);
        let g = p.eq(read, zero);
        let t = print_query(&p, &Query::all(vec![g])).text;
        // The first fresh value is f0, the second f1.
        let (nx, ny) = ("f0", "f1");
        let want = format!("(ite (= (bvadd {ny} (_ bv0 64)) {nx}) #b00000111 ((_ extract 7 0) #b00000000))");
        assert!(t.contains(&want), "{t}");
    }

    #[test]
    fn literals_have_exact_width() {
        assert_eq!(bv_lit(4, 5), "#b0101");
        assert_eq!(bv_lit(1, 1), "#b1");
        assert_eq!(bv_lit(128, u128::MAX).len(), 130);
    }
}
