//! Rounding-error bounds: each float value of a tolerance check as the
//! real number its operations compute without rounding (its *shadow*),
//! plus an error bounded from the roundings it went through, over a box of
//! the inputs. When both sides have the same shadow (the same real
//! function, however grouped), `|got - want|` is at most the sum of their
//! errors, and the bound follows when that is below the tolerance.
//!
//! Each rounding to nearest is `v(1 + d)`, `|d| <= u/(1+u)` with
//! `u = 2^-p` (FPTaylor's model), plus an absolute `2^-(p - emin)` when the
//! result may be subnormal (never for a sum: adding floats is exact in the
//! subnormal range). An error is kept as `rho * |R| + alpha`: relative
//! while the operations keep it relative (products, quotients, sums of
//! values of one sign), absolute otherwise (the magnitudes of the box).
//! Intervals of the shadows are computed in double with every bound moved
//! one place outwards, so they hold the real values.
//!
//! Sound, not complete: a failed box is split in two on its widest input
//! until every box proves the bound or the budget of boxes is spent.
//! Overflow, a division by an interval holding zero, a square root of a
//! value that may be negative, or an operation outside the ones above
//! (integer bit tricks, selects) make the step not apply.

use super::input_range::{input_range, FloatInput};
use crate::check::close_encoding::{to_f64, CloseQuestion};
use crate::check::sampling::{float_slots, input_word};
use crate::config::ToleranceKind;
use crate::expr::{BinOp, Estimate, Expr, ExprId, ExprPool, FBinOp, FUnOp, FpFormat};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// Boxes of the inputs the step may evaluate per element.
pub const BOX_BUDGET: u32 = 4096;

/// What the step proved: the largest error (in the tolerance's measure)
/// over all boxes, and how many boxes it took.
#[derive(Clone, Debug)]
pub struct Proved {
    /// An upper bound of the error.
    pub max: f64,
    /// Boxes evaluated.
    pub boxes: u32,
    /// The inputs and their ranges, in words.
    pub inputs: String,
}

/// The real value a node computes without rounding, as a linear
/// combination of atoms (inputs, and products, quotients or roots of
/// other shadows), so sums in different groupings have one shadow.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Shadow {
    /// Atom number -> coefficient's bits (never zero).
    terms: BTreeMap<u32, u64>,
    /// The constant term's bits.
    constant: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Atom {
    Input(u32, u32),
    Mul(Shadow, Shadow),
    Div(Shadow, Shadow),
    Sqrt(Shadow),
    Abs(Shadow),
}

impl Shadow {
    fn constant(v: f64) -> Shadow {
        Shadow { terms: BTreeMap::new(), constant: (v + 0.0).to_bits() }
    }
    fn atom(a: u32) -> Shadow {
        Shadow { terms: BTreeMap::from([(a, 1.0f64.to_bits())]), constant: 0.0f64.to_bits() }
    }
    fn as_constant(&self) -> Option<f64> {
        self.terms.is_empty().then(|| f64::from_bits(self.constant))
    }
    /// `self + k * other`, when every coefficient is computed exactly.
    fn add_scaled(&self, other: &Shadow, k: f64) -> Option<Shadow> {
        let mut out = self.clone();
        let c = exact_add(f64::from_bits(out.constant), exact_mul(f64::from_bits(other.constant), k)?)?;
        out.constant = (c + 0.0).to_bits();
        for (a, v) in &other.terms {
            let add = exact_mul(f64::from_bits(*v), k)?;
            let old = out.terms.get(a).map(|b| f64::from_bits(*b)).unwrap_or(0.0);
            let new = exact_add(old, add)?;
            if new == 0.0 {
                out.terms.remove(a);
            } else {
                out.terms.insert(*a, new.to_bits());
            }
        }
        Some(out)
    }
    fn scaled(&self, k: f64) -> Option<Shadow> {
        Shadow::constant(0.0).add_scaled(self, k)
    }
}

fn exact_add(a: f64, b: f64) -> Option<f64> {
    let s = a + b;
    (s.is_finite() && s - a == b && s - b == a).then_some(s)
}

fn exact_mul(a: f64, b: f64) -> Option<f64> {
    let p = a * b;
    (p.is_finite() && a.mul_add(b, -p) == 0.0).then_some(p)
}

/// One value over a box: its shadow, an interval holding the shadow's
/// value, and the error bound `rho * |R| + alpha` of the computed value.
#[derive(Clone, Debug)]
struct Bound {
    shadow: Shadow,
    lo: f64,
    hi: f64,
    rho: f64,
    alpha: f64,
}

impl Bound {
    fn max_abs(&self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
    fn min_abs(&self) -> f64 {
        if self.lo <= 0.0 && self.hi >= 0.0 {
            0.0
        } else {
            self.lo.abs().min(self.hi.abs())
        }
    }
    /// The largest error over the box.
    fn max_error(&self) -> f64 {
        up(up(self.rho * self.max_abs()) + self.alpha)
    }
}

/// One place up / down: a double result rounded to nearest is within one
/// place of the real result, so these hold it.
fn up(x: f64) -> f64 {
    if x.is_nan() {
        f64::INFINITY
    } else {
        x.next_up()
    }
}
fn down(x: f64) -> f64 {
    if x.is_nan() {
        f64::NEG_INFINITY
    } else {
        x.next_down()
    }
}

/// `u/(1+u)` for the format's unit roundoff, and the absolute error of a
/// result in the subnormal range; the smallest normal magnitude; the
/// largest finite magnitude.
fn format_constants(f: FpFormat) -> (f64, f64, f64, f64) {
    let p = f.significand_bits() as i32;
    let emin = 2 - (1i32 << (f.exponent_bits() - 1));
    let u = 2f64.powi(-p);
    let eta = 2f64.powi(emin - p);
    let normal = 2f64.powi(emin);
    let max = match f {
        FpFormat::Half => 65504.0,
        FpFormat::Single => f32::MAX as f64,
        FpFormat::Double => f64::MAX,
    };
    (up(u / (1.0 + u)), eta, normal, max)
}

struct Analyser<'p> {
    pool: &'p ExprPool,
    atoms: FxHashMap<Atom, u32>,
    boxes: FxHashMap<FloatInput, (f64, f64)>,
    memo: FxHashMap<(ExprId, FpFormat), Option<Bound>>,
    /// Why the first failure happened, and whether it is the box's (a
    /// smaller box may avoid it) rather than the method's.
    why: Option<(String, bool)>,
}

impl Analyser<'_> {
    fn atom(&mut self, a: Atom) -> Shadow {
        let n = self.atoms.len() as u32;
        Shadow::atom(*self.atoms.entry(a).or_insert(n))
    }

    fn fail(&mut self, why: impl Into<String>) -> Option<Bound> {
        if self.why.is_none() {
            self.why = Some((why.into(), false));
        }
        None
    }

    /// A failure a smaller box may avoid (a divisor or overflow range).
    fn fail_on_box(&mut self, why: impl Into<String>) -> Option<Bound> {
        if self.why.is_none() {
            self.why = Some((why.into(), true));
        }
        None
    }

    /// The failure as the result of a box: split it, or give up.
    fn failed(&self) -> Result<Option<f64>, String> {
        match &self.why {
            Some((_, true)) => Ok(None),
            Some((why, false)) => Err(why.clone()),
            None => Err("a value is not covered".into()),
        }
    }

    /// The bound of `e` read as a float of format `f`.
    fn value(&mut self, e: ExprId, f: FpFormat) -> Option<Bound> {
        if let Some(b) = self.memo.get(&(e, f)) {
            return b.clone();
        }
        let b = self.compute(e, f);
        self.memo.insert((e, f), b.clone());
        b
    }

    fn compute(&mut self, e: ExprId, f: FpFormat) -> Option<Bound> {
        let pool = self.pool;
        if let Some(bits) = pool.as_const(e) {
            let v = to_f64(f, bits);
            if !v.is_finite() {
                return self.fail("a constant is not a finite number");
            }
            return Some(Bound { shadow: Shadow::constant(v), lo: v, hi: v, rho: 0.0, alpha: 0.0 });
        }
        if let Some(est) = pool.estimate_of(e).filter(|_| f == FpFormat::Single) {
            return self.estimate(est);
        }
        if let Some((array, offset)) = input_word(pool, e, f.width() / 8) {
            let input = FloatInput { array, offset, format: f };
            let Some(&(lo, hi)) = self.boxes.get(&input) else { return self.fail("a float input has no range") };
            let shadow = self.atom(Atom::Input(array, offset));
            return Some(Bound { shadow, lo, hi, rho: 0.0, alpha: 0.0 });
        }
        let sign = 1u128 << (f.width() - 1);
        match &*pool.get(e) {
            Expr::Bin(BinOp::And, x, m) if pool.as_const(*m) == Some(sign - 1) => {
                let b = self.value(*x, f)?;
                Some(self.abs(b))
            }
            Expr::Bin(BinOp::Xor, x, m) if pool.as_const(*m) == Some(sign) => {
                let b = self.value(*x, f)?;
                Some(Bound { shadow: b.shadow.scaled(-1.0)?, lo: -b.hi, hi: -b.lo, rho: b.rho, alpha: b.alpha })
            }
            Expr::FBin(op, g, a, b) if *g == f => {
                let (a, b) = (self.value(*a, f)?, self.value(*b, f)?);
                let exact = match op {
                    FBinOp::Add => self.add(a, b, 1.0)?,
                    FBinOp::Sub => self.add(a, b, -1.0)?,
                    FBinOp::Mul => self.mul(a, b)?,
                    FBinOp::Div => self.div(a, b)?,
                    _ => return self.fail(format!("{op:?} is not bounded")),
                };
                self.round(exact, f, matches!(op, FBinOp::Add | FBinOp::Sub))
            }
            Expr::FUn(FUnOp::Sqrt, g, a) if *g == f => {
                let a = self.value(*a, f)?;
                let exact = self.sqrt(a)?;
                self.round(exact, f, true)
            }
            Expr::Fma(g, a, b, c) if *g == f => {
                let (a, b, c) = (self.value(*a, f)?, self.value(*b, f)?, self.value(*c, f)?);
                let p = self.mul(a, b)?;
                let s = self.add(p, c, 1.0)?;
                self.round(s, f, false)
            }
            Expr::FpConvert { from, to, value } if *to == f => {
                let v = self.value(*value, *from)?;
                if from.significand_bits() <= to.significand_bits() && from.exponent_bits() <= to.exponent_bits() {
                    Some(v)
                } else {
                    self.round(v, f, false)
                }
            }
            other => {
                let what = match other {
                    Expr::FUn(op, ..) => format!("{op:?}"),
                    Expr::Ite(..) => "a select".to_string(),
                    Expr::Fresh { .. } => "an unconstrained value (an approximation)".to_string(),
                    Expr::Apply(app) => format!("`{}` (uninterpreted)", app.function),
                    _ => "an integer operation on float bits".to_string(),
                };
                self.fail(format!("the values go through {what}, which the rounding-error bounds do not cover"))
            }
        }
    }

    /// An RCPPS/RSQRTPS lane: Intel documents it as the exact value times
    /// `1 + d`, `|d| <= 1.5 * 2^-12` (FRECPE/FRSQRTE: their table's bound,
    /// expr/estimate.rs), with no further rounding, for a
    /// normal operand whose result is normal (|x| <= 0x1.ffd0p125 for the
    /// reciprocal, x positive for the root). Its shadow is the exact
    /// function's, so it compares with a division or a root.
    fn estimate(&mut self, est: Estimate) -> Option<Bound> {
        let f = FpFormat::Single;
        let x = self.value(est.input, f)?;
        let (_, _, normal, _) = format_constants(f);
        let low = down(down(x.min_abs() * down(1.0 - x.rho)) - x.alpha);
        let high = up(x.max_abs() + x.max_error());
        let one = Bound { shadow: Shadow::constant(1.0), lo: 1.0, hi: 1.0, rho: 0.0, alpha: 0.0 };
        let exact = match est.kind.is_root() {
            false => {
                let limit = 1.999267578125 * 2f64.powi(125);
                if low.is_nan() || low < normal || high > limit {
                    return self
                        .fail_on_box("an RCP estimate's operand may lie outside the range of Intel's bound (normal, |x| <= 0x1.ffd0p125)");
                }
                self.div(one, x)?
            }
            true => {
                if x.lo <= 0.0 || low.is_nan() || low < normal {
                    return self.fail_on_box("an RSQRT estimate's operand may lie outside the range of Intel's bound (positive normal)");
                }
                let root = self.sqrt(x)?;
                self.div(one, root)?
            }
        };
        let e = est.kind.relative_error();
        let rho = up(up(up(1.0 + exact.rho) * (1.0 + e)) - 1.0);
        Some(Bound { rho, alpha: up(exact.alpha * (1.0 + e)), ..exact })
    }

    fn abs(&mut self, b: Bound) -> Bound {
        if b.lo >= 0.0 {
            return b;
        }
        if b.hi <= 0.0 {
            let shadow = b.shadow.scaled(-1.0).unwrap_or_else(|| self.atom(Atom::Abs(b.shadow.clone())));
            return Bound { shadow, lo: -b.hi, hi: -b.lo, rho: b.rho, alpha: b.alpha };
        }
        let shadow = self.atom(Atom::Abs(b.shadow.clone()));
        Bound { shadow, lo: 0.0, hi: b.max_abs(), rho: b.rho, alpha: b.alpha }
    }

    /// `a + k*b` (k = 1 or -1) without rounding.
    fn add(&mut self, a: Bound, b: Bound, k: f64) -> Option<Bound> {
        let (blo, bhi) = if k < 0.0 { (-b.hi, -b.lo) } else { (b.lo, b.hi) };
        let shadow = a.shadow.add_scaled(&b.shadow, k)?;
        let (lo, hi) = (down(a.lo + blo), up(a.hi + bhi));
        let one_sign = (a.lo >= 0.0 && blo >= 0.0) || (a.hi <= 0.0 && bhi <= 0.0);
        let (rho, alpha) = if one_sign && a.alpha == 0.0 && b.alpha == 0.0 {
            // |Ra| / (|Ra| + |Rb|) lies in [tmin, tmax] on the box; the
            // error's share is linear in it, so its ends bound it.
            let (amin, amax, bmin, bmax) = (a.min_abs(), a.max_abs(), b.min_abs(), b.max_abs());
            let share = |x: f64, y: f64| if x + y == 0.0 { 0.0 } else { x / (x + y) };
            let tmax = up(share(amax, bmin)).min(1.0);
            let tmin = down(share(amin, bmax)).max(0.0);
            let at = |t: f64| up(up(a.rho * t) + up(b.rho * up(1.0 - t)));
            (at(tmax).max(at(tmin)), 0.0)
        } else {
            (0.0, up(a.max_error() + b.max_error()))
        };
        Some(Bound { shadow, lo, hi, rho, alpha })
    }

    fn mul(&mut self, a: Bound, b: Bound) -> Option<Bound> {
        let shadow = match (a.shadow.as_constant(), b.shadow.as_constant()) {
            (Some(k), _) => b.shadow.scaled(k),
            (_, Some(k)) => a.shadow.scaled(k),
            _ => None,
        };
        let shadow = shadow.unwrap_or_else(|| {
            let (x, y) = if a.shadow <= b.shadow { (a.shadow.clone(), b.shadow.clone()) } else { (b.shadow.clone(), a.shadow.clone()) };
            self.atom(Atom::Mul(x, y))
        });
        let ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
        let lo = down(ps.iter().cloned().fold(f64::INFINITY, f64::min));
        let hi = up(ps.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
        let (rho, alpha) = if a.alpha == 0.0 && b.alpha == 0.0 {
            (up(up(up(1.0 + a.rho) * up(1.0 + b.rho)) - 1.0), 0.0)
        } else {
            let (ea, eb) = (a.max_error(), b.max_error());
            (0.0, up(up(a.max_abs() * eb) + up(b.max_abs() * ea) + up(ea * eb)))
        };
        Some(Bound { shadow, lo, hi, rho, alpha })
    }

    fn div(&mut self, a: Bound, b: Bound) -> Option<Bound> {
        let bmin = down(down(b.min_abs() * down(1.0 - b.rho)) - b.alpha);
        if bmin.is_nan() || bmin <= 0.0 || b.rho >= 1.0 {
            return self.fail_on_box("a divisor may be zero on an input box");
        }
        let shadow = match b.shadow.as_constant() {
            Some(k) if k != 0.0 && exact_mul(1.0 / k, k) == Some(1.0) && (1.0 / k).to_bits() & ((1 << 52) - 1) == 0 => {
                a.shadow.scaled(1.0 / k)
            }
            _ => None,
        };
        let shadow = shadow.unwrap_or_else(|| self.atom(Atom::Div(a.shadow.clone(), b.shadow.clone())));
        let qs = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
        let lo = down(qs.iter().cloned().fold(f64::INFINITY, f64::min));
        let hi = up(qs.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
        let q = Bound { shadow: shadow.clone(), lo, hi, rho: 0.0, alpha: 0.0 };
        let (rho, alpha) = if a.alpha == 0.0 && b.alpha == 0.0 {
            (up(up(up(1.0 + a.rho) / down(1.0 - b.rho)) - 1.0), 0.0)
        } else {
            (0.0, up(up(a.max_error() + up(q.max_abs() * b.max_error())) / bmin))
        };
        Some(Bound { rho, alpha, ..q })
    }

    fn sqrt(&mut self, a: Bound) -> Option<Bound> {
        let amin = down(down(a.lo * down(1.0 - a.rho)) - a.alpha);
        if a.lo < 0.0 || amin < 0.0 {
            return self.fail_on_box("a square root's operand may be negative on an input box");
        }
        let shadow = self.atom(Atom::Sqrt(a.shadow.clone()));
        let (lo, hi) = (down(a.lo.sqrt()), up(a.hi.sqrt()));
        // sqrt(R(1+d)) = sqrt(R)(1+d') with |d'| <= |d| for |d| <= 1;
        // an absolute error e moves the root by at most sqrt(e).
        let (rho, alpha) = if a.alpha == 0.0 && a.rho <= 1.0 { (a.rho, 0.0) } else { (0.0, up(a.max_error().sqrt())) };
        Some(Bound { shadow, lo: lo.max(0.0), hi, rho, alpha })
    }

    /// One rounding to format `f` (`exact_when_tiny`: the result is exact
    /// in the subnormal range, as a sum is).
    fn round(&mut self, v: Bound, f: FpFormat, exact_when_tiny: bool) -> Option<Bound> {
        let (u, eta, normal, max) = format_constants(f);
        let largest = up(v.max_abs() + v.max_error());
        if largest.is_nan() || largest >= max {
            return self.fail_on_box(format!("a {} result may overflow on an input box", f.name()));
        }
        let smallest = down(down(v.min_abs() * down(1.0 - v.rho)) - v.alpha);
        let tiny = !exact_when_tiny && smallest < normal;
        let rho = up(up(v.rho * up(1.0 + u)) + u);
        let alpha = up(up(v.alpha * up(1.0 + u)) + if tiny { eta } else { 0.0 });
        Some(Bound { rho, alpha, ..v })
    }
}

/// Proves the bound of `q` on `path` over boxes of its inputs, or says why
/// it could not.
pub fn prove(pool: &ExprPool, path: &[ExprId], q: &CloseQuestion) -> Result<Proved, String> {
    let slots = float_slots(pool, &[q.got, q.want, q.reference]);
    let mut start = Vec::new();
    let mut words = Vec::new();
    for s in &slots {
        let input = FloatInput { array: s.array, offset: s.offset, format: s.format };
        let r = input_range(pool, path, input);
        let (lo, hi) = r.bounds(s.format);
        if !r.nan_excluded || !lo.is_finite() || !hi.is_finite() || r.hi < r.lo {
            return Err("an input is not bounded to finite values by the path".into());
        }
        let name = pool.arrays().get(s.array as usize).map(|a| a.name.clone()).unwrap_or_default();
        let range = format!("in [{lo:e}, {hi:e}]");
        match words.last_mut() {
            // Elements of one array over one range are named once.
            Some((n, count, r)) if *n == name && *r == range => *count += 1,
            _ => words.push((name, 1, range)),
        }
        start.push((input, lo, hi));
    }
    let mut stack = vec![start];
    let mut boxes = 0u32;
    let mut max = 0.0f64;
    while let Some(b) = stack.pop() {
        if boxes >= BOX_BUDGET {
            return Err(format!("the bound did not hold on every box within {BOX_BUDGET} boxes of the inputs"));
        }
        boxes += 1;
        let mut a = Analyser {
            pool,
            atoms: FxHashMap::default(),
            boxes: b.iter().map(|(i, lo, hi)| (*i, (*lo, *hi))).collect(),
            memo: FxHashMap::default(),
            why: None,
        };
        match bound_on_box(&mut a, q) {
            Ok(Some(m)) => max = max.max(m),
            Ok(None) => {
                // Split the input with the widest range (relative to its
                // magnitude) at its middle.
                let widest = b
                    .iter()
                    .enumerate()
                    .map(|(k, (_, lo, hi))| (k, (hi - lo) / lo.abs().max(hi.abs()).max(f64::MIN_POSITIVE)))
                    .filter(|(_, w)| *w > 0.0)
                    .max_by(|x, y| x.1.total_cmp(&y.1));
                let Some((k, _)) = widest else {
                    return Err("the bound does not follow from the rounding-error bounds on a single input".into());
                };
                let (input, lo, hi) = b[k];
                let mid = to_f64(input.format, round_to(input.format, lo / 2.0 + hi / 2.0));
                if !(mid > lo && mid < hi) {
                    return Err("the bound does not follow from the rounding-error bounds on the narrowest boxes".into());
                }
                let mut left = b.clone();
                left[k] = (input, lo, mid);
                let mut right = b;
                right[k] = (input, mid, hi);
                stack.push(left);
                stack.push(right);
            }
            Err(why) => return Err(why),
        }
    }
    let words: Vec<String> = words
        .into_iter()
        .map(|(name, count, range)| if count == 1 { format!("{name} {range}") } else { format!("{count} values of {name} each {range}") })
        .collect();
    Ok(Proved { max, boxes, inputs: words.join(", ") })
}

/// The bits of `x` rounded to format `f`.
fn round_to(f: FpFormat, x: f64) -> u128 {
    match f {
        FpFormat::Half => half::f16::from_f64(x).to_bits() as u128,
        FpFormat::Single => (x as f32).to_bits() as u128,
        FpFormat::Double => x.to_bits() as u128,
    }
}

/// The largest error on the box when it is within the bound (`None`: not
/// shown on this box); an error when the method does not apply at all.
fn bound_on_box(a: &mut Analyser, q: &CloseQuestion) -> Result<Option<f64>, String> {
    let f = q.format;
    let (Some(g), Some(w)) = (a.value(q.got, f), a.value(q.want, f)) else {
        return a.failed();
    };
    if g.shadow != w.shadow {
        return Err("the two sides do not compute the same real function (the error analysis bounds rounding errors only)".into());
    }
    // Both intervals hold the one real value R.
    let rmax = g.max_abs().min(w.max_abs());
    let rmin = g.min_abs().max(w.min_abs());
    // |got - want| <= rho |R| + alpha; the check's double subtraction
    // rounds once more.
    let rho = up(g.rho + w.rho);
    let alpha = up(g.alpha + w.alpha);
    let slack = up(1.0 + f64::EPSILON);
    let err_at = |r: f64| up(slack * up(up(rho * r) + alpha));
    let bound = q.tolerance.bound;
    // b * |ref| rounded in double: at least b|ref|(1 - 2^-52) less the
    // smallest subnormal (for a product in the subnormal range).
    let limit = |r: f64| down(down(down(bound * r) * down(1.0 - f64::EPSILON)) - f64::from_bits(1));
    match q.tolerance.kind {
        ToleranceKind::Absolute => {
            let e = err_at(rmax);
            Ok((e <= bound).then_some(e))
        }
        ToleranceKind::Relative | ToleranceKind::RelativeTo => {
            let r = if q.tolerance.kind == ToleranceKind::Relative {
                w.clone()
            } else {
                match a.value(q.reference, f) {
                    Some(r) => r,
                    None => return a.failed(),
                }
            };
            // |ref| >= (1 - rho_r)|R_ref| - alpha_r.
            let lower = |x: f64| down(down(x * down(1.0 - r.rho)) - r.alpha);
            let holds_at = |x: f64, e: f64| e <= limit(lower(x));
            if r.shadow == g.shadow || r.shadow == g.shadow.scaled(-1.0).unwrap_or_default() {
                // The same real: both sides of the inequality are linear in |R|.
                let ok = holds_at(rmin, err_at(rmin)) && holds_at(rmax, err_at(rmax));
                let worst = if rmin > 0.0 { err_at(rmin) / lower(rmin) } else { f64::INFINITY };
                Ok(ok.then_some(worst.max(err_at(rmax) / lower(rmax))))
            } else {
                let e = err_at(rmax);
                let ok = holds_at(r.min_abs(), e);
                Ok(ok.then(|| e / lower(r.min_abs())))
            }
        }
        ToleranceKind::Ulp => {
            // Both values have the sign of R and magnitude at least m; no
            // two floats of magnitude >= m are closer than the spacing at m.
            let m = down(down(rmin * down(1.0 - g.rho.max(w.rho))) - g.alpha.max(w.alpha));
            if m.is_nan() || m <= 0.0 {
                return Ok(None);
            }
            let (_, eta, normal, _) = format_constants(f);
            let p = f.significand_bits() as i32;
            let spacing = if m < normal { 2.0 * eta } else { 2f64.powi(m.log2().floor() as i32 - (p - 1)) };
            let ulps = (err_at(rmax) / spacing).floor();
            Ok((ulps <= bound).then_some(ulps))
        }
    }
}

impl Default for Shadow {
    fn default() -> Self {
        Shadow::constant(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Tolerance;
    use crate::expr::Outcomes;

    fn ranged(pool: &mut ExprPool, arr: u32, k: u32, lo: f32, hi: f32) -> (ExprId, ExprId) {
        let x = pool.input_word(arr, 4 * k, 32);
        let l = pool.constant(32, lo.to_bits() as u128);
        let h = pool.constant(32, hi.to_bits() as u128);
        let a = pool.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), FpFormat::Single, x, l);
        let b = pool.fcmp(Outcomes(Outcomes::LT), FpFormat::Single, x, h);
        (x, pool.bool_and(a, b))
    }

    #[test]
    fn a_regrouped_sum_is_within_a_relative_bound_but_not_a_tight_one() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("v", 12);
        let f = FpFormat::Single;
        let mut xs = Vec::new();
        let mut path = Vec::new();
        for k in 0..3 {
            let (x, c) = ranged(&mut pool, arr, k, 1.0, 2.0);
            xs.push(x);
            path.push(c);
        }
        let ab = pool.fbin(FBinOp::Add, f, xs[0], xs[1]);
        let left = pool.fbin(FBinOp::Add, f, ab, xs[2]);
        let bc = pool.fbin(FBinOp::Add, f, xs[1], xs[2]);
        let right = pool.fbin(FBinOp::Add, f, xs[0], bc);
        let q = |bound| CloseQuestion {
            format: f,
            got: left,
            want: right,
            reference: right,
            tolerance: Tolerance { kind: ToleranceKind::Relative, bound },
        };
        // Each side errs by at most about 2u relative: 4u apart at most.
        let p = prove(&pool, &path, &q(5.0 * 2f64.powi(-24))).unwrap();
        assert!(p.max <= 5.0 * 2f64.powi(-24) && p.max > 0.0, "{p:?}");
        assert!(prove(&pool, &path, &q(2f64.powi(-24))).is_err());
    }

    #[test]
    fn different_real_functions_are_not_bounded() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("v", 8);
        let f = FpFormat::Single;
        let (x, cx) = ranged(&mut pool, arr, 0, 1.0, 2.0);
        let (y, cy) = ranged(&mut pool, arr, 1, 1.0, 2.0);
        let s = pool.fbin(FBinOp::Add, f, x, y);
        let q =
            CloseQuestion { format: f, got: s, want: x, reference: x, tolerance: Tolerance { kind: ToleranceKind::Absolute, bound: 4.0 } };
        assert!(prove(&pool, &[cx, cy], &q).unwrap_err().contains("same real function"));
    }

    #[test]
    fn a_division_by_a_range_holding_zero_is_refused() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("v", 4);
        let f = FpFormat::Single;
        let (x, cx) = ranged(&mut pool, arr, 0, -1.0, 1.0);
        let one = pool.constant(32, 1.0f32.to_bits() as u128);
        let r = pool.fbin(FBinOp::Div, f, one, x);
        let q =
            CloseQuestion { format: f, got: r, want: r, reference: r, tolerance: Tolerance { kind: ToleranceKind::Absolute, bound: 1.0 } };
        assert!(prove(&pool, &[cx], &q).is_err());
    }
}
