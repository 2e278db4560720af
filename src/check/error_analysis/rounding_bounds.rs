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

/// Most boxes to start from when inputs' ranges are in two parts.
const START_BOXES: usize = 64;

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
    /// The refinements of the plain relative bound the proof used, in words.
    pub used: Vec<&'static str>,
}

/// Refinements of the plain relative bound a proof may use, named in its
/// text.
const MIXED_SIGNS: &str = "a sum of mixed signs errs relative to its terms' absolute values summed";
const ONE_BINADE: &str = "a value within one binade rounds by at most half its ulp";
const LAST_ROUNDING: &str =
    "ulps from the distance of the two values before their last rounding (floats between the two results lie between those values)";
const MAGNITUDE_REFERENCE: &str = "the rel-to magnitude is the sum of the absolute values of the real result's terms";

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

/// Whether no term of `a` is cancelled by the same term of `k * b`: then
/// `|a + k b|abs = |a|abs + |b|abs`.
fn terms_add_up(a: &Shadow, b: &Shadow, k: f64) -> bool {
    let same_sign = |x: f64, y: f64| x == 0.0 || y == 0.0 || (x > 0.0) == (y > 0.0);
    same_sign(f64::from_bits(a.constant), k * f64::from_bits(b.constant))
        && b.terms.iter().all(|(t, c)| a.terms.get(t).is_none_or(|d| same_sign(f64::from_bits(*d), k * f64::from_bits(*c))))
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
/// value, and the error bound `rho * |R| + mu * |R|abs + alpha` of the
/// computed value, where `|R|abs` is the shadow's magnitude: the sum of
/// the absolute values of its terms (what a sum of mixed signs errs
/// relative to), at most `mag_hi` on the box.
#[derive(Clone, Debug)]
struct Bound {
    shadow: Shadow,
    lo: f64,
    hi: f64,
    rho: f64,
    alpha: f64,
    mu: f64,
    mag_hi: f64,
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
        add_up(add_up(mul_up(self.rho, self.max_abs()), mul_up(self.mu, self.mag_hi)), self.alpha)
    }
    /// The least magnitude of the computed value over the box (may be
    /// negative: then the value may be zero or of either sign).
    fn min_computed(&self) -> f64 {
        let relative = mul_down(self.min_abs(), sub_down(1.0, self.rho));
        sub_down(sub_down(relative, mul_up(self.mu, self.mag_hi)), self.alpha)
    }
    /// The same bound with the magnitude term made absolute, for the
    /// operations that keep only relative and absolute terms.
    fn without_mu(self) -> Bound {
        if self.mu == 0.0 {
            return self;
        }
        let alpha = add_up(self.alpha, mul_up(self.mu, self.mag_hi));
        Bound { alpha, mu: 0.0, mag_hi: 0.0, ..self }
    }
    /// An exact value's bound.
    fn exact(shadow: Shadow, lo: f64, hi: f64) -> Bound {
        Bound { shadow, lo, hi, rho: 0.0, alpha: 0.0, mu: 0.0, mag_hi: 0.0 }
    }
}

/// `a + b` rounded up: exact when double holds it, else one place up.
fn add_up(a: f64, b: f64) -> f64 {
    exact_add(a, b).unwrap_or_else(|| up(a + b))
}

/// `a - b` rounded down: exact when double holds it, else one place down.
fn sub_down(a: f64, b: f64) -> f64 {
    exact_add(a, -b).unwrap_or_else(|| down(a - b))
}

/// `a * b` rounded down (both non-negative): exact when double holds it.
fn mul_down(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        return 0.0;
    }
    exact_mul(a, b).unwrap_or_else(|| down(a * b))
}

/// `a * b` rounded up (both non-negative): exact when double holds it.
fn mul_up(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        return 0.0;
    }
    exact_mul(a, b).unwrap_or_else(|| up(a * b))
}

/// The exponent of the binade of a positive finite double: `2^e <= x <
/// 2^(e+1)`, read from its bits (exact, unlike `log2`).
fn binade(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // Subnormal: the leading one's place.
        let m = bits & ((1 << 52) - 1);
        -1074 + (63 - m.leading_zeros() as i32)
    } else {
        biased - 1023
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
    /// An interval holding each atom's value on the box.
    atom_ranges: Vec<(f64, f64)>,
    boxes: FxHashMap<FloatInput, (f64, f64)>,
    memo: FxHashMap<(ExprId, FpFormat), Option<Bound>>,
    /// Refinements used on this box (`Proved::used`).
    used: std::collections::BTreeSet<&'static str>,
    /// Why the first failure happened, and whether it is the box's (a
    /// smaller box may avoid it) rather than the method's.
    why: Option<(String, bool)>,
}

impl Analyser<'_> {
    /// The shadow of atom `a`, whose value lies in `[lo, hi]` on the box.
    fn atom(&mut self, a: Atom, lo: f64, hi: f64) -> Shadow {
        let n = self.atoms.len() as u32;
        let k = *self.atoms.entry(a).or_insert(n);
        if k == n {
            self.atom_ranges.push((lo, hi));
        } else {
            // Both intervals hold the atom's value.
            let r = &mut self.atom_ranges[k as usize];
            *r = (r.0.max(lo), r.1.min(hi));
        }
        Shadow::atom(k)
    }

    /// An upper bound of `|s|abs`, the sum of the absolute values of the
    /// shadow's terms, on the box.
    fn magnitude(&self, s: &Shadow) -> f64 {
        let mut m = f64::from_bits(s.constant).abs();
        for (a, c) in &s.terms {
            let (lo, hi) = self.atom_ranges[*a as usize];
            m = add_up(m, mul_up(f64::from_bits(*c).abs(), lo.abs().max(hi.abs())));
        }
        m
    }

    /// A lower bound of `|s|abs` on the box.
    fn magnitude_low(&self, s: &Shadow) -> f64 {
        let mut m = f64::from_bits(s.constant).abs();
        for (a, c) in &s.terms {
            let (lo, hi) = self.atom_ranges[*a as usize];
            let least = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { lo.abs().min(hi.abs()) };
            m = down(m + down(f64::from_bits(*c).abs() * least));
        }
        m.max(0.0)
    }

    /// Whether every term of `s` (and its constant) has one sign on the
    /// box, so `|s| = |s|abs`.
    fn terms_of_one_sign(&self, s: &Shadow) -> bool {
        let c = f64::from_bits(s.constant);
        let (mut pos, mut neg) = (c > 0.0, c < 0.0);
        for (a, k) in &s.terms {
            let (lo, hi) = self.atom_ranges[*a as usize];
            let k = f64::from_bits(*k);
            let (tlo, thi) = if k > 0.0 { (lo, hi) } else { (-hi, -lo) };
            if tlo >= 0.0 {
                pos = true;
            } else if thi <= 0.0 {
                neg = true;
            } else {
                return false;
            }
        }
        !(pos && neg)
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
            return Some(Bound::exact(Shadow::constant(v), v, v));
        }
        if let Some(est) = pool.estimate_of(e).filter(|_| f == FpFormat::Single) {
            return self.estimate(est);
        }
        if let Some((array, offset)) = input_word(pool, e, f.width() / 8) {
            let input = FloatInput { array, offset, format: f };
            let Some(&(lo, hi)) = self.boxes.get(&input) else { return self.fail("a float input has no range") };
            let shadow = self.atom(Atom::Input(array, offset), lo, hi);
            return Some(Bound::exact(shadow, lo, hi));
        }
        if let Some((exact, exact_when_tiny)) = self.unrounded(e, f)? {
            return self.round(exact, f, exact_when_tiny);
        }
        let sign = 1u128 << (f.width() - 1);
        match &*pool.get(e) {
            Expr::Bin(BinOp::And, x, m) if pool.as_const(*m) == Some(sign - 1) => {
                let b = self.value(*x, f)?;
                Some(self.abs(b))
            }
            Expr::Bin(BinOp::Xor, x, m) if pool.as_const(*m) == Some(sign) => {
                let b = self.value(*x, f)?;
                Some(Bound { shadow: b.shadow.scaled(-1.0)?, lo: -b.hi, hi: -b.lo, ..b })
            }
            Expr::FpConvert { from, to, value } if *to == f => self.value(*value, *from),
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

    /// When `e` is an operation rounded once to format `f`: the bound of
    /// its exact result before that rounding, and whether the rounding is
    /// exact in the subnormal range (a sum's is). `Some(None)`: `e` is not
    /// such an operation; `None`: it is, and its operands are not bounded.
    fn unrounded(&mut self, e: ExprId, f: FpFormat) -> Option<Option<(Bound, bool)>> {
        let pool = self.pool;
        Some(Some(match &*pool.get(e) {
            Expr::FBin(op, g, a, b) if *g == f => {
                let (a, b) = (self.value(*a, f)?, self.value(*b, f)?);
                let exact = match op {
                    FBinOp::Add => self.add(a, b, 1.0)?,
                    FBinOp::Sub => self.add(a, b, -1.0)?,
                    FBinOp::Mul => self.mul(a, b)?,
                    FBinOp::Div => self.div(a, b)?,
                    _ => return self.fail(format!("{op:?} is not bounded")).map(|_| None),
                };
                (exact, matches!(op, FBinOp::Add | FBinOp::Sub))
            }
            Expr::FUn(FUnOp::Sqrt, g, a) if *g == f => {
                let a = self.value(*a, f)?;
                (self.sqrt(a)?, true)
            }
            Expr::Fma(g, a, b, c) if *g == f => {
                let (a, b, c) = (self.value(*a, f)?, self.value(*b, f)?, self.value(*c, f)?);
                let p = self.mul(a, b)?;
                (self.add(p, c, 1.0)?, false)
            }
            Expr::FpConvert { from, to, value }
                if *to == f && (from.significand_bits() > to.significand_bits() || from.exponent_bits() > to.exponent_bits()) =>
            {
                (self.value(*value, *from)?, false)
            }
            _ => return Some(None),
        }))
    }

    /// An RCPPS/RSQRTPS lane: Intel documents it as the exact value times
    /// `1 + d`, `|d| <= 1.5 * 2^-12` (FRECPE/FRSQRTE: their table's bound,
    /// expr/estimate.rs), with no further rounding, for a
    /// normal operand whose result is normal (|x| <= 0x1.ffd0p125 for the
    /// reciprocal, x positive for the root). Its shadow is the exact
    /// function's, so it compares with a division or a root.
    fn estimate(&mut self, est: Estimate) -> Option<Bound> {
        let f = FpFormat::Single;
        let x = self.value(est.input, f)?.without_mu();
        let (_, _, normal, _) = format_constants(f);
        let low = x.min_computed();
        let high = up(x.max_abs() + x.max_error());
        let one = Bound::exact(Shadow::constant(1.0), 1.0, 1.0);
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
            if let Some(shadow) = b.shadow.scaled(-1.0) {
                return Bound { shadow, lo: -b.hi, hi: -b.lo, ..b };
            }
            let b = b.without_mu();
            let shadow = self.atom(Atom::Abs(b.shadow.clone()), -b.hi, -b.lo);
            return Bound { shadow, lo: -b.hi, hi: -b.lo, ..b };
        }
        // |x| errs by no more than x; its shadow is a new atom, so the
        // magnitude term (of x's terms) is made absolute.
        let b = b.without_mu();
        let shadow = self.atom(Atom::Abs(b.shadow.clone()), 0.0, b.max_abs());
        Bound { shadow, lo: 0.0, hi: b.max_abs(), ..b }
    }

    /// `a + k*b` (k = 1 or -1) without rounding.
    fn add(&mut self, a: Bound, b: Bound, k: f64) -> Option<Bound> {
        let (blo, bhi) = if k < 0.0 { (-b.hi, -b.lo) } else { (b.lo, b.hi) };
        let shadow = a.shadow.add_scaled(&b.shadow, k)?;
        let (lo, hi) = (sub_down(a.lo, -blo), add_up(a.hi, bhi));
        let one_sign = (a.lo >= 0.0 && blo >= 0.0) || (a.hi <= 0.0 && bhi <= 0.0);
        let relative = |x: &Bound| x.alpha == 0.0 && x.mu == 0.0;
        if one_sign && relative(&a) && relative(&b) {
            // |Ra| / (|Ra| + |Rb|) lies in [tmin, tmax] on the box; the
            // error's share is linear in it, so its ends bound it.
            let (amin, amax, bmin, bmax) = (a.min_abs(), a.max_abs(), b.min_abs(), b.max_abs());
            let share = |x: f64, y: f64| if x + y == 0.0 { 0.0 } else { x / (x + y) };
            let tmax = up(share(amax, bmin)).min(1.0);
            let tmin = down(share(amin, bmax)).max(0.0);
            let at = |t: f64| add_up(mul_up(a.rho, t), mul_up(b.rho, up(1.0 - t)));
            let rho = if a.rho == 0.0 && b.rho == 0.0 { 0.0 } else { at(tmax).max(at(tmin)) };
            return Some(Bound { rho, ..Bound::exact(shadow, lo, hi) });
        }
        if !one_sign && terms_add_up(&a.shadow, &b.shadow, k) {
            // Signs mixed, but no term of one side cancels a term of the
            // other: |Sa|abs + |Sb|abs = |S|abs, and each side's error is
            // at most (rho + mu) times its own magnitude, so the sum's is
            // at most the larger factor times the sum's magnitude however
            // much the values cancel.
            let mu = add_up(a.rho, a.mu).max(add_up(b.rho, b.mu));
            self.used.insert(MIXED_SIGNS);
            let mag_hi = self.magnitude(&shadow);
            let alpha = add_up(a.alpha, b.alpha);
            return Some(Bound { mu, mag_hi, alpha, ..Bound::exact(shadow, lo, hi) });
        }
        let alpha = add_up(a.max_error(), b.max_error());
        Some(Bound { alpha, ..Bound::exact(shadow, lo, hi) })
    }

    fn mul(&mut self, a: Bound, b: Bound) -> Option<Bound> {
        let (a, b) = (a.without_mu(), b.without_mu());
        let ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
        let lo = down(ps.iter().cloned().fold(f64::INFINITY, f64::min));
        let hi = up(ps.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
        let shadow = match (a.shadow.as_constant(), b.shadow.as_constant()) {
            (Some(k), _) => b.shadow.scaled(k),
            (_, Some(k)) => a.shadow.scaled(k),
            _ => None,
        };
        let shadow = shadow.unwrap_or_else(|| {
            let (x, y) = if a.shadow <= b.shadow { (a.shadow.clone(), b.shadow.clone()) } else { (b.shadow.clone(), a.shadow.clone()) };
            self.atom(Atom::Mul(x, y), lo, hi)
        });
        let (rho, alpha) = if a.alpha == 0.0 && b.alpha == 0.0 {
            (up(up(up(1.0 + a.rho) * up(1.0 + b.rho)) - 1.0), 0.0)
        } else {
            let (ea, eb) = (a.max_error(), b.max_error());
            (0.0, up(up(a.max_abs() * eb) + up(b.max_abs() * ea) + up(ea * eb)))
        };
        Some(Bound { rho, alpha, ..Bound::exact(shadow, lo, hi) })
    }

    fn div(&mut self, a: Bound, b: Bound) -> Option<Bound> {
        let (a, b) = (a.without_mu(), b.without_mu());
        let bmin = b.min_computed();
        if bmin.is_nan() || bmin <= 0.0 || b.rho >= 1.0 {
            return self.fail_on_box("a divisor may be zero on an input box");
        }
        let shadow = match b.shadow.as_constant() {
            Some(k) if k != 0.0 && exact_mul(1.0 / k, k) == Some(1.0) && (1.0 / k).to_bits() & ((1 << 52) - 1) == 0 => {
                a.shadow.scaled(1.0 / k)
            }
            _ => None,
        };
        let qs = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
        let lo = down(qs.iter().cloned().fold(f64::INFINITY, f64::min));
        let hi = up(qs.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
        let shadow = shadow.unwrap_or_else(|| self.atom(Atom::Div(a.shadow.clone(), b.shadow.clone()), lo, hi));
        let q = Bound::exact(shadow, lo, hi);
        let (rho, alpha) = if a.alpha == 0.0 && b.alpha == 0.0 {
            (up(up(up(1.0 + a.rho) / down(1.0 - b.rho)) - 1.0), 0.0)
        } else {
            (0.0, up(up(a.max_error() + up(q.max_abs() * b.max_error())) / bmin))
        };
        Some(Bound { rho, alpha, ..q })
    }

    fn sqrt(&mut self, a: Bound) -> Option<Bound> {
        let a = a.without_mu();
        let amin = down(down(a.lo * down(1.0 - a.rho)) - a.alpha);
        if a.lo < 0.0 || amin < 0.0 {
            return self.fail_on_box("a square root's operand may be negative on an input box");
        }
        let (lo, hi) = (down(a.lo.sqrt()).max(0.0), up(a.hi.sqrt()));
        let shadow = self.atom(Atom::Sqrt(a.shadow.clone()), lo, hi);
        // sqrt(R(1+d)) = sqrt(R)(1+d') with |d'| <= |d| for |d| <= 1;
        // an absolute error e moves the root by at most sqrt(e).
        let (rho, alpha) = if a.alpha == 0.0 && a.rho <= 1.0 { (a.rho, 0.0) } else { (0.0, up(a.max_error().sqrt())) };
        Some(Bound { rho, alpha, ..Bound::exact(shadow, lo, hi) })
    }

    /// One rounding to format `f` (`exact_when_tiny`: the result is exact
    /// in the subnormal range, as a sum is).
    fn round(&mut self, v: Bound, f: FpFormat, exact_when_tiny: bool) -> Option<Bound> {
        let (u, eta, normal, max) = format_constants(f);
        let largest = add_up(v.max_abs(), v.max_error());
        if largest.is_nan() || largest >= max {
            return self.fail_on_box(format!("a {} result may overflow on an input box", f.name()));
        }
        let smallest = v.min_computed();
        if smallest >= normal && binade(smallest) == binade(largest) {
            // Every value rounded lies in one binade [2^E, 2^(E+1)) of
            // normal numbers: the rounding errs by at most half its ulp,
            // 2^(E-p), at most twice tighter than the relative bound at
            // the top of the binade.
            let half_ulp = 2f64.powi(binade(largest) - f.significand_bits() as i32);
            self.used.insert(ONE_BINADE);
            return Some(Bound { alpha: add_up(v.alpha, half_ulp), ..v });
        }
        let tiny = !exact_when_tiny && smallest < normal;
        let rho = add_up(mul_up(v.rho, up(1.0 + u)), u);
        let mu = mul_up(v.mu, up(1.0 + u));
        let alpha = add_up(mul_up(v.alpha, up(1.0 + u)), if tiny { eta } else { 0.0 });
        Some(Bound { rho, mu, alpha, ..v })
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
        let parts = r.parts(s.format);
        let range = match parts.as_slice() {
            [(plo, phi)] => format!("in [{plo:e}, {phi:e}]"),
            _ => parts.iter().map(|(plo, phi)| format!("[{plo:e}, {phi:e}]")).collect::<Vec<_>>().join(" or "),
        };
        match words.last_mut() {
            // Elements of one array over one range are named once.
            Some((n, count, r)) if *n == name && *r == range => *count += 1,
            _ => words.push((name, 1, range)),
        }
        start.push((input, lo, hi, parts));
    }
    // An input whose range is two parts (a magnitude bound cut zero out)
    // starts as one box per part, while there are few such inputs; else
    // as the whole range (it holds both parts).
    let mut first: Vec<Vec<(FloatInput, f64, f64)>> = vec![Vec::new()];
    for (input, lo, hi, parts) in &start {
        let ranges = if parts.len() > 1 && first.len() * parts.len() <= START_BOXES { parts.clone() } else { vec![(*lo, *hi)] };
        first = first
            .into_iter()
            .flat_map(|b| {
                ranges.iter().map(move |(plo, phi)| {
                    let mut b = b.clone();
                    b.push((*input, *plo, *phi));
                    b
                })
            })
            .collect();
    }
    let mut stack = first;
    let mut used = std::collections::BTreeSet::new();
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
            atom_ranges: Vec::new(),
            boxes: b.iter().map(|(i, lo, hi)| (*i, (*lo, *hi))).collect(),
            memo: FxHashMap::default(),
            why: None,
            used: Default::default(),
        };
        match bound_on_box(&mut a, q) {
            Ok(Some(m)) => {
                max = max.max(m);
                used.extend(a.used.iter().copied());
            }
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
    Ok(Proved { max, boxes, inputs: words.join(", "), used: used.into_iter().collect() })
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
    // Both intervals hold the one real value R, whose magnitude |R|abs
    // (the sum of its terms' absolute values) lies in [mlo, mhi].
    let rmax = g.max_abs().min(w.max_abs());
    let rmin = g.min_abs().max(w.min_abs());
    let (mlo, mhi) = (a.magnitude_low(&g.shadow).max(rmin), a.magnitude(&g.shadow));
    // |got - want| <= rho |R| + mu |R|abs + alpha; the check's double
    // subtraction rounds once more.
    let rho = add_up(g.rho, w.rho);
    let mu = add_up(g.mu, w.mu);
    let alpha = add_up(g.alpha, w.alpha);
    let slack = up(1.0 + f64::EPSILON);
    let err_at = |r: f64| up(slack * add_up(add_up(mul_up(rho, r), mul_up(mu, mhi)), alpha));
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
            // |ref| >= (1 - rho_r)|R_ref| - mu_r |R_ref|abs - alpha_r.
            let r_mu = mul_up(r.mu, r.mag_hi);
            let lower = |x: f64| down(down(down(x * down(1.0 - r.rho)) - r_mu) - r.alpha);
            let holds_at = |x: f64, e: f64| e <= limit(lower(x));
            if r.shadow == g.shadow || r.shadow == g.shadow.scaled(-1.0).unwrap_or_default() {
                // The same real: both sides of the inequality are linear in |R|.
                let ok = holds_at(rmin, err_at(rmin)) && holds_at(rmax, err_at(rmax));
                let worst = if rmin > 0.0 { err_at(rmin) / lower(rmin) } else { f64::INFINITY };
                Ok(ok.then_some(worst.max(err_at(rmax) / lower(rmax))))
            } else if let Some(worst) = relative_to_magnitude(a, &g.shadow, &r, rho, mu, alpha, mlo, mhi, bound) {
                a.used.insert(MAGNITUDE_REFERENCE);
                Ok(worst)
            } else {
                let e = err_at(rmax);
                let ok = holds_at(r.min_abs(), e);
                Ok(ok.then(|| e / lower(r.min_abs())))
            }
        }
        ToleranceKind::Ulp => {
            // Both values have the sign of R and magnitude at least m; no
            // two floats of magnitude >= m are closer than the spacing at m.
            let m = g.min_computed().min(w.min_computed());
            if m.is_nan() || m <= 0.0 {
                return Ok(None);
            }
            let ulps = (err_at(rmax) / spacing_at(f, m)).floor();
            let ulps = match ulps_through_last_rounding(a, q) {
                Some(k) if k < ulps => {
                    a.used.insert(LAST_ROUNDING);
                    k
                }
                _ => ulps,
            };
            Ok((ulps <= bound).then_some(ulps))
        }
    }
}

/// The spacing of the floats of format `f` of magnitude at least `m > 0`.
fn spacing_at(f: FpFormat, m: f64) -> f64 {
    let (_, eta, normal, _) = format_constants(f);
    let p = f.significand_bits() as i32;
    if m < normal {
        2.0 * eta
    } else {
        2f64.powi(binade(m) - (p - 1))
    }
}

/// The ulps apart of two values that are each one rounding to nearest of
/// reals X and Y: every float strictly between round(X) and round(Y) lies
/// strictly between X and Y (a float nearer to X than round(X) would be
/// round(X)), so with |X - Y| <= D and s the spacing at the least
/// magnitude of X and Y (same sign), they are at most ceil(D/s) + 1 ulps
/// apart: the last rounding counts once, not once per side.
fn ulps_through_last_rounding(a: &mut Analyser, q: &CloseQuestion) -> Option<f64> {
    let f = q.format;
    let (x, _) = a.unrounded(q.got, f)??;
    let (y, _) = a.unrounded(q.want, f)??;
    if x.shadow != y.shadow {
        return None;
    }
    let m = x.min_computed().min(y.min_computed());
    let same_sign = (x.lo > 0.0 && y.lo > 0.0) || (x.hi < 0.0 && y.hi < 0.0);
    if !same_sign || m.is_nan() || m <= 0.0 {
        return None;
    }
    let rmax = x.max_abs().min(y.max_abs());
    let mhi = a.magnitude(&x.shadow);
    let d = add_up(add_up(mul_up(add_up(x.rho, y.rho), rmax), mul_up(add_up(x.mu, y.mu), mhi)), add_up(x.alpha, y.alpha));
    if d == 0.0 {
        return Some(0.0);
    }
    Some((d / spacing_at(f, m)).ceil() + 1.0)
}

/// A `rel-to` reference that is the magnitude of the sides' real R (each
/// term of R, in absolute value, summed: `|a*b| + |c|` for `a*b + c`):
/// `|ref| >= |R|abs` when every term of the reference has one sign on the
/// box and each of R's terms appears in it with at least its weight. Then
/// `|got - want| <= (rho + mu)|R|abs + alpha` against `bound * |ref|`, both
/// linear in `|R|abs`, holds on the box when it holds at both ends of
/// `[mlo, mhi]`. `None`: the reference is not of that form; `Some(None)`:
/// it is, and the bound does not hold on this box.
#[allow(clippy::too_many_arguments)]
fn relative_to_magnitude(
    a: &Analyser,
    shadow: &Shadow,
    r: &Bound,
    rho: f64,
    mu: f64,
    alpha: f64,
    mlo: f64,
    mhi: f64,
    bound: f64,
) -> Option<Option<f64>> {
    if !a.terms_of_one_sign(&r.shadow) {
        return None;
    }
    let weight = |s: &Shadow, t: &u32| s.terms.get(t).map(|c| f64::from_bits(*c).abs()).unwrap_or(0.0);
    let covers = shadow.terms.keys().all(|t| weight(&r.shadow, t) >= weight(shadow, t))
        && f64::from_bits(r.shadow.constant).abs() >= f64::from_bits(shadow.constant).abs();
    if !covers {
        return None;
    }
    // The reference's own error: |R_ref| = |R_ref|abs here, so its terms
    // together are relative to it.
    let shrink = down(down(1.0 - r.rho) - r.mu);
    let factor = add_up(rho, mu);
    let slack = up(1.0 + f64::EPSILON);
    let err_at = |m: f64| up(slack * add_up(mul_up(factor, m), alpha));
    let lower = |m: f64| down(down(m * shrink) - r.alpha);
    let limit = |x: f64| down(down(down(bound * x) * down(1.0 - f64::EPSILON)) - f64::from_bits(1));
    let ok = shrink > 0.0 && err_at(mlo) <= limit(lower(mlo)) && err_at(mhi) <= limit(lower(mhi));
    Some(ok.then(|| (err_at(mlo) / lower(mlo)).max(err_at(mhi) / lower(mhi))))
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

    #[test]
    fn outward_steps_are_exact_when_double_holds_the_result() {
        let u = 2f64.powi(-23);
        // Exact: no place outward (2^-23 + 2^-23 once came out above 2^-22).
        assert_eq!(add_up(u, u), 2.0 * u);
        assert_eq!(sub_down(1.0, u), 1.0 - u);
        assert_eq!(mul_up(3.0, 0.5), 1.5);
        assert_eq!(mul_down(3.0, 0.5), 1.5);
        // Inexact: one place outward, so the real result is held.
        let (a, b) = (1.0, 2f64.powi(-60));
        assert!(add_up(a, b) > 1.0 && sub_down(a, b) < 1.0);
        assert!(mul_up(0.1, 0.1) > 0.1 * 0.1 && mul_down(0.1, 0.1) < 0.1 * 0.1);
        assert_eq!(mul_down(0.0, f64::INFINITY), 0.0);
    }

    #[test]
    fn binades_and_spacings_are_read_from_the_bits() {
        assert_eq!(binade(1.0), 0);
        assert_eq!(binade(1.999_999), 0);
        assert_eq!(binade(2.0), 1);
        assert_eq!(binade(0.75), -1);
        assert_eq!(binade(f64::MIN_POSITIVE), -1022);
        assert_eq!(binade(f64::from_bits(1)), -1074);
        assert_eq!(binade(f64::from_bits(3)), -1073);
        let f = FpFormat::Single;
        assert_eq!(spacing_at(f, 1.5), 2f64.powi(-23));
        assert_eq!(spacing_at(f, 4.0), 2f64.powi(-21));
        // Below the normal range the spacing is the smallest subnormal.
        assert_eq!(spacing_at(f, 1e-40), 2f64.powi(-149));
    }

    #[test]
    fn the_magnitude_term_folds_into_the_absolute_one() {
        let b = Bound { shadow: Shadow::constant(0.0), lo: -1.0, hi: 3.0, rho: 0.0, alpha: 0.5, mu: 0.25, mag_hi: 8.0 };
        let before = b.max_error();
        let folded = b.without_mu();
        assert_eq!((folded.mu, folded.alpha), (0.0, 2.5));
        assert_eq!(folded.max_error(), before, "folding loses nothing at the magnitude's top");
    }

    fn sum3(pool: &mut ExprPool, ulps: f64) -> (CloseQuestion, Vec<ExprId>) {
        let arr = pool.new_array("v", 12);
        let f = FpFormat::Single;
        let mut xs = Vec::new();
        let mut path = Vec::new();
        for k in 0..3 {
            let (x, c) = ranged(pool, arr, k, 1.0, 2.0);
            xs.push(x);
            path.push(c);
        }
        let ab = pool.fbin(FBinOp::Add, f, xs[0], xs[1]);
        let left = pool.fbin(FBinOp::Add, f, ab, xs[2]);
        let bc = pool.fbin(FBinOp::Add, f, xs[1], xs[2]);
        let right = pool.fbin(FBinOp::Add, f, xs[0], bc);
        let tolerance = Tolerance { kind: ToleranceKind::Ulp, bound: ulps };
        (CloseQuestion { format: f, got: left, want: right, reference: right, tolerance }, path)
    }

    #[test]
    fn the_last_rounding_counts_once_so_a_regrouped_sum_is_within_two_ulps_not_one() {
        let mut pool = ExprPool::new();
        let (q, path) = sum3(&mut pool, 2.0);
        let p = prove(&pool, &path, &q).unwrap();
        assert_eq!(p.max, 2.0, "{p:?}");
        assert!(p.used.contains(&LAST_ROUNDING), "{p:?}");
        assert!(p.used.contains(&ONE_BINADE), "the inner sums stay in [2, 4): {p:?}");
        let (q, path) = sum3(&mut pool, 1.0);
        assert!(prove(&pool, &path, &q).is_err());
    }

    /// `a*b + c` unfused against fused, relative to `|a*b| + |c|` (computed
    /// in float), with c of the other sign: the sum may cancel, its error
    /// stays relative to the magnitude.
    fn fused_against_unfused(pool: &mut ExprPool, bound: f64) -> (CloseQuestion, Vec<ExprId>) {
        let arr = pool.new_array("v", 12);
        let f = FpFormat::Single;
        let (a, ca) = ranged(pool, arr, 0, 1.0, 2.0);
        let (b, cb) = ranged(pool, arr, 1, 1.0, 2.0);
        let (c, cc) = ranged(pool, arr, 2, -4.0, -1.0);
        let ab = pool.fbin(FBinOp::Mul, f, a, b);
        let unfused = pool.fbin(FBinOp::Add, f, ab, c);
        let fused = pool.fma(f, a, b, c);
        let abs_ab = pool.fabs(f, ab);
        let abs_c = pool.fabs(f, c);
        let magnitude = pool.fbin(FBinOp::Add, f, abs_ab, abs_c);
        let tolerance = Tolerance { kind: ToleranceKind::RelativeTo, bound };
        (CloseQuestion { format: f, got: unfused, want: fused, reference: magnitude, tolerance }, vec![ca, cb, cc])
    }

    #[test]
    fn a_cancelling_sum_is_bounded_relative_to_its_terms_magnitude() {
        let mut pool = ExprPool::new();
        let (q, path) = fused_against_unfused(&mut pool, 2f64.powi(-22));
        let p = prove(&pool, &path, &q).unwrap();
        assert!(p.max <= 2f64.powi(-22), "{p:?}");
        assert!(p.used.contains(&MIXED_SIGNS) && p.used.contains(&MAGNITUDE_REFERENCE), "{p:?}");
        // Two roundings of up to half an ulp of the magnitude each cannot
        // be shown within one half.
        let (q, path) = fused_against_unfused(&mut pool, 2f64.powi(-25));
        assert!(prove(&pool, &path, &q).is_err());
    }
}
