//! Side conditions: small named predicates over the e-class a pattern
//! variable is bound to. Each has two readings that must agree: `holds`
//! decides it in the e-graph (from the class analysis), `predicate` states
//! it as a width-1 expression over the rule's variables, so that solver
//! verification and the sampling test check the rule exactly where the
//! e-graph may apply it.
//!
//! | condition                     | meaning                                              |
//! |-------------------------------|------------------------------------------------------|
//! | `const(?c)`                   | ?c is a constant                                     |
//! | `not-nan(?x)`                 | ?x is never NaN (category analysis)                  |
//! | `never-lt(?x, ?y)` (eq, gt)   | `x < y` (`=`, `>`) is impossible (category analysis) |
//! | `small-int(?c, F, W, signed)` | constant ?c of format F is an integer, abs < 2^p     |
//! |                               | (p = significand bits) and in W-bit (un)signed range |
//! | `exact-in(?c, F)`             | constant ?c is exactly representable in format F     |
//! | `same-width(?a, ?b)`          | ?a and ?b have the same width                        |

use crate::canon::analysis::ClassData;
use crate::canon::lang::{parse_format, CanonLang};
use crate::canon::CanonAnalysis;
use crate::expr::{mask, ExprId, ExprPool, FpFormat, Outcomes};
use egg::{ConditionalApplier, EGraph, Id, Pattern, Rewrite, Subst, Var};

/// Which side condition; the table in the module comment gives each one's meaning.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConditionKind {
    /// `const(?c)`.
    Const,
    /// `not-nan(?x)`.
    NotNan,
    /// `never-lt(?x, ?y)`.
    NeverLt,
    /// `never-eq(?x, ?y)`.
    NeverEq,
    /// `never-gt(?x, ?y)`.
    NeverGt,
    /// `small-int(?c, F, W, signed)`.
    SmallInt,
    /// `exact-in(?c, F)`.
    ExactIn,
    /// `same-width(?a, ?b)`.
    SameWidth,
}

/// One argument of a side condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondArg {
    /// A pattern variable (`?x`).
    Var(Var),
    /// A float format (`f32`).
    Format(FpFormat),
    /// A width in bits.
    Width(u32),
    /// `signed` (true) or `unsigned` (false).
    Signed(bool),
}

/// A parsed side condition: its kind and arguments in the table's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideCondition {
    /// Which condition.
    pub kind: ConditionKind,
    /// Its arguments, as many and of the kinds the condition takes.
    pub args: Vec<CondArg>,
}

const TABLE: [(&str, ConditionKind, &str); 8] = [
    ("const", ConditionKind::Const, "v"),
    ("not-nan", ConditionKind::NotNan, "v"),
    ("never-lt", ConditionKind::NeverLt, "vv"),
    ("never-eq", ConditionKind::NeverEq, "vv"),
    ("never-gt", ConditionKind::NeverGt, "vv"),
    ("small-int", ConditionKind::SmallInt, "vfws"),
    ("exact-in", ConditionKind::ExactIn, "vf"),
    ("same-width", ConditionKind::SameWidth, "vv"),
];

impl SideCondition {
    /// Parses `name(arg, ...)` (placeholders already expanded).
    pub fn parse(text: &str) -> Result<SideCondition, (String, String)> {
        let text = text.trim();
        let bad = |m: &str| (text.to_string(), m.to_string());
        let (name, rest) = text.split_once('(').ok_or_else(|| bad("expected `name(arguments)`"))?;
        let args = rest.strip_suffix(')').ok_or_else(|| bad("missing `)`"))?;
        let (_, kind, shape) = TABLE.iter().find(|(n, ..)| *n == name.trim()).ok_or_else(|| (text.to_string(), String::new()))?;
        let parts: Vec<&str> = args.split(',').map(str::trim).collect();
        if parts.len() != shape.len() {
            return Err(bad(&format!("takes {} arguments", shape.len())));
        }
        let mut out = Vec::new();
        for (p, s) in parts.iter().zip(shape.chars()) {
            let a = match s {
                'v' => CondArg::Var(p.parse().map_err(|_| bad(&format!("`{p}` is not a variable")))?),
                'f' => CondArg::Format(parse_format(p).ok_or_else(|| bad(&format!("`{p}` is not a format")))?),
                'w' => CondArg::Width(p.parse().map_err(|_| bad(&format!("`{p}` is not a width")))?),
                _ => CondArg::Signed(match *p {
                    "signed" => true,
                    "unsigned" => false,
                    _ => return Err(bad("expected signed or unsigned")),
                }),
            };
            out.push(a);
        }
        Ok(SideCondition { kind: *kind, args: out })
    }

    /// The pattern variables it mentions, in argument order.
    pub fn vars(&self) -> Vec<Var> {
        self.args.iter().filter_map(|a| if let CondArg::Var(v) = a { Some(*v) } else { None }).collect()
    }

    fn var(&self, i: usize) -> Var {
        self.vars()[i]
    }
    fn format(&self) -> FpFormat {
        self.args.iter().find_map(|a| if let CondArg::Format(f) = a { Some(*f) } else { None }).expect("shape")
    }
    fn width(&self) -> u32 {
        self.args.iter().find_map(|a| if let CondArg::Width(w) = a { Some(*w) } else { None }).expect("shape")
    }
    fn signed(&self) -> bool {
        self.args.contains(&CondArg::Signed(true))
    }

    /// Decides the condition in the e-graph.
    pub fn holds(&self, egraph: &EGraph<CanonLang, CanonAnalysis>, subst: &Subst) -> bool {
        let d = |i: usize| -> &ClassData { &egraph[subst[self.var(i)]].data };
        match self.kind {
            ConditionKind::Const => d(0).konst.is_some(),
            ConditionKind::NotNan => !d(0).cats.has(crate::canon::Categories::NAN),
            ConditionKind::NeverLt => !d(0).cats.may_lt(d(1).cats),
            ConditionKind::NeverGt => !d(1).cats.may_lt(d(0).cats),
            ConditionKind::NeverEq => !d(0).cats.may_eq(d(1).cats),
            ConditionKind::SameWidth => d(0).width.is_some() && d(0).width == d(1).width,
            ConditionKind::SmallInt => match (d(0).konst, d(0).width.and_then(FpFormat::from_width)) {
                (Some(c), Some(f)) if f == self.format() => small_int(f, c, self.width(), self.signed()),
                _ => false,
            },
            ConditionKind::ExactIn => match (d(0).konst, d(0).width.and_then(FpFormat::from_width)) {
                (Some(c), Some(g)) => exact_in(g, c, self.format()),
                _ => false,
            },
        }
    }

    /// The condition as a width-1 expression; `value` maps variables to
    /// their instantiation.
    pub fn predicate(&self, pool: &mut ExprPool, value: &dyn Fn(Var) -> ExprId) -> ExprId {
        let x = value(self.var(0));
        let fmt_of = |pool: &ExprPool, e: ExprId| FpFormat::from_width(pool.width(e));
        match self.kind {
            ConditionKind::Const => pool.bool_const(true),
            ConditionKind::SameWidth => {
                let same = pool.width(x) == pool.width(value(self.var(1)));
                pool.bool_const(same)
            }
            ConditionKind::NotNan | ConditionKind::NeverLt | ConditionKind::NeverEq | ConditionKind::NeverGt => {
                let Some(f) = fmt_of(pool, x) else { return pool.bool_const(false) };
                let (set, y) = match self.kind {
                    ConditionKind::NotNan => (Outcomes::UNO, x),
                    ConditionKind::NeverLt => (Outcomes::LT, value(self.var(1))),
                    ConditionKind::NeverEq => (Outcomes::EQ, value(self.var(1))),
                    _ => (Outcomes::GT, value(self.var(1))),
                };
                let c = pool.fcmp(Outcomes(set), f, x, y);
                pool.not(c)
            }
            ConditionKind::SmallInt => small_int_predicate(pool, x, self.format(), self.width(), self.signed()),
            ConditionKind::ExactIn => {
                let Some(g) = fmt_of(pool, x) else { return pool.bool_const(false) };
                let f = self.format();
                let narrow = pool.fp_convert(g, f, x);
                let back = pool.fp_convert(f, g, narrow);
                pool.eq(back, x)
            }
        }
    }
}

fn decode(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Half => half::f16::from_bits(bits as u16).to_f64(),
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
    }
}

/// Integer-valued, |c| < 2^p, and inside the W-bit range.
fn small_int(f: FpFormat, bits: u128, w: u32, signed: bool) -> bool {
    let c = decode(f, bits);
    let p = f.significand_bits() as i32;
    let (lo, hi) = if signed { (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1)) } else { (0.0, 2f64.powi(w as i32)) };
    c.is_finite() && c.trunc() == c && c.abs() < 2f64.powi(p) && c >= lo && c < hi
}

fn exact_in(g: FpFormat, bits: u128, f: FpFormat) -> bool {
    let mut pool = ExprPool::new();
    let c = pool.constant(g.width(), bits);
    let n = pool.fp_convert(g, f, c);
    let b = pool.fp_convert(f, g, n);
    pool.as_const(b) == Some(bits & mask(g.width()))
}

/// A power of two (or its negation) in format `f`, rounded (to infinity
/// when out of range, which keeps the comparisons below exact).
fn pow2(pool: &mut ExprPool, f: FpFormat, e: i32, neg: bool) -> ExprId {
    let v = if neg { -(2f64.powi(e)) } else { 2f64.powi(e) };
    let d = pool.constant(64, v.to_bits() as u128);
    pool.fp_convert(FpFormat::Double, f, d)
}

fn small_int_predicate(pool: &mut ExprPool, c: ExprId, f: FpFormat, w: u32, signed: bool) -> ExprId {
    let t = pool.fun(crate::expr::FUnOp::Trunc, f, c);
    let integral = pool.fcmp(Outcomes(Outcomes::EQ), f, t, c);
    let mag = pool.fabs(f, c);
    let bound = pow2(pool, f, f.significand_bits() as i32, false);
    let small = pool.fcmp(Outcomes(Outcomes::LT), f, mag, bound);
    let lo = if signed { pow2(pool, f, w as i32 - 1, true) } else { pool.constant(f.width(), 0) };
    let hi = pow2(pool, f, if signed { w as i32 - 1 } else { w as i32 }, false);
    let ge_lo = pool.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), f, c, lo);
    let lt_hi = pool.fcmp(Outcomes(Outcomes::LT), f, c, hi);
    let a = pool.and(integral, small);
    let b = pool.and(ge_lo, lt_hi);
    pool.and(a, b)
}

/// All side conditions of a rule, as one egg condition.
struct AllOf(Vec<SideCondition>);

impl egg::Condition<CanonLang, CanonAnalysis> for AllOf {
    fn check(&self, egraph: &mut EGraph<CanonLang, CanonAnalysis>, _eclass: Id, subst: &Subst) -> bool {
        self.0.iter().all(|c| c.holds(egraph, subst))
    }
}

/// The egg rewrite of one direction of a rule.
pub(crate) fn rewrite(
    name: &str,
    lhs: &Pattern<CanonLang>,
    rhs: &Pattern<CanonLang>,
    conds: &[SideCondition],
) -> Result<Rewrite<CanonLang, CanonAnalysis>, String> {
    if conds.is_empty() {
        Rewrite::new(name, lhs.clone(), rhs.clone())
    } else {
        let applier = ConditionalApplier { condition: AllOf(conds.to_vec()), applier: rhs.clone() };
        Rewrite::new(name, lhs.clone(), applier)
    }
}
