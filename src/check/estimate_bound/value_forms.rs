//! Values written as `M * t`: a product of powers of the inputs' magnitudes
//! and signs, times a real interval; the proof that a condition is false.

use super::*;

/// An exponent (in halves) of an input's magnitude, and whether its sign
/// is a factor.
pub(super) type Factor = (i32, bool);

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Form {
    /// Inputs with a non-trivial factor, by node.
    pub(super) m: BTreeMap<ExprId, Factor>,
    /// The relative part, a polynomial in the estimates' error variables
    /// (error_terms.rs), so that errors that cancel do cancel.
    pub(super) t: Poly,
    /// An interval holding `t`'s value too, computed by interval
    /// arithmetic alongside: where no error term cancels it can be the
    /// tighter (a rounding with `M` = 1 rounds its ends exactly).
    pub(super) hull: Iv,
}

impl Form {
    pub(super) fn constant(t: Iv) -> Form {
        Form { m: BTreeMap::new(), t: Poly::constant(t), hull: t }
    }
    pub(super) fn new(m: BTreeMap<ExprId, Factor>, t: Poly, hull: Iv) -> Form {
        Form { m, t, hull }
    }
    /// The values `t` takes: both enclosures at once.
    pub(super) fn span(&self) -> Iv {
        meet(self.t.range(), self.hull)
    }
    /// Whether `M` is a constant magnitude (powers zero; a sign may remain).
    pub(super) fn magnitude_one(&self) -> bool {
        self.m.values().all(|&(h, _)| h == 0)
    }
    pub(super) fn signs_free(&self) -> bool {
        self.m.values().all(|&(_, s)| !s)
    }
}

/// The relations `x ? y` can have for values in the two intervals (bits
/// of `Outcomes`), the ends compared exactly.
pub(super) fn relations(x: Iv, y: Iv) -> u8 {
    let mut out = 0;
    if x.lo < y.hi {
        out |= Outcomes::LT;
    }
    if x.hi > y.lo {
        out |= Outcomes::GT;
    }
    if x.lo <= y.hi && y.lo <= x.hi {
        out |= Outcomes::EQ;
    }
    out
}

/// The intersection of two intervals holding the same value.
pub(super) fn meet(a: Iv, b: Iv) -> Iv {
    let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
    if lo <= hi {
        Iv { lo, hi }
    } else {
        a
    }
}

pub(super) fn combine(a: &BTreeMap<ExprId, Factor>, b: &BTreeMap<ExprId, Factor>, sign: i32) -> BTreeMap<ExprId, Factor> {
    let mut m = a.clone();
    for (&k, &(h, s)) in b {
        let e = m.entry(k).or_insert((0, false));
        e.0 += sign * h;
        e.1 ^= s;
    }
    m.retain(|_, f| *f != (0, false));
    m
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Tri {
    True,
    False,
    Either,
}

impl Tri {
    pub(super) fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Either => Tri::Either,
        }
    }
    pub(super) fn of(b: bool) -> Tri {
        if b {
            Tri::True
        } else {
            Tri::False
        }
    }
}

pub(super) struct Analysis<'a> {
    pub(super) pool: &'a ExprPool,
    pub(super) ranges: &'a FxHashMap<ExprId, InputRange>,
    pub(super) forms: FxHashMap<(ExprId, FpFormat), Option<Form>>,
    /// Error variables handed out (one per estimate node).
    pub(super) variables: u32,
    /// Estimates as intervals, without error variables.
    pub(super) intervals_only: bool,
}

impl Analysis<'_> {
    /// The truth of a one-bit (or zero-extended one-bit) condition.
    pub(super) fn truth(&mut self, e: ExprId) -> Option<Tri> {
        let pool = self.pool;
        if let Some(k) = pool.as_const(e) {
            return (pool.width(e) == 1).then_some(Tri::of(k != 0));
        }
        let node = pool.get(e).into_owned();
        match node {
            Expr::ZExt(a, _) if pool.width(a) == 1 => self.truth(a),
            Expr::Not(a) if pool.width(a) == 1 => Some(self.truth(a)?.not()),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) if pool.width(e) == 1 => {
                // One absorbing side decides, whatever the other is.
                let absorbing = if op == BinOp::And { Tri::False } else { Tri::True };
                let x = self.truth(a);
                if x == Some(absorbing) {
                    return x;
                }
                let y = self.truth(b);
                if y == Some(absorbing) {
                    return y;
                }
                let (x, y) = (x?, y?);
                Some(if x == y { x } else { Tri::Either })
            }
            Expr::Bin(BinOp::Xor, a, b) if pool.width(e) == 1 => match (self.truth(a)?, self.truth(b)?) {
                (Tri::Either, _) | (_, Tri::Either) => Some(Tri::Either),
                (x, y) => Some(Tri::of(x != y)),
            },
            Expr::Ite(c, t, f) if pool.width(e) == 1 => match self.truth(c)? {
                Tri::True => self.truth(t),
                Tri::False => self.truth(f),
                Tri::Either => {
                    let (x, y) = (self.truth(t)?, self.truth(f)?);
                    Some(if x == y { x } else { Tri::Either })
                }
            },
            Expr::Cmp(CmpOp::Eq, a, b) => {
                let (v, k) = match (pool.as_const(a), pool.as_const(b)) {
                    (None, Some(k)) => (a, k),
                    (Some(k), None) => (b, k),
                    _ => return None,
                };
                // A finite value never has the bits of an infinity or a NaN.
                if let Some(f) = FpFormat::from_width(pool.width(v)).filter(|&f| f != FpFormat::Half) {
                    let infinity = abs_mask(f) & !((1u128 << (f.significand_bits() - 1)) - 1);
                    if k & abs_mask(f) >= infinity {
                        return self.form(v, f).map(|_| Tri::False);
                    }
                }
                let bit = boolean(pool, v)?;
                let t = self.truth(bit)?;
                match k {
                    0 => Some(t.not()),
                    1 => Some(t),
                    _ => Some(Tri::False),
                }
            }
            Expr::FCmp(outcomes, f, a, b) => {
                let (x, y) = (self.form(a, f)?, self.form(b, f)?);
                let possible = self.outcomes(&x, &y)?;
                Some(if (possible & !outcomes.0) == 0 {
                    Tri::True
                } else if (possible & outcomes.0) == 0 {
                    Tri::False
                } else {
                    Tri::Either
                })
            }
            _ => None,
        }
    }

    /// The relations `a ? b` can have (bits of `Outcomes`; never unordered,
    /// both being finite).
    pub(super) fn outcomes(&self, a: &Form, b: &Form) -> Option<u8> {
        // Each enclosure admits a set of relations; the true one is in
        // both, so only relations both admit remain.
        if a.m == b.m && a.signs_free() {
            // With one M, compare the relative parts: their intervals end
            // to end (exact comparisons of the ends), and the difference
            // of their polynomials, whose shared error terms cancel.
            let by_ends = relations(a.hull, b.hull);
            let t = a.t.sub(&b.t).range();
            Some(by_ends & relations(t, Iv::point(0.0)))
        } else {
            Some(relations(self.values(a)?, self.values(b)?))
        }
    }

    /// The range of `M` (positive) of a form.
    pub(super) fn magnitude_range(&self, m: &BTreeMap<ExprId, Factor>) -> Option<Iv> {
        let mut r = Iv::point(1.0);
        for (k, &(h, _)) in m {
            if h == 0 {
                continue;
            }
            let (lo, hi) = self.ranges.get(k)?.magnitude();
            r = r.mul(power(lo, hi, h)?);
        }
        (r.finite() && r.lo > 0.0).then_some(r)
    }

    /// The values a form takes, as one interval.
    pub(super) fn values(&self, a: &Form) -> Option<Iv> {
        let m = self.magnitude_range(&a.m)?;
        let v = if a.signs_free() {
            m.mul(a.span())
        } else {
            let big = m.mul(Iv::point(a.span().greatest_magnitude())).hi;
            Iv { lo: -big, hi: big }
        };
        v.finite().then_some(v)
    }

    /// The form of `e` read as a float of format `f`.
    pub(super) fn form(&mut self, e: ExprId, f: FpFormat) -> Option<Form> {
        if let Some(done) = self.forms.get(&(e, f)) {
            return done.clone();
        }
        if self.forms.len() > NODE_BUDGET {
            return None;
        }
        let r = self.form_of(e, f).filter(|x| x.t.finite() && x.hull.finite());
        self.forms.insert((e, f), r.clone());
        r
    }

    pub(super) fn form_of(&mut self, e: ExprId, f: FpFormat) -> Option<Form> {
        let pool = self.pool;
        if pool.width(e) != f.width() || f == FpFormat::Half {
            return None;
        }
        if let Some(k) = pool.as_const(e) {
            let v = to_f64(f, k);
            return v.is_finite().then(|| Form::constant(Iv::point(v)));
        }
        if let Some(est) = pool.estimate_of(e) {
            return (f == FpFormat::Single).then(|| self.estimate(est)).flatten();
        }
        if let Some(r) = self.ranges.get(&e) {
            if r.format != f || !r.normal() {
                return None;
            }
            return Some(match r.sign() {
                Some(s) => Form::new(BTreeMap::from([(e, (2, false))]), Poly::constant(Iv::point(s)), Iv::point(s)),
                None => Form::new(BTreeMap::from([(e, (2, true))]), Poly::constant(Iv::point(1.0)), Iv::point(1.0)),
            });
        }
        let node = pool.get(e).into_owned();
        match node {
            Expr::Bin(BinOp::And, a, m) | Expr::Bin(BinOp::And, m, a) if pool.as_const(m) == Some(abs_mask(f)) => {
                let x = self.form(a, f)?;
                let m = x.m.into_iter().map(|(k, (h, _))| (k, (h, false))).filter(|&(_, fac)| fac != (0, false)).collect();
                Some(Form::new(m, x.t.abs(), x.hull.abs()))
            }
            Expr::Bin(BinOp::Xor, a, m) | Expr::Bin(BinOp::Xor, m, a) if pool.as_const(m) == Some(sign_mask(f)) => {
                let x = self.form(a, f)?;
                Some(Form::new(x.m, x.t.neg(), x.hull.neg()))
            }
            Expr::FpConvert { from, to, value } if to == f => {
                let x = self.form(value, from)?;
                if from.width() <= to.width() {
                    Some(x)
                } else {
                    self.round(to, x)
                }
            }
            Expr::FBin(op, g, a, b) if g == f => {
                let (x, y) = (self.form(a, f)?, self.form(b, f)?);
                let exact = match op {
                    FBinOp::Mul => Form::new(combine(&x.m, &y.m, 1), x.t.mul(&y.t), x.hull.mul(y.hull)),
                    FBinOp::Div => Form::new(combine(&x.m, &y.m, -1), x.t.div(&y.t)?, x.hull.div(y.hull)?),
                    FBinOp::Add | FBinOp::Sub if x.m == y.m => {
                        let (t, h) = if op == FBinOp::Add { (y.t, y.hull) } else { (y.t.neg(), y.hull.neg()) };
                        Form::new(x.m, x.t.add(&t), x.hull.add(h))
                    }
                    _ => return None,
                };
                self.round(f, exact)
            }
            Expr::Fma(g, a, b, c) if g == f => {
                let (x, y, z) = (self.form(a, f)?, self.form(b, f)?, self.form(c, f)?);
                let m = combine(&x.m, &y.m, 1);
                if m != z.m {
                    return None;
                }
                let t = x.t.mul(&y.t).add(&z.t);
                let hull = x.hull.mul(y.hull).add(z.hull);
                self.round(f, Form::new(m, t, hull))
            }
            Expr::FUn(FUnOp::Sqrt, g, a) if g == f => {
                let x = self.form(a, f)?;
                if !x.signs_free() || x.m.values().any(|&(h, _)| h % 2 != 0) {
                    return None;
                }
                let m = x.m.iter().map(|(&k, &(h, _))| (k, (h / 2, false))).collect();
                let t = x.t.sqrt()?;
                let hull = x.hull.sqrt()?;
                self.round(f, Form::new(m, t, hull))
            }
            // A select whose condition the ranges decide (the special
            // cases of FRECPS/FRSQRTS: NaN, infinity times zero).
            Expr::Ite(c, yes, no) if pool.width(c) == 1 => match self.truth(c)? {
                Tri::True => self.form(yes, f),
                Tri::False => self.form(no, f),
                Tri::Either => None,
            },
            _ => None,
        }
    }

    /// An estimate of an operand: the exact value times `[1 - e, 1 + e]`,
    /// where the operand's range shows the documented bound applies.
    pub(super) fn estimate(&mut self, est: Estimate) -> Option<Form> {
        let x = self.form(est.input, FpFormat::Single)?;
        let magnitudes = self.magnitude_range(&x.m)?.mul(x.span().abs());
        let (lo, hi) = (magnitudes.lo, magnitudes.hi);
        let e = est.kind.relative_error();
        let band_hull = Iv { lo: 1.0 - e, hi: 1.0 + e };
        let band = if self.intervals_only { Poly::constant(band_hull) } else { Poly::band(self.variables, e) };
        self.variables += 1;
        match est.kind.is_root() {
            false => {
                // Normal, and below the magnitudes whose reciprocal may be
                // flushed (simd/float_ops.rs): there the result, the choice
                // or the rounded reciprocal, is within the bound.
                let no_flush = f32::from_bits(0x7e7f_e800) as f64;
                if lo < min_normal(FpFormat::Single) || hi > no_flush {
                    return None;
                }
                Some(Form::new(combine(&BTreeMap::new(), &x.m, -1), band.div(&x.t)?, band_hull.div(x.hull)?))
            }
            true => {
                let positive = x.signs_free() && x.span().lo > 0.0;
                if lo < min_normal(FpFormat::Single) || hi > max_finite(FpFormat::Single) || !positive {
                    return None;
                }
                if x.m.values().any(|&(h, _)| h % 2 != 0) {
                    return None;
                }
                let m = x.m.iter().map(|(&k, &(h, _))| (k, (-h / 2, false))).collect();
                Some(Form::new(m, band.div(&x.t.sqrt()?)?, band_hull.div(x.hull.sqrt()?)?))
            }
        }
    }

    /// The rounding of an exact value to `f`.
    pub(super) fn round(&self, f: FpFormat, x: Form) -> Option<Form> {
        let limit = max_finite(f);
        let span = x.span();
        if x.magnitude_one() {
            // Rounding to nearest is monotone and odd: the ends of what
            // the value may be bound it.
            let hull = Iv { lo: round_to(f, span.lo), hi: round_to(f, span.hi) };
            if !(hull.lo.abs() <= limit && hull.hi.abs() <= limit) {
                return None;
            }
            let t = match x.t.as_interval() {
                Some(_) => Poly::constant(hull),
                // With error terms: |fl(v) - v| <= u |v| + eta.
                None => x.t.widened(add_dir(mul_dir(span.greatest_magnitude(), unit_roundoff(f)).1, subnormal_error(f)).1),
            };
            return Some(Form::new(x.m, t, hull));
        }
        let m = self.magnitude_range(&x.m)?;
        let u = unit_roundoff(f);
        let greatest = span.greatest_magnitude();
        let largest = m.mul(Iv::point(greatest)).hi;
        let top = mul_dir(largest, 1.0 + u).1;
        if top.is_nan() || top >= limit {
            return None;
        }
        let eta = div_dir(subnormal_error(f), m.lo).1;
        let spread = |v: f64| mul_dir(v.abs(), u).1;
        let lo = add_dir(add_dir(span.lo, -spread(span.lo)).0, -eta).0;
        let hi = add_dir(add_dir(span.hi, spread(span.hi)).1, eta).1;
        let hull = Iv { lo, hi };
        let t = match x.t.as_interval() {
            Some(_) => Poly::constant(hull),
            None => x.t.widened(add_dir(spread(greatest), eta).1),
        };
        Some(Form::new(x.m, t, hull))
    }
}
