//! Packed lanes: C code that computes two or four narrow lanes in one
//! machine word (pixman's `(x & 0xff00ff) * a + 0x800080`: two colour
//! channels in the 16-bit halves of a 32-bit word) rewritten lane by lane,
//! so that it meets SIMD code that keeps each lane in a vector element of
//! its own; and, within a lane, the C and SSE2 spellings of the byte
//! multiply and of the saturating byte add given one shape. Applied to both
//! sides of an integer check before the integer normal form
//! (`int_normal.rs`), which then sees lane against lane.
//!
//! A word is viewed as fields: values at bit offsets whose ranges
//! (`crate::ranges`) occupy disjoint bits, so that the word is both their
//! sum and their bitwise or. Masks and bitwise operations work field by
//! field always; a sum, a difference, or a product by one scalar works
//! field by field where the ranges show that no carry (or borrow) leaves a
//! field's bits for the next (the top field may wrap: the word wraps the
//! same); where one could, the fields merge. A node of any other kind is
//! one field, rebuilt over its rewritten operands.
//!
//! Within a field two identities hold under range side conditions:
//! - byte multiply: for `t` with `t + (t >> 8)` not wrapping and
//!   `t < 2^16`, `(t + (t >> 8)) >> 8 = (t * 0x101) >> 16` (both are
//!   `floor((t + floor(t / 256)) / 256)`): C's `((t >> 8) + t) >> 8`
//!   against SSE2's `_mm_mulhi_epu16(t, 0x0101)`; the C spelling becomes
//!   the SSE2 one, `(zext32(t) * 0x101)[bits 16..]`.
//! - saturating add: for `t <= 0x1ff` and `c` whose low byte is zero, the
//!   low byte of `t | (c - (t >> 8))` is that of `min(t, 255)`: C's
//!   `t | -(t >> 8)` against `_mm_adds_epu8`; it becomes
//!   `t <= 255 ? t[bits 0..7] : 0xff`.
//!
//! Every step is an identity of the bits on every input the range facts
//! allow (those of the input widths, and of the path when built
//! `for_path`). `tests/packed_lanes.rs` checks the two identities
//! exhaustively and with the solver, and the rewrite by evaluation. A side
//! on which neither identity applies is left as it is: splitting its words
//! would only respell it.

use crate::expr::{mask, BinOp, CmpOp, Expr, ExprId, ExprPool, Width};
use crate::ranges::{path_facts, RangeAnalysis, TRACKED_WIDTH};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// One field of a word: `value` (of any width) placed at bit `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    offset: Width,
    value: ExprId,
}

/// A word of `width` bits as fields sorted by offset whose bits (by
/// range) are disjoint; bits outside every field are zero. `rewritten`
/// says whether one of the two lane identities applied below.
#[derive(Clone, Debug)]
struct View {
    width: Width,
    fields: Vec<Field>,
    rewritten: bool,
}

/// Rewrites integer expressions lane by lane; keeps its memo across
/// calls, so both sides of a check share the work.
pub struct PackedLanes {
    ranges: RangeAnalysis,
    views: FxHashMap<ExprId, Rc<View>>,
    rendered: FxHashMap<ExprId, ExprId>,
}

impl Default for PackedLanes {
    fn default() -> Self {
        PackedLanes { ranges: RangeAnalysis::new(), views: FxHashMap::default(), rendered: FxHashMap::default() }
    }
}

impl PackedLanes {
    /// Using the facts of the input widths only: its rewrites equal their
    /// expressions on every input.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also using the range facts of `path`: its rewrites equal their
    /// expressions on every input that takes the path.
    pub fn for_path(pool: &mut ExprPool, path: &[ExprId]) -> Self {
        PackedLanes { ranges: RangeAnalysis::with_facts(path_facts(pool, path)), ..Self::default() }
    }

    /// Its range analysis, to go on with: the integer normal form that
    /// follows on the same path need not read the path's facts again.
    pub fn into_ranges(self) -> RangeAnalysis {
        self.ranges
    }

    /// `root` rewritten lane by lane when one of the lane identities
    /// applies in it; `root` itself otherwise.
    pub fn rewrite(&mut self, pool: &mut ExprPool, root: ExprId) -> ExprId {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.views.contains_key(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(pool.children(id).into_iter().filter(|c| !self.views.contains_key(c)).map(|c| (c, false)));
                continue;
            }
            let v = self.view_of(pool, id);
            self.views.insert(id, Rc::new(v));
        }
        let v = self.views[&root].clone();
        if v.rewritten {
            self.render(pool, root)
        } else {
            root
        }
    }

    /// The largest unsigned value of `e`.
    fn umax(&mut self, pool: &ExprPool, e: ExprId) -> u128 {
        let w = pool.width(e);
        if w > TRACKED_WIDTH {
            return mask(w);
        }
        self.ranges.range(pool, e).unsigned.hi.max(0) as u128
    }

    fn umin(&mut self, pool: &ExprPool, e: ExprId) -> u128 {
        if pool.width(e) > TRACKED_WIDTH {
            return 0;
        }
        self.ranges.range(pool, e).unsigned.lo.max(0) as u128
    }

    /// Bits `e`'s values occupy: 0 for a value that is always 0.
    fn extent(&mut self, pool: &ExprPool, e: ExprId) -> Width {
        128 - self.umax(pool, e).leading_zeros()
    }

    /// `e` at width `w`, where its values fit `w` bits (or only its low
    /// `w` bits matter).
    fn resize(pool: &mut ExprPool, e: ExprId, w: Width) -> ExprId {
        let we = pool.width(e);
        match we.cmp(&w) {
            std::cmp::Ordering::Equal => e,
            std::cmp::Ordering::Less => pool.zext(e, w),
            std::cmp::Ordering::Greater => pool.extract(e, 0, w),
        }
    }

    /// Field `f` of a word, as a `w`-bit value of the bits from `base`.
    fn placed(pool: &mut ExprPool, f: Field, base: Width, w: Width) -> ExprId {
        let s = f.offset - base;
        if s == 0 {
            return Self::resize(pool, f.value, w);
        }
        let low = Self::resize(pool, f.value, w - s);
        let zeros = pool.constant(s, 0);
        pool.concat(low, zeros)
    }

    /// The word a view stands for.
    fn render_view(&mut self, pool: &mut ExprPool, v: &View) -> ExprId {
        match v.fields[..] {
            [] => return pool.constant(v.width, 0),
            [f] if f.offset == 0 => return Self::resize(pool, f.value, v.width),
            _ => {}
        }
        let mut acc: Option<ExprId> = None;
        let mut top = v.width;
        for f in v.fields.iter().rev() {
            let slot = Self::resize(pool, f.value, top - f.offset);
            acc = Some(match acc {
                None => slot,
                Some(a) => pool.concat(a, slot),
            });
            top = f.offset;
        }
        let mut e = acc.expect("fields");
        if top > 0 {
            let zeros = pool.constant(top, 0);
            e = pool.concat(e, zeros);
        }
        e
    }

    fn render(&mut self, pool: &mut ExprPool, id: ExprId) -> ExprId {
        if let Some(r) = self.rendered.get(&id) {
            return *r;
        }
        let v = self.views[&id].clone();
        let r = self.render_view(pool, &v);
        self.rendered.insert(id, r);
        r
    }

    /// A view of one field, `e` itself.
    fn whole(&mut self, pool: &ExprPool, e: ExprId, rewritten: bool) -> View {
        let width = pool.width(e);
        let fields = if pool.as_const(e) == Some(0) { vec![] } else { vec![Field { offset: 0, value: e }] };
        View { width, fields, rewritten }
    }

    /// `id` kept as one node over its operands as rewritten.
    fn opaque(&mut self, pool: &mut ExprPool, id: ExprId) -> View {
        let kids = pool.children(id);
        let rewritten = kids.iter().any(|k| self.views[k].rewritten);
        if !rewritten {
            return self.whole(pool, id, false);
        }
        let new: Vec<ExprId> = kids.iter().map(|&k| self.render(pool, k)).collect();
        let e = pool.rebuild(id, &new);
        self.whole(pool, e, true)
    }

    fn view_of(&mut self, pool: &mut ExprPool, id: ExprId) -> View {
        let w = pool.width(id);
        if w > TRACKED_WIDTH {
            return self.opaque(pool, id);
        }
        let node = pool.get(id).into_owned();
        let out = match node {
            Expr::Bin(op @ (BinOp::And | BinOp::Or | BinOp::Xor), a, b) => {
                let (va, vb) = (self.views[&a].clone(), self.views[&b].clone());
                match (op, pool.as_const(b)) {
                    (BinOp::And, Some(m)) => Some(self.masked(pool, &va, m)),
                    _ => Some(self.bitwise(pool, op, &va, &vb)),
                }
            }
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (va, vb) = (self.views[&a].clone(), self.views[&b].clone());
                self.arith(pool, op, &va, &vb)
            }
            Expr::Bin(BinOp::Mul, a, b) => {
                let (va, vb) = (self.views[&a].clone(), self.views[&b].clone());
                self.scaled(pool, &va, &vb)
            }
            Expr::Extract { value, offset, width } => {
                let v = self.views[&value].clone();
                Some(self.window(pool, &v, offset, width))
            }
            Expr::ZExt(a, _) => {
                let v = self.views[&a].clone();
                Some(View { width: w, fields: v.fields.clone(), rewritten: v.rewritten })
            }
            Expr::Concat(h, l) => {
                let (vh, vl) = (self.views[&h].clone(), self.views[&l].clone());
                let wl = pool.width(l);
                let mut fields = vl.fields.clone();
                fields.extend(vh.fields.iter().map(|f| Field { offset: f.offset + wl, value: f.value }));
                Some(View { width: w, fields, rewritten: vh.rewritten || vl.rewritten })
            }
            _ => None,
        };
        match out {
            Some(v) => v,
            None => self.opaque(pool, id),
        }
    }

    /// `v & m` for a constant `m`: each field cut to the runs of ones of
    /// `m` over its bits.
    fn masked(&mut self, pool: &mut ExprPool, v: &View, m: u128) -> View {
        let mut fields = Vec::new();
        let mut rewritten = v.rewritten;
        for &f in &v.fields {
            let e = self.extent(pool, f.value);
            let bits = (m >> f.offset) & mask(e);
            if bits == mask(e) {
                fields.push(f);
                continue;
            }
            let mut r = 0;
            while r < e {
                if bits >> r & 1 == 0 {
                    r += 1;
                    continue;
                }
                let mut n = 0;
                while r + n < e && bits >> (r + n) & 1 == 1 {
                    n += 1;
                }
                let (value, hit) = self.bits(pool, f.value, r, n);
                rewritten |= hit;
                fields.push(Field { offset: f.offset + r, value });
                r += n;
            }
        }
        View { width: v.width, fields, rewritten }
    }

    /// Bits `p .. p + k` of a word.
    fn window(&mut self, pool: &mut ExprPool, v: &View, p: Width, k: Width) -> View {
        let mut fields = Vec::new();
        let mut rewritten = v.rewritten;
        for &f in &v.fields {
            let e = self.extent(pool, f.value);
            let lo = f.offset.max(p);
            let hi = (f.offset + e).min(p + k);
            if lo >= hi {
                continue;
            }
            let (rel, n) = (lo - f.offset, hi - lo);
            let value = if rel == 0 && n == e {
                f.value
            } else {
                let (value, hit) = self.bits(pool, f.value, rel, n);
                rewritten |= hit;
                value
            };
            fields.push(Field { offset: lo - p, value });
        }
        View { width: k, fields, rewritten }
    }

    /// Bits `rel .. rel + n` of `e`, in the shape of the SSE2 spelling
    /// when they are a byte multiply or a saturating add; whether they were.
    fn bits(&mut self, pool: &mut ExprPool, e: ExprId, rel: Width, n: Width) -> (ExprId, bool) {
        if let Some(x) = self.byte_multiply(pool, e, rel, n) {
            return (x, true);
        }
        if let Some(x) = self.saturating_add(pool, e, rel, n) {
            return (x, true);
        }
        (pool.extract(e, rel, n), false)
    }

    /// Whether `h` is `t >> 8` (at `h`'s width): `t`'s bits from 8 up,
    /// zero-extended, covering every bit `t`'s values use.
    fn is_high_bits_of(&mut self, pool: &ExprPool, h: ExprId, t: ExprId) -> bool {
        let inner = match *pool.get(h) {
            Expr::ZExt(x, _) => x,
            Expr::Concat(z, x) if pool.as_const(z) == Some(0) => x,
            Expr::Extract { .. } => h,
            _ => return false,
        };
        match *pool.get(inner) {
            Expr::Extract { value, offset: 8, width } if value == t => {
                let e = self.extent(pool, t);
                8 + width >= e && width <= pool.width(h)
            }
            _ => false,
        }
    }

    /// Bits `rel ..` (rel >= 8) of `t + (t >> 8)`, for `t < 2^16` whose
    /// sum does not wrap, as bits `rel + 8 ..` of `zext32(t) * 0x101`.
    fn byte_multiply(&mut self, pool: &mut ExprPool, e: ExprId, rel: Width, n: Width) -> Option<ExprId> {
        if rel < 8 {
            return None;
        }
        let Expr::Bin(BinOp::Add, x, y) = *pool.get(e) else { return None };
        let t = if self.is_high_bits_of(pool, y, x) {
            x
        } else if self.is_high_bits_of(pool, x, y) {
            y
        } else {
            return None;
        };
        let tmax = self.umax(pool, t);
        let w = pool.width(e);
        if tmax >= 1 << 16 || tmax + (tmax >> 8) > mask(w) {
            return None;
        }
        let t16 = Self::resize(pool, t, 16);
        let wide = pool.zext(t16, 32);
        let k = pool.constant(32, 0x101);
        let product = pool.mul(wide, k);
        let from = rel + 8;
        Some(if from >= 32 {
            pool.constant(n, 0)
        } else if from + n <= 32 {
            pool.extract(product, from, n)
        } else {
            let part = pool.extract(product, from, 32 - from);
            pool.zext(part, n)
        })
    }

    /// The low byte of `t | (c - (t >> 8))`, `t <= 0x1ff`, `c`'s low byte
    /// zero, as `t <= 255 ? t[bits 0..7] : 0xff`.
    fn saturating_add(&mut self, pool: &mut ExprPool, e: ExprId, rel: Width, n: Width) -> Option<ExprId> {
        if rel != 0 || n != 8 {
            return None;
        }
        let Expr::Bin(BinOp::Or, x, y) = *pool.get(e) else { return None };
        self.clamped_sum(pool, x, y)
    }

    /// `t | d` with `d = c - (t >> 8)` (either order) as the clamp of
    /// `saturating_add`, on the low bytes.
    fn clamped_sum(&mut self, pool: &mut ExprPool, x: ExprId, y: ExprId) -> Option<ExprId> {
        for (t, d) in [(x, y), (y, x)] {
            let Expr::Bin(BinOp::Sub, c, h) = *pool.get(d) else { continue };
            let low_byte_zero = pool.as_const(c).is_some_and(|c| c & 0xff == 0);
            if !low_byte_zero || !self.is_high_bits_of(pool, h, t) || self.umax(pool, t) > 0x1ff {
                continue;
            }
            let wt = pool.width(t);
            let limit = pool.constant(wt, 0xff);
            let fits = pool.cmp(CmpOp::Ule, t, limit);
            let low = pool.extract(t, 0, 8);
            let full = pool.constant(8, 0xff);
            return Some(pool.ite(fits, low, full));
        }
        None
    }

    /// Groups of fields (indices into `all`) whose bits overlap, in
    /// order, with each group's lowest bit and the bit past its highest.
    fn clusters(&mut self, pool: &ExprPool, all: &[Field]) -> Vec<(Width, Width, Vec<usize>)> {
        let mut spans: Vec<(Width, Width, usize)> = all
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let e = self.extent(pool, f.value).max(1);
                (f.offset, f.offset + e, i)
            })
            .collect();
        spans.sort();
        let mut out: Vec<(Width, Width, Vec<usize>)> = Vec::new();
        for (lo, hi, i) in spans {
            match out.last_mut() {
                Some((_, end, members)) if lo < *end => {
                    *end = (*end).max(hi);
                    members.push(i);
                }
                _ => out.push((lo, hi, vec![i])),
            }
        }
        out
    }

    /// `a op b` for a bitwise `op`: fields whose bits overlap combine at
    /// a width holding them all; a field alone keeps its value (or goes,
    /// under `and`).
    fn bitwise(&mut self, pool: &mut ExprPool, op: BinOp, a: &View, b: &View) -> View {
        let w = a.width;
        let all: Vec<Field> = a.fields.iter().chain(b.fields.iter()).copied().collect();
        let from_a = a.fields.len();
        let groups = self.clusters(pool, &all);
        let mut fields = Vec::new();
        let mut rewritten = a.rewritten || b.rewritten;
        for (gi, (lo, hi, members)) in groups.iter().enumerate() {
            let next = groups.get(gi + 1).map_or(w, |g| g.0);
            let left: Vec<Field> = members.iter().filter(|&&i| i < from_a).map(|&i| all[i]).collect();
            let right: Vec<Field> = members.iter().filter(|&&i| i >= from_a).map(|&i| all[i]).collect();
            if left.is_empty() || right.is_empty() {
                if op != BinOp::And {
                    fields.extend(left.iter().chain(right.iter()).copied());
                }
                continue;
            }
            // The widest value's own width where it fits, so that a lane
            // keeps the width it was computed in.
            let widest = members.iter().map(|&i| pool.width(all[i].value)).max().unwrap_or(1);
            let cw = widest.max(hi - lo).min(next - lo);
            let side = |pool: &mut ExprPool, fs: &[Field]| {
                let parts: Vec<ExprId> = fs.iter().map(|&f| Self::placed(pool, f, *lo, cw)).collect();
                parts.into_iter().reduce(|x, y| pool.or(x, y)).expect("a field")
            };
            let (x, y) = (side(pool, &left), side(pool, &right));
            // The low bytes of `t` and of `c - (t >> 8)` or-ed (the
            // builder pushes a byte's extraction through the `|` of C's
            // saturating add): the clamp.
            let low_byte_of = |e: ExprId| match *pool.get(e) {
                Expr::Extract { value, offset: 0, width: 8 } => Some(value),
                _ => None,
            };
            let clamp = match (op, low_byte_of(x), low_byte_of(y)) {
                (BinOp::Or, Some(t), Some(d)) => self.clamped_sum(pool, t, d),
                _ => None,
            };
            rewritten |= clamp.is_some();
            let value = match clamp {
                Some(v) => v,
                None => pool.bin(op, x, y),
            };
            if pool.as_const(value) != Some(0) {
                fields.push(Field { offset: *lo, value });
            }
        }
        fields.sort_by_key(|f| f.offset);
        View { width: w, fields, rewritten }
    }

    /// `a + b` or `a - b` field by field, where no carry or borrow leaves a
    /// field but the top one; None when that holds only for the whole word.
    fn arith(&mut self, pool: &mut ExprPool, op: BinOp, a: &View, b: &View) -> Option<View> {
        let w = a.width;
        let symbolic =
            |pool: &ExprPool, v: &View| -> Vec<Field> { v.fields.iter().filter(|f| pool.as_const(f.value).is_none()).copied().collect() };
        let (sa, sb) = (symbolic(pool, a), symbolic(pool, b));
        let konst = |pool: &ExprPool, v: &View| -> u128 {
            v.fields.iter().filter_map(|f| pool.as_const(f.value).map(|c| c << f.offset)).fold(0u128, |x, y| x.wrapping_add(y)) & mask(w)
        };
        let (ca, cb) = (konst(pool, a), konst(pool, b));
        let all: Vec<Field> = sa.iter().chain(sb.iter()).copied().collect();
        let from_a = sa.len();
        let groups = self.clusters(pool, &all);
        if groups.len() < 2 {
            return None;
        }
        // Region boundaries: each group from its lowest bit (the first
        // from bit 0) to the next group's.
        let mut starts: Vec<Width> = groups.iter().map(|g| g.0).collect();
        starts[0] = 0;
        let members: Vec<Vec<usize>> = groups.iter().map(|g| g.2.clone()).collect();
        let mut bounds: Vec<(Width, Vec<usize>)> = starts.into_iter().zip(members).collect();
        // Merge a region into the next while its value may leave it.
        let mut i = 0;
        while i + 1 < bounds.len() {
            let (lo, hi) = (bounds[i].0, bounds[i + 1].0);
            let rw = hi - lo;
            let part = |c: u128| (c >> lo) & mask(rw);
            let (mut amin, mut amax, mut bmin, mut bmax) = (part(ca), part(ca), part(cb), part(cb));
            for &m in &bounds[i].1 {
                let f = all[m];
                let s = f.offset - lo;
                let (mn, mx) = (self.umin(pool, f.value) << s, self.umax(pool, f.value) << s);
                if m < from_a {
                    amin = amin.saturating_add(mn);
                    amax = amax.saturating_add(mx);
                } else {
                    bmin = bmin.saturating_add(mn);
                    bmax = bmax.saturating_add(mx);
                }
            }
            let fits = match op {
                BinOp::Add => amax.saturating_add(bmax) <= mask(rw),
                _ => amin >= bmax && amax <= mask(rw),
            };
            if fits {
                i += 1;
            } else {
                let next = bounds.remove(i + 1);
                bounds[i].1.extend(next.1);
                if bounds.len() < 2 {
                    return None;
                }
                i = 0;
            }
        }
        let mut fields = Vec::new();
        for (j, (lo, ms)) in bounds.iter().enumerate() {
            let hi = bounds.get(j + 1).map_or(w, |b| b.0);
            let rw = hi - lo;
            let side = |pool: &mut ExprPool, c: u128, left: bool| {
                let mut acc = pool.constant(rw, (c >> lo) & mask(rw));
                for &m in ms.iter().filter(|&&m| (m < from_a) == left) {
                    let p = Self::placed(pool, all[m], *lo, rw);
                    acc = pool.add(p, acc);
                }
                acc
            };
            let (x, y) = (side(pool, ca, true), side(pool, cb, false));
            let value = pool.bin(op, x, y);
            if pool.as_const(value) != Some(0) {
                fields.push(Field { offset: *lo, value });
            }
        }
        Some(View { width: w, fields, rewritten: a.rewritten || b.rewritten })
    }

    /// `a * b` where one is a single field at bit 0 (a scalar) and the
    /// other has fields: each field times the scalar, where no product
    /// but the top one's leaves its field.
    fn scaled(&mut self, pool: &mut ExprPool, a: &View, b: &View) -> Option<View> {
        let single = |v: &View| matches!(v.fields[..], [f] if f.offset == 0);
        let (s, v) = match (single(a), single(b)) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => return None,
        };
        let w = v.width;
        let scalar = s.fields[0].value;
        let smax = self.umax(pool, scalar);
        let mut fields = Vec::new();
        for (j, &f) in v.fields.iter().enumerate() {
            let hi = v.fields.get(j + 1).map_or(w, |g| g.offset);
            let rw = hi - f.offset;
            if hi < w {
                let fmax = self.umax(pool, f.value);
                if fmax.checked_mul(smax).is_none_or(|p| p > mask(rw)) {
                    return None;
                }
            }
            let x = Self::resize(pool, f.value, rw);
            let y = Self::resize(pool, scalar, rw);
            let value = pool.mul(x, y);
            if pool.as_const(value) != Some(0) {
                fields.push(Field { offset: f.offset, value });
            }
        }
        Some(View { width: w, fields, rewritten: a.rewritten || b.rewritten })
    }
}
