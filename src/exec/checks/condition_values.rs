//! What a failing assertion compared: the operands of the comparison that
//! took the path into `__assert_fail` (or that `klee_assert` tested),
//! printed and evaluated under the witness, so that a finding, above all
//! an unconfirmed one, shows why it was suspected (`left = 1.0012f, right
//! = 0.001f`).
//!
//! A condition built of `&&` and `||` (a chain of branches at -O0 that
//! if-conversion folds into selects, `and`/`or` of truth values at -O2) is
//! followed, under the witness, to the comparison that decides it: the
//! operand of a failing `&&` that is false, of a failing `||` the first
//! (all are false), the arm of a select its condition picks.

use crate::exec::engine::executor::Executor;
use crate::expr::{evaluate, print_operands, Assignment, BinOp, CmpOp, ElementType, Expr, ExprId, ExprPool, Outcomes};
use crate::report::MismatchExprs;

/// At most this many nodes are looked through (negations, widenings,
/// tests against zero, the links of a `&&`/`||` chain) to find the
/// comparison itself.
const PEEL_LIMIT: usize = 24;

impl<'m> Executor<'m> {
    /// Both operands of the comparison `failing` (a 1-bit condition that
    /// holds where the assertion fails), the comparison in words, and
    /// their values under `witness` when there is one. None when the
    /// condition is no comparison of two values.
    pub(in crate::exec) fn condition_values(&self, failing: ExprId, witness: Option<&Assignment>) -> Option<MismatchExprs> {
        let p = &self.cx.pool;
        let (a, b, words, element) = comparison(p, failing, witness)?;
        let show = |v: ExprId, m: &Assignment| element.show_bits(evaluate(p, v, m));
        let (definitions, left, right) = print_operands(p, a, b);
        Some(MismatchExprs {
            definitions,
            left,
            right,
            left_value: witness.map(|m| show(a, m)),
            right_value: witness.map(|m| show(b, m)),
            equal_under: None,
            element_type: Some(element.name()),
            element: None,
            nans_equal: None,
            differing: None,
            condition: Some(words),
            normal_forms: None,
        })
    }
}

/// The comparison under `cond`, as (left, right, "left OP right" holding
/// where `cond` does, the type the operands are read in). Through a
/// chain of `&&`/`||` it follows the link that decides `cond` under
/// `witness`; without a witness only where every link does.
fn comparison(p: &ExprPool, mut cond: ExprId, witness: Option<&Assignment>) -> Option<(ExprId, ExprId, String, ElementType)> {
    let mut negated = false;
    for _ in 0..PEEL_LIMIT {
        let truth = |x: ExprId| witness.map(|m| evaluate(p, x, m) & 1 == 1);
        match &*p.get(cond) {
            // `x && y` holding (or `x || y` failing): every link decides,
            // the first is shown. `x && y` failing (`x || y` holding):
            // the link that is false (true), under the witness.
            Expr::Bin(op @ (BinOp::And | BinOp::Or), x, y) if p.width(cond) == 1 => {
                let every_link = (*op == BinOp::And) != negated;
                cond = if every_link {
                    *x
                } else {
                    let wanted = *op == BinOp::Or;
                    match truth(*x) {
                        Some(v) if v == wanted => *x,
                        Some(_) => *y,
                        None => return None,
                    }
                };
            }
            // A select of truth values (`x ? y : false` is `x && y`): the
            // arm the witness picks, or the condition where it decides.
            Expr::Ite(c, t, e) if p.width(cond) == 1 => {
                let picked = truth(*c)?;
                let arm = if picked { *t } else { *e };
                if p.as_const(arm).is_some() {
                    // The constant arm: the select's condition decided,
                    // by the value the witness gives it.
                    negated = !picked;
                    cond = *c;
                } else {
                    cond = arm;
                }
            }
            Expr::Not(x) if p.width(*x) == 1 => {
                negated = !negated;
                cond = *x;
            }
            Expr::ZExt(x, _) | Expr::SExt(x, _) if p.width(*x) == 1 => cond = *x,
            // `v == 0` of a truth value (klee_assert's test, C's `!`).
            Expr::Cmp(CmpOp::Eq, x, zero) if p.as_const(*zero) == Some(0) && is_truth(p, *x) => {
                negated = !negated;
                cond = *x;
            }
            Expr::Cmp(op, a, b) => {
                let w = p.width(*a);
                let t = ElementType::Int(w.div_ceil(8).next_power_of_two().min(16));
                return Some((*a, *b, int_words(*op, negated), t));
            }
            Expr::FCmp(outcomes, f, a, b) => {
                let o = if negated { Outcomes(!outcomes.0 & Outcomes::ALL.0) } else { *outcomes };
                return Some((*a, *b, float_words(o), ElementType::Float(*f)));
            }
            _ => return None,
        }
    }
    None
}

/// Whether `x` is 0 or 1 only: a 1-bit value, or one widened from it.
fn is_truth(p: &ExprPool, x: ExprId) -> bool {
    match &*p.get(x) {
        Expr::ZExt(y, _) => p.width(*y) == 1,
        _ => p.width(x) == 1,
    }
}

fn int_words(op: CmpOp, negated: bool) -> String {
    let (held, unsigned) = match (op, negated) {
        (CmpOp::Eq, false) => ("==", false),
        (CmpOp::Eq, true) => ("!=", false),
        (CmpOp::Ult, false) => ("<", true),
        (CmpOp::Ult, true) => (">=", true),
        (CmpOp::Ule, false) => ("<=", true),
        (CmpOp::Ule, true) => (">", true),
        (CmpOp::Slt, false) => ("<", false),
        (CmpOp::Slt, true) => (">=", false),
        (CmpOp::Sle, false) => ("<=", false),
        (CmpOp::Sle, true) => (">", false),
    };
    let how = if unsigned { " (unsigned)" } else { "" };
    format!("left {held} right{how}")
}

fn float_words(o: Outcomes) -> String {
    let ordered = Outcomes(o.0 & !Outcomes::UNO);
    let held = match ordered.0 {
        0 => "",
        x if x == Outcomes::LT => "<",
        x if x == Outcomes::LT | Outcomes::EQ => "<=",
        x if x == Outcomes::EQ => "==",
        x if x == Outcomes::GT | Outcomes::EQ => ">=",
        x if x == Outcomes::GT => ">",
        x if x == Outcomes::LT | Outcomes::GT => "!=",
        _ => "(any order)",
    };
    match (held, o.has(Outcomes::UNO)) {
        ("", true) => "left or right is NaN".to_string(),
        (h, true) => format!("left {h} right, or either is NaN"),
        (h, false) => format!("left {h} right"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::FpFormat;

    #[test]
    fn a_negated_float_comparison_names_what_holds() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 8);
        let (x, y) = (p.input_word(arr, 0, 32), p.input_word(arr, 4, 32));
        let le = p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), FpFormat::Single, x, y);
        let fails = p.not(le);
        let (a, b, words, t) = comparison(&p, fails, None).expect("a comparison");
        assert_eq!((a, b), (x, y));
        assert_eq!(words, "left > right, or either is NaN");
        assert_eq!(t, ElementType::Float(FpFormat::Single));
    }

    /// `(x < y && z < y) || y == 12` failing where `x < y` is false: the
    /// chain (a select and an `or`, as if-conversion leaves it) is
    /// followed to `x < y`, and only under a witness.
    #[test]
    fn a_failing_chain_shows_the_link_the_witness_breaks() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 12);
        let (x, y, z) = (p.input_word(arr, 0, 32), p.input_word(arr, 4, 32), p.input_word(arr, 8, 32));
        let (first, second) = (p.cmp(CmpOp::Slt, x, y), p.cmp(CmpOp::Slt, z, y));
        let f = p.bool_const(false);
        let both = p.ite(first, second, f);
        let twelve = p.constant(32, 12);
        let last = p.eq(y, twelve);
        let holds = p.or(both, last);
        let fails = p.not(holds);
        assert!(comparison(&p, fails, None).is_none(), "which link failed needs a witness");
        let mut m = Assignment::default();
        // x = 60, y = 50, z = 0.
        m.arrays.insert(arr, vec![60, 0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0]);
        let (a, b, words, _) = comparison(&p, fails, Some(&m)).expect("a comparison");
        assert_eq!((a, b, words.as_str()), (x, y, "left >= right"));
        // x = 10, y = 50, z = 70: the second link.
        m.arrays.insert(arr, vec![10, 0, 0, 0, 50, 0, 0, 0, 70, 0, 0, 0]);
        let (a, b, words, _) = comparison(&p, fails, Some(&m)).expect("a comparison");
        assert_eq!((a, b, words.as_str()), (z, y, "left >= right"));
    }

    #[test]
    fn klee_assert_of_a_widened_comparison_is_seen_through() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 8);
        let (x, y) = (p.input_word(arr, 0, 32), p.input_word(arr, 4, 32));
        let lt = p.cmp(CmpOp::Slt, x, y);
        let v = p.zext(lt, 32);
        let zero = p.constant(32, 0);
        let fails = p.eq(v, zero);
        let (_, _, words, t) = comparison(&p, fails, None).expect("a comparison");
        assert_eq!(words, "left >= right");
        assert_eq!(t, ElementType::Int(4));
    }
}
