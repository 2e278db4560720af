//! Intervals of reals with double ends, rounded outwards (error-free
//! transformations say which way), so every step encloses the exact result.

#[derive(Copy, Clone, Debug, PartialEq)]
pub(in crate::check) struct Iv {
    pub(in crate::check) lo: f64,
    pub(in crate::check) hi: f64,
}

/// Below 2^-900 the error terms below may themselves underflow; results
/// there are widened by an ulp whatever the error term says.
pub(super) const TINY: f64 = 1e-270;

pub(super) fn widen(v: f64, err: f64) -> (f64, f64) {
    if !v.is_finite() {
        return (f64::NEG_INFINITY.min(v), f64::INFINITY.max(v));
    }
    if v.abs() < TINY {
        (v.next_down(), v.next_up())
    } else if err > 0.0 {
        (v, v.next_up())
    } else if err < 0.0 {
        (v.next_down(), v)
    } else {
        (v, v)
    }
}

pub(super) fn add_dir(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if s.abs() < TINY && s != 0.0 {
        return (s.next_down(), s.next_up());
    }
    widen(s, if s.is_finite() { err } else { 0.0 })
}

pub(super) fn mul_dir(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if a == 0.0 || b == 0.0 {
        return (0.0, 0.0);
    }
    widen(p, a.mul_add(b, -p))
}

pub(super) fn div_dir(a: f64, b: f64) -> (f64, f64) {
    let q = a / b;
    if a == 0.0 {
        return (0.0, 0.0);
    }
    // a - q b, exact: its sign times b's says which side the quotient is.
    let r = (-q).mul_add(b, a);
    widen(q, if b > 0.0 { r } else { -r })
}

pub(super) fn sqrt_dir(a: f64) -> (f64, f64) {
    let s = a.sqrt();
    if a == 0.0 {
        return (0.0, 0.0);
    }
    widen(s, (-s).mul_add(s, a))
}

impl Iv {
    pub(in crate::check) fn point(v: f64) -> Iv {
        Iv { lo: v, hi: v }
    }
    pub(in crate::check) fn finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite() && self.lo <= self.hi
    }
    pub(in crate::check) fn add(self, o: Iv) -> Iv {
        Iv { lo: add_dir(self.lo, o.lo).0, hi: add_dir(self.hi, o.hi).1 }
    }
    pub(in crate::check) fn neg(self) -> Iv {
        Iv { lo: -self.hi, hi: -self.lo }
    }
    pub(in crate::check) fn mul(self, o: Iv) -> Iv {
        let c = [mul_dir(self.lo, o.lo), mul_dir(self.lo, o.hi), mul_dir(self.hi, o.lo), mul_dir(self.hi, o.hi)];
        Iv { lo: c.iter().map(|p| p.0).fold(f64::INFINITY, f64::min), hi: c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) }
    }
    pub(in crate::check) fn div(self, o: Iv) -> Option<Iv> {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return None;
        }
        let c = [div_dir(self.lo, o.lo), div_dir(self.lo, o.hi), div_dir(self.hi, o.lo), div_dir(self.hi, o.hi)];
        Some(Iv { lo: c.iter().map(|p| p.0).fold(f64::INFINITY, f64::min), hi: c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) })
    }
    pub(in crate::check) fn abs(self) -> Iv {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Iv { lo: 0.0, hi: self.hi.max(-self.lo) }
        }
    }
    pub(in crate::check) fn sqrt(self) -> Option<Iv> {
        (self.lo >= 0.0).then(|| Iv { lo: sqrt_dir(self.lo).0, hi: sqrt_dir(self.hi).1 })
    }
    pub(in crate::check) fn greatest_magnitude(self) -> f64 {
        self.hi.abs().max(self.lo.abs())
    }
}

/// `v` to the power `halves / 2`, as an outward interval, for `v` in
/// `[lo, hi]`, `lo > 0`.
pub(super) fn power(lo: f64, hi: f64, halves: i32) -> Option<Iv> {
    let base = Iv { lo, hi };
    let mut r = Iv::point(1.0);
    for _ in 0..halves.unsigned_abs() / 2 {
        r = r.mul(base);
    }
    if halves % 2 != 0 {
        r = r.mul(base.sqrt()?);
    }
    if halves < 0 {
        r = Iv::point(1.0).div(r)?;
    }
    Some(r)
}
