//! Simplifying builders. Each builder folds constants bit-exactly, applies
//! the local rewrites that are sound without any assumption, and hash-conses
//! the result. The rewrites are the bit-level rules of KLEE-CL Table 3:
//! shifts by constants become concat/extract, extract and concat cancel,
//! `And(SExt(P), X)` becomes `Select(P, X, 0)`, and fneg/fabs/copysign are
//! sign-bit operations so that intrinsic and libm spellings meet.

use super::fold::*;
use super::*;

impl ExprPool {
    /// The `width`-bit constant `value` (bits above `width` are dropped); small constants need no pool entry.
    #[inline]
    pub fn constant(&mut self, width: Width, value: u128) -> ExprId {
        assert!(width > 0 && width <= 128, "constant of width {width}");
        let value = value & mask(width);
        match ExprId::inline(width, value) {
            Some(id) => id,
            None => self.pooled_constant(width, value),
        }
    }

    #[inline(never)]
    fn pooled_constant(&mut self, width: Width, value: u128) -> ExprId {
        if let Some(&id) = self.consts.get(&(width, value)) {
            return id;
        }
        let id = self.push_wide_const(width, value);
        self.consts.insert((width, value), id);
        id
    }

    /// The 1-bit constant 1 (true) or 0 (false).
    pub fn bool_const(&mut self, b: bool) -> ExprId {
        self.constant(1, b as u128)
    }

    /// Byte `index` of symbolic input `array` (8 bits).
    pub fn input_byte(&mut self, array: u32, index: u32) -> ExprId {
        self.intern(Expr::Input { array, index })
    }

    /// `width` bits read little-endian from input `array` at byte `offset`
    /// (whole bytes are read; extra high bits are dropped).
    pub fn input_word(&mut self, array: u32, offset: u32, width: Width) -> ExprId {
        let n = width.div_ceil(8);
        let mut acc = self.input_byte(array, offset + n - 1);
        for k in (0..n - 1).rev() {
            let b = self.input_byte(array, offset + k);
            acc = self.concat(acc, b);
        }
        self.trunc(acc, width)
    }

    fn is_value(&self, id: ExprId, v: u128) -> bool {
        self.as_const(id) == Some(v & mask(self.width(id)))
    }

    fn is_all_ones(&self, id: ExprId) -> bool {
        self.as_const(id) == Some(mask(self.width(id)))
    }

    /// A two-operand bit-vector operation on equal widths, folded and simplified.
    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert_eq!(w, self.width(b), "{op:?} on widths {w} and {}", self.width(b));
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(w, fold_bin(op, w, x, y));
        }
        use BinOp::*;
        // Commutative operations: constant second, otherwise ordered by id.
        let commutative = matches!(op, Add | Mul | And | Or | Xor);
        let (a, b) = if commutative && (self.is_const(a) || (!self.is_const(b) && a > b)) { (b, a) } else { (a, b) };
        let zero = self.is_value(b, 0);
        match op {
            Add | Or | Xor | Sub | Shl | LShr | AShr if zero => return a,
            Mul | And if zero => return b,
            Mul | UDiv | SDiv if self.is_value(b, 1) => return a,
            And if self.is_all_ones(b) => return a,
            Or if self.is_all_ones(b) => return b,
            Xor if self.is_all_ones(b) => return self.not(a),
            And | Or if a == b => return a,
            Xor | Sub if a == b => return self.constant(w, 0),
            _ => {}
        }
        if let Some(c) = self.as_const(b) {
            // (x + c1) + c2 is x + (c1 + c2), and (x + c1) - c2 is
            // x + (c1 - c2): a counter bumped once per work-item stays one
            // node deep instead of one node per bump, and offsets such as
            // (i + base) - base come back to i.
            if let (Add | Sub, Expr::Bin(Add, x, c1)) = (op, &*self.get(a)) {
                if let Some(c1) = self.as_const(*c1) {
                    let x = *x;
                    let sum = if op == Add { c1.wrapping_add(c) } else { c1.wrapping_sub(c) };
                    let k = self.constant(w, sum & mask(w));
                    return self.add(x, k);
                }
            }
            match op {
                Shl | LShr | AShr if c >= w as u128 => {
                    return if op == AShr {
                        let sign = self.extract(a, w - 1, 1);
                        self.sext(sign, w)
                    } else {
                        self.constant(w, 0)
                    };
                }
                Shl => {
                    let c = c as u32;
                    let low = self.extract(a, 0, w - c);
                    let zeros = self.constant(c, 0);
                    return self.concat(low, zeros);
                }
                LShr => {
                    let c = c as u32;
                    let high = self.extract(a, c, w - c);
                    return self.zext(high, w);
                }
                AShr => {
                    let c = c as u32;
                    let high = self.extract(a, c, w - c);
                    return self.sext(high, w);
                }
                _ => {}
            }
        }
        if op == And {
            if let Some(r) = self.and_of_mask(a, b) {
                return r;
            }
        }
        if op == Or {
            if let Some(r) = self.or_of_selects(a, b) {
                return r;
            }
        }
        self.intern(Expr::Bin(op, a, b))
    }

    /// `And(SExt(P), X)` is `Select(P, X, 0)`; `And(Not(SExt(P)), X)` is
    /// `Select(P, 0, X)` (masking by compare results, as SSE code does).
    fn and_of_mask(&mut self, a: ExprId, b: ExprId) -> Option<ExprId> {
        for (m, x) in [(a, b), (b, a)] {
            if let Some(p) = self.sext_of_bool(m) {
                let zero = self.constant(self.width(x), 0);
                return Some(self.ite(p, x, zero));
            }
            if let Expr::Not(inner) = *self.get(m) {
                if let Some(p) = self.sext_of_bool(inner) {
                    let zero = self.constant(self.width(x), 0);
                    return Some(self.ite(p, zero, x));
                }
            }
        }
        None
    }

    fn sext_of_bool(&self, id: ExprId) -> Option<ExprId> {
        match *self.get(id) {
            Expr::SExt(p, _) if self.width(p) == 1 => Some(p),
            _ => None,
        }
    }

    /// `Or(Select(P, X, 0), Select(P, 0, Y))` is `Select(P, X, Y)`.
    fn or_of_selects(&mut self, a: ExprId, b: ExprId) -> Option<ExprId> {
        let (Expr::Ite(p, x1, y1), Expr::Ite(q, x2, y2)) = (self.get(a).into_owned(), self.get(b).into_owned()) else {
            return None;
        };
        if p != q {
            return None;
        }
        match (self.is_value(y1, 0), self.is_value(x2, 0), self.is_value(x1, 0), self.is_value(y2, 0)) {
            (true, true, _, _) => Some(self.ite(p, x1, y2)),
            (_, _, true, true) => Some(self.ite(p, x2, y1)),
            _ => None,
        }
    }

    /// Wrapping addition.
    pub fn add(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Add, a, b)
    }
    /// Wrapping subtraction.
    pub fn sub(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Sub, a, b)
    }
    /// Wrapping multiplication (low half of the product).
    pub fn mul(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Mul, a, b)
    }
    /// Bitwise and.
    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::And, a, b)
    }
    /// Bitwise or.
    pub fn or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Or, a, b)
    }
    /// Bitwise exclusive or.
    pub fn xor(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Xor, a, b)
    }

    /// Bitwise complement.
    pub fn not(&mut self, a: ExprId) -> ExprId {
        let w = self.width(a);
        if let Some(x) = self.as_const(a) {
            return self.constant(w, !x);
        }
        match *self.get(a) {
            Expr::Not(x) => x,
            Expr::SExt(p, w) if self.width(p) == 1 => {
                let np = self.not(p);
                self.sext(np, w)
            }
            _ => self.intern(Expr::Not(a)),
        }
    }

    /// An integer comparison of equal widths, as a 1-bit value.
    pub fn cmp(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.bool_const(fold_cmp(op, w, x, y));
        }
        if a == b {
            return self.bool_const(matches!(op, CmpOp::Eq | CmpOp::Ule | CmpOp::Sle));
        }
        if op == CmpOp::Eq {
            let (a, b) = if self.is_const(a) || (!self.is_const(b) && a > b) { (b, a) } else { (a, b) };
            if w == 1 {
                if self.is_value(b, 1) {
                    return a;
                }
                if self.is_value(b, 0) {
                    return self.not(a);
                }
            }
            return self.intern(Expr::Cmp(op, a, b));
        }
        // Unsigned comparisons a bound on the operands decides: the offset
        // `zext(byte) * 4` of an access is always below 1024.
        if let Some(v) = self.decided_by_unsigned_range(op, a, b) {
            return self.bool_const(v);
        }
        self.intern(Expr::Cmp(op, a, b))
    }

    /// The value of `a op b` (unsigned, op Ult or Ule) when the operands'
    /// ranges decide it: one side a constant and the other's largest value
    /// (`unsigned_max`) below it, or the constant above every value.
    fn decided_by_unsigned_range(&self, op: CmpOp, a: ExprId, b: ExprId) -> Option<bool> {
        let strict = match op {
            CmpOp::Ult => true,
            CmpOp::Ule => false,
            _ => return None,
        };
        if let Some(c) = self.as_const(b) {
            // a < c (or <=) holds for every value of a.
            let max = self.unsigned_max(a, Self::RANGE_DEPTH);
            return (if strict { max < c } else { max <= c }).then_some(true);
        }
        if let Some(c) = self.as_const(a) {
            // c < b (or <=) fails for every value of b.
            let max = self.unsigned_max(b, Self::RANGE_DEPTH);
            return (if strict { max <= c } else { max < c }).then_some(false);
        }
        None
    }

    /// How deep `unsigned_max` looks into an expression.
    const RANGE_DEPTH: u32 = 8;

    /// An upper bound of the unsigned values of `e` (exact for constants,
    /// the width's maximum when nothing better is known).
    pub fn unsigned_max(&self, e: ExprId, depth: u32) -> u128 {
        let w = self.width(e);
        let full = crate::expr::mask(w);
        if let Some(v) = self.as_const(e) {
            return v;
        }
        if depth == 0 {
            return full;
        }
        let d = depth - 1;
        let bound = match *self.get(e) {
            Expr::ZExt(x, _) => self.unsigned_max(x, d),
            Expr::Extract { value, offset: 0, .. } => self.unsigned_max(value, d),
            Expr::Ite(_, t, f) => self.unsigned_max(t, d).max(self.unsigned_max(f, d)),
            Expr::Concat(h, l) => (self.unsigned_max(h, d) << self.width(l)) | self.unsigned_max(l, d),
            Expr::Bin(BinOp::And, x, y) => self.unsigned_max(x, d).min(self.unsigned_max(y, d)),
            Expr::Bin(BinOp::URem, _, y) if self.as_const(y).is_some_and(|k| k > 0) => self.as_const(y).unwrap_or(1) - 1,
            Expr::Bin(BinOp::LShr, x, y) => match self.as_const(y) {
                Some(k) if k < 128 => self.unsigned_max(x, d) >> k,
                _ => self.unsigned_max(x, d),
            },
            Expr::Bin(BinOp::Shl, x, y) => match self.as_const(y) {
                Some(k) if k < w as u128 => {
                    // Unless a bit of the operand's bound is shifted out.
                    let max = self.unsigned_max(x, d);
                    let shifted = max << k;
                    if shifted >> k == max {
                        shifted
                    } else {
                        full
                    }
                }
                _ => full,
            },
            Expr::Bin(BinOp::Mul, x, y) => self.unsigned_max(x, d).checked_mul(self.unsigned_max(y, d)).unwrap_or(full),
            Expr::Bin(BinOp::Add, x, y) => self.unsigned_max(x, d).checked_add(self.unsigned_max(y, d)).unwrap_or(full),
            _ => full,
        };
        // Past the width the operation wrapped: nothing is known.
        bound.min(full)
    }

    /// Equality, as a 1-bit value.
    pub fn eq(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Eq, a, b)
    }

    /// `t` when the 1-bit `c` is 1, else `e` (same widths).
    pub fn ite(&mut self, c: ExprId, t: ExprId, e: ExprId) -> ExprId {
        debug_assert_eq!(self.width(c), 1);
        if let Some(v) = self.as_const(c) {
            return if v != 0 { t } else { e };
        }
        if t == e {
            return t;
        }
        if self.width(t) == 1 {
            match (self.as_const(t), self.as_const(e)) {
                (Some(1), Some(0)) => return c,
                (Some(0), Some(1)) => return self.not(c),
                _ => {}
            }
        }
        if let Expr::Not(inner) = *self.get(c) {
            return self.ite(inner, e, t);
        }
        // Nested selects on the same condition: in the else side `c` is
        // false, in the then side true.
        if let Expr::Ite(c2, _, e2) = *self.get(e) {
            if c2 == c {
                return self.ite(c, t, e2);
            }
        }
        if let Expr::Ite(c2, t2, _) = *self.get(t) {
            if c2 == c {
                return self.ite(c, t2, e);
            }
        }
        // The condition itself widened, as a side: 0 in the else side (a
        // guard's select over the poison mask its guarded operation makes
        // where the guard fails is no poison at all).
        if matches!(*self.get(e), Expr::SExt(x, _) | Expr::ZExt(x, _) if x == c) {
            let zero = self.constant(self.width(e), 0);
            return self.ite(c, t, zero);
        }
        self.intern(Expr::Ite(c, t, e))
    }

    /// Conjunction of two 1-bit values.
    pub fn bool_and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.and(a, b)
    }
    /// Disjunction of two 1-bit values.
    pub fn bool_or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.or(a, b)
    }

    /// `hi` in the high bits and `lo` in the low bits.
    pub fn concat(&mut self, hi: ExprId, lo: ExprId) -> ExprId {
        self.concat_at(hi, lo, 0)
    }

    /// Deepest nesting of the select join in `concat` through the selected
    /// values (the chain of else-branches is walked in a loop).
    const CONCAT_SELECT_DEPTH: u32 = 64;

    fn concat_at(&mut self, hi: ExprId, lo: ExprId, depth: u32) -> ExprId {
        let (wh, wl) = (self.width(hi), self.width(lo));
        assert!(wh + wl <= 128, "concat wider than 128 bits");
        if let (Some(h), Some(l)) = (self.as_const(hi), self.as_const(lo)) {
            return self.constant(wh + wl, (h << wl) | l);
        }
        // Adjacent extracts of one value rejoin.
        if let (Expr::Extract { value: v1, offset: o1, .. }, Expr::Extract { value: v2, offset: o2, width: w2 }) =
            (self.get(hi).into_owned(), self.get(lo).into_owned())
        {
            if v1 == v2 && o1 == o2 + w2 {
                return self.extract(v1, o2, wh + wl);
            }
        }
        // Right-associate so that byte sequences have one shape.
        if let Expr::Concat(a, b) = *self.get(hi) {
            let rest = self.concat_at(b, lo, depth);
            return self.concat_at(a, rest, depth);
        }
        // hi next to the head of a right-associated chain may rejoin too.
        if let Expr::Concat(l1, l2) = *self.get(lo) {
            if let (Expr::Extract { value: v1, offset: o1, .. }, Expr::Extract { value: v2, offset: o2, width: w2 }) =
                (self.get(hi).into_owned(), self.get(l1).into_owned())
            {
                if v1 == v2 && o1 == o2 + w2 {
                    let joined = self.extract(v1, o2, wh + w2);
                    return self.concat_at(joined, l2, depth);
                }
            }
        }
        // Selects on one condition join: the bytes of a stored select,
        // loaded back, become the select of the loaded values. A load at a
        // symbolic index gives chains of selects as long as the array, so
        // the chain is walked in a loop and rebuilt from its end.
        if depth < Self::CONCAT_SELECT_DEPTH {
            if let Some(&done) = self.joined_concats.get(&(hi, lo)) {
                return done;
            }
            // Each arm: the condition, both sides' values under it, and the
            // pair of selects it came from (remembered once joined).
            let mut arms = Vec::new();
            let (mut h, mut l) = (hi, lo);
            // The chain is walked down to its end, or to a rest joined
            // before (a chain grown by writes since the last read).
            let mut joined_rest = None;
            while let (Expr::Ite(c1, t1, e1), Expr::Ite(c2, t2, e2)) = (self.get(h).into_owned(), self.get(l).into_owned()) {
                if c1 != c2 {
                    break;
                }
                arms.push((c1, t1, t2, (h, l)));
                (h, l) = (e1, e2);
                if let Some(&done) = self.joined_concats.get(&(h, l)) {
                    joined_rest = Some(done);
                    break;
                }
            }
            if !arms.is_empty() {
                let mut acc = match joined_rest {
                    Some(done) => done,
                    None => self.concat_at(h, l, depth + 1),
                };
                for (c, t1, t2, pair) in arms.into_iter().rev() {
                    let t = self.concat_at(t1, t2, depth + 1);
                    acc = self.ite(c, t, acc);
                    self.joined_concats.insert(pair, acc);
                }
                return acc;
            }
        }
        // Zero high bits are a zero extension.
        if self.is_value(hi, 0) {
            return self.zext(lo, wh + wl);
        }
        self.intern(Expr::Concat(hi, lo))
    }

    /// `width` bits of `value` starting at bit `offset` (bit 0 is the least significant).
    pub fn extract(&mut self, value: ExprId, offset: Width, width: Width) -> ExprId {
        self.extract_at(value, offset, width, 0)
    }

    /// Deepest recursion of `extract` into its operand. Pushing an extract
    /// through and/or/xor, not and selects keeps the width, so without a
    /// bound a long chain of them would be recursion as deep as the chain;
    /// past the bound the extract is kept as a node (still exact).
    const EXTRACT_DEPTH: u32 = 256;

    fn extract_at(&mut self, value: ExprId, offset: Width, width: Width, depth: u32) -> ExprId {
        let w = self.width(value);
        assert!(offset + width <= w && width > 0, "extract [{offset}+{width}] of width {w}");
        if offset == 0 && width == w {
            return value;
        }
        if let Some(v) = self.as_const(value) {
            return self.constant(width, v >> offset);
        }
        if depth >= Self::EXTRACT_DEPTH {
            return self.intern(Expr::Extract { value, offset, width });
        }
        let d = depth + 1;
        match self.get(value).into_owned() {
            Expr::Concat(hi, lo) => {
                let wl = self.width(lo);
                if offset + width <= wl {
                    return self.extract_at(lo, offset, width, d);
                }
                if offset >= wl {
                    return self.extract_at(hi, offset - wl, width, d);
                }
                let h = self.extract_at(hi, 0, offset + width - wl, d);
                let l = self.extract_at(lo, offset, wl - offset, d);
                return self.concat(h, l);
            }
            Expr::Extract { value: inner, offset: o2, .. } => return self.extract_at(inner, o2 + offset, width, d),
            Expr::ZExt(inner, _) => {
                let wi = self.width(inner);
                if offset + width <= wi {
                    return self.extract_at(inner, offset, width, d);
                }
                if offset >= wi {
                    return self.constant(width, 0);
                }
                let part = self.extract_at(inner, offset, wi - offset, d);
                return self.zext(part, width);
            }
            Expr::SExt(inner, _) => {
                let wi = self.width(inner);
                if offset + width <= wi {
                    return self.extract_at(inner, offset, width, d);
                }
                if self.width(inner) == 1 {
                    return self.sext(inner, width);
                }
            }
            Expr::Ite(c, t, e) if self.is_const(t) || self.is_const(e) => {
                let t2 = self.extract_at(t, offset, width, d);
                let e2 = self.extract_at(e, offset, width, d);
                return self.ite(c, t2, e2);
            }
            Expr::Bin(op @ (BinOp::And | BinOp::Or | BinOp::Xor), a, b) => {
                let a2 = self.extract_at(a, offset, width, d);
                let b2 = self.extract_at(b, offset, width, d);
                return self.bin(op, a2, b2);
            }
            Expr::Not(a) => {
                let a2 = self.extract_at(a, offset, width, d);
                return self.not(a2);
            }
            _ => {}
        }
        self.intern(Expr::Extract { value, offset, width })
    }

    /// Zero extension to `width` bits (at least the value's width).
    pub fn zext(&mut self, value: ExprId, width: Width) -> ExprId {
        let w = self.width(value);
        assert!(width >= w);
        if width == w {
            return value;
        }
        if let Some(v) = self.as_const(value) {
            return self.constant(width, v);
        }
        if let Expr::ZExt(inner, _) = *self.get(value) {
            return self.zext(inner, width);
        }
        self.intern(Expr::ZExt(value, width))
    }

    /// Sign extension to `width` bits (at least the value's width).
    pub fn sext(&mut self, value: ExprId, width: Width) -> ExprId {
        let w = self.width(value);
        assert!(width >= w);
        if width == w {
            return value;
        }
        if let Some(v) = self.as_const(value) {
            return self.constant(width, to_signed(v, w) as u128);
        }
        if let Expr::SExt(inner, _) = *self.get(value) {
            return self.sext(inner, width);
        }
        self.intern(Expr::SExt(value, width))
    }

    /// Truncation to the low `width` bits.
    pub fn trunc(&mut self, value: ExprId, width: Width) -> ExprId {
        self.extract(value, 0, width)
    }

    // ---- floating point -------------------------------------------------

    /// A binary float operation in format `f` on two values of its width.
    pub fn fbin(&mut self, op: FBinOp, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
        // Two floats carried in their handles (a concrete program's): the
        // sum, difference, product or quotient straight from the bits, when
        // it is no NaN (the NaN models differ only there).
        if let (FpFormat::Single, Some(x), Some(y)) = (f, a.as_word_const(32), b.as_word_const(32)) {
            if let Some(r) = fold_single_arith(op, x as u32, y as u32) {
                return ExprId::float_const(r);
            }
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(f.width(), fold_fbin_in(self.nan, op, f, x, y));
        }
        // With canonical NaN results, + and * are commutative bit for bit;
        // min/max are not (signed zeros, NaN operand order). With exact NaN
        // bits the first NaN operand wins, so the order is kept.
        let commute = self.nan == NanModel::Canonical && matches!(op, FBinOp::Add | FBinOp::Mul);
        let (a, b) = if commute && a > b { (b, a) } else { (a, b) };
        self.intern(Expr::FBin(op, f, a, b))
    }

    /// A unary float operation in format `f`.
    pub fn fun(&mut self, op: FUnOp, f: FpFormat, a: ExprId) -> ExprId {
        if let Some(x) = self.as_const(a) {
            return self.constant(f.width(), fold_fun_in(self.nan, op, f, x));
        }
        // A value already rounded to an integral one (an integer, a signed
        // zero, an infinity or a quiet NaN) is its own rounding in every
        // direction, NaN bits included in either NaN model: SIMDe's
        // _mm_cvtps_epi32 rounds to nearest-even and then with C's `round`,
        // and the second rounding left in made a one-lane query slow.
        if op != FUnOp::Sqrt {
            if let Expr::FUn(inner, g, _) = *self.get(a) {
                if inner != FUnOp::Sqrt && g == f {
                    return a;
                }
            }
        }
        self.intern(Expr::FUn(op, f, a))
    }

    /// Fused `a * b + c` in format `f`, rounded once.
    pub fn fma(&mut self, f: FpFormat, a: ExprId, b: ExprId, c: ExprId) -> ExprId {
        if let (Some(x), Some(y), Some(z)) = (self.as_const(a), self.as_const(b), self.as_const(c)) {
            if let Some(r) = fold_fma_in(self.nan, f, x, y, z) {
                return self.constant(f.width(), r);
            }
        }
        // fma(a, b, c) = fma(b, a, c) bit for bit only with canonical NaNs.
        let (a, b) = if self.nan == NanModel::Canonical && a > b { (b, a) } else { (a, b) };
        self.intern(Expr::Fma(f, a, b, c))
    }

    fn sign_mask(&mut self, f: FpFormat) -> ExprId {
        self.constant(f.width(), 1u128 << (f.width() - 1))
    }

    /// fneg: flips the sign bit (NaN payload kept), per LLVM.
    pub fn fneg(&mut self, f: FpFormat, a: ExprId) -> ExprId {
        let s = self.sign_mask(f);
        self.xor(a, s)
    }

    /// fabs: clears the sign bit.
    pub fn fabs(&mut self, f: FpFormat, a: ExprId) -> ExprId {
        let s = self.constant(f.width(), mask(f.width() - 1));
        self.and(a, s)
    }

    /// copysign: magnitude of `mag`, sign of `sign`.
    pub fn copysign(&mut self, f: FpFormat, mag: ExprId, sign: ExprId) -> ExprId {
        let m = self.fabs(f, mag);
        let s = self.sign_mask(f);
        let sb = self.and(sign, s);
        self.or(m, sb)
    }

    /// 1 when the comparison of `a` and `b` in format `f` has an outcome in `set` (less, equal, greater, unordered).
    pub fn fcmp(&mut self, set: Outcomes, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
        if set == Outcomes::NONE {
            return self.bool_const(false);
        }
        if set == Outcomes::ALL {
            return self.bool_const(true);
        }
        if let (FpFormat::Single, Some(x), Some(y)) = (f, a.as_word_const(32), b.as_word_const(32)) {
            return self.bool_const(fold_fcmp_single(set, x as u32, y as u32));
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.bool_const(fold_fcmp(set, f, x, y));
        }
        // A value compared with itself: only "=" or unordered are possible.
        if a == b {
            let ord = set.has(Outcomes::EQ);
            let uno = set.has(Outcomes::UNO);
            if ord && uno {
                return self.bool_const(true);
            }
            if !ord && !uno {
                return self.bool_const(false);
            }
            let is_uno = self.intern(Expr::FCmp(Outcomes(Outcomes::UNO), f, a, a));
            return if uno { is_uno } else { self.not(is_uno) };
        }
        if a > b {
            return self.intern(Expr::FCmp(set.swapped(), f, b, a));
        }
        self.intern(Expr::FCmp(set, f, a, b))
    }

    /// True when `a` is a NaN.
    pub fn is_nan(&mut self, f: FpFormat, a: ExprId) -> ExprId {
        self.fcmp(Outcomes(Outcomes::UNO), f, a, a)
    }

    /// Float to `width`-bit integer, rounded by `rounding`; NaN and out-of-range inputs give x86's integer indefinite (only the sign bit set).
    pub fn fp_to_int(&mut self, signed: bool, rounding: IntRounding, from: FpFormat, value: ExprId, width: Width) -> ExprId {
        if let Some(x) = self.as_const(value) {
            return self.constant(width, fold_fp_to_int(signed, rounding, from, width, x));
        }
        self.intern(Expr::FpToInt { signed, rounding, from, value, width })
    }

    /// Integer to float in format `to`, rounded to nearest-even.
    pub fn int_to_fp(&mut self, signed: bool, to: FpFormat, value: ExprId) -> ExprId {
        // A 32-bit integer carried in its handle to a float: the common
        // `(float)i` of a concrete loop, without the general fold's widths.
        if let (FpFormat::Single, Some(x)) = (to, value.as_word_const(32)) {
            let v = if signed { x as u32 as i32 as f32 } else { x as u32 as f32 };
            return ExprId::float_const(v.to_bits());
        }
        if let Some(x) = self.as_const(value) {
            let w = self.width(value);
            return self.constant(to.width(), fold_int_to_fp(signed, to, w, x));
        }
        self.intern(Expr::IntToFp { signed, to, value })
    }

    /// Float format conversion, rounded to nearest-even when narrowing.
    pub fn fp_convert(&mut self, from: FpFormat, to: FpFormat, value: ExprId) -> ExprId {
        if from == to {
            return value;
        }
        if let Some(x) = self.as_const(value) {
            return self.constant(to.width(), fold_fp_convert_in(self.nan, from, to, x));
        }
        self.intern(Expr::FpConvert { from, to, value })
    }

    /// An uninterpreted function `function` of `args` giving `width` bits: equal arguments give equal results, nothing more.
    pub fn apply(&mut self, function: &str, args: Vec<ExprId>, width: Width) -> ExprId {
        self.intern(Expr::Apply(Box::new(crate::expr::Application { function: Arc::from(function), args, width })))
    }

    /// The node of `id` with its children replaced by `children` (in the
    /// order of [`ExprPool::children`]), through the simplifying builders:
    /// a rewrite of the children may let the node fold.
    pub fn rebuild(&mut self, id: ExprId, children: &[ExprId]) -> ExprId {
        let c = |i: usize| children[i];
        match self.get(id).into_owned() {
            Expr::Const { .. } | Expr::Input { .. } | Expr::Fresh { .. } => id,
            Expr::Bin(op, ..) => self.bin(op, c(0), c(1)),
            Expr::Not(_) => self.not(c(0)),
            Expr::Cmp(op, ..) => self.cmp(op, c(0), c(1)),
            Expr::Ite(..) => self.ite(c(0), c(1), c(2)),
            Expr::Concat(..) => self.concat(c(0), c(1)),
            Expr::Extract { offset, width, .. } => self.extract(c(0), offset, width),
            Expr::ZExt(_, w) => self.zext(c(0), w),
            Expr::SExt(_, w) => self.sext(c(0), w),
            Expr::FBin(op, f, ..) => self.fbin(op, f, c(0), c(1)),
            Expr::FUn(op, f, _) => self.fun(op, f, c(0)),
            Expr::Fma(f, ..) => self.fma(f, c(0), c(1), c(2)),
            Expr::FCmp(set, f, ..) => self.fcmp(set, f, c(0), c(1)),
            Expr::FpToInt { signed, rounding, from, width, .. } => self.fp_to_int(signed, rounding, from, c(0), width),
            Expr::IntToFp { signed, to, .. } => self.int_to_fp(signed, to, c(0)),
            Expr::FpConvert { from, to, .. } => self.fp_convert(from, to, c(0)),
            Expr::Apply(app) => self.apply(&app.function, children.to_vec(), app.width),
            Expr::InputAt { array, .. } => self.input_at(array, c(0)),
            Expr::LogRead(r) => {
                // As selects over the writes, each operand replaced by the
                // child at its place (`LogRead::operands`' order).
                let map: FxHashMap<ExprId, ExprId> = r.operands().into_iter().zip(children.iter().copied()).collect();
                crate::expr::log_read::expand_with(self, &r, |e| map.get(&e).copied().unwrap_or(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounding an already rounded value to an integral one changes
    /// nothing, whatever the two directions and the NaN model (every half,
    /// and single and double precision edges and random values), so
    /// `fun` may drop the outer rounding.
    #[test]
    fn rounding_a_rounded_value_is_the_value() {
        let ops = [FUnOp::RoundEven, FUnOp::RoundAway, FUnOp::Floor, FUnOp::Ceil, FUnOp::Trunc];
        let models = [NanModel::Canonical, NanModel::EXACT_X86, NanModel::EXACT_AARCH64];
        let mut values: Vec<(FpFormat, u128)> = (0..=0xffffu128).map(|v| (FpFormat::Half, v)).collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for f in [FpFormat::Single, FpFormat::Double] {
            let w = f.width();
            let edges = [0, 1, mask(w - 1), 1 << (w - 1), mask(w), mask(w) >> 1 ^ 1 << (f.significand_bits() - 2)];
            values.extend(edges.iter().map(|&v| (f, v & mask(w))));
            for _ in 0..20_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                values.push((f, u128::from(state) & mask(w)));
            }
        }
        for model in models {
            for &(f, x) in &values {
                for inner in ops {
                    let once = fold_fun_in(model, inner, f, x);
                    for outer in ops {
                        assert_eq!(fold_fun_in(model, outer, f, once), once, "{outer:?}({inner:?}({x:#x})) in {f:?}");
                    }
                }
            }
        }
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let even = p.fun(FUnOp::RoundEven, FpFormat::Single, x);
        assert_eq!(p.fun(FUnOp::RoundAway, FpFormat::Single, even), even);
        let root = p.fun(FUnOp::Sqrt, FpFormat::Single, x);
        assert_ne!(p.fun(FUnOp::Floor, FpFormat::Single, root), root);
    }

    /// `unsigned_max` bounds every value the expression takes (checked by
    /// evaluation on many inputs), and the comparisons it decides are
    /// exactly those every input decides the same way.
    #[test]
    fn unsigned_ranges_bound_every_value() {
        let mut p = ExprPool::new();
        let arr = p.new_array("b", 2);
        let (b0, b1) = (p.input_byte(arr, 0), p.input_byte(arr, 1));
        let (z0, z1) = (p.zext(b0, 64), p.zext(b1, 64));
        let four = p.constant(64, 4);
        let two = p.constant(64, 2);
        let k = p.constant(64, 1000);
        let mask = p.constant(64, 0x3c);
        let seven = p.constant(64, 7);
        let slot = p.mul(z0, four);
        let shifted = p.bin(BinOp::Shl, z0, two);
        let sum = p.add(slot, z1);
        let masked = p.and(sum, mask);
        let rem = p.bin(BinOp::URem, z1, seven);
        let c = p.cmp(CmpOp::Ult, b0, b1);
        let chosen = p.ite(c, slot, rem);
        let byte_sum = p.add(b0, b1); // 8 bits: wraps
        let wide = p.mul(sum, k);
        let cases = [slot, shifted, sum, masked, rem, chosen, byte_sum, wide];
        let maxima: Vec<u128> = cases.iter().map(|&e| p.unsigned_max(e, 8)).collect();
        assert_eq!(&maxima[..6], &[1020, 1020, 1275, 0x3c, 6, 1020]);
        assert_eq!(maxima[6], 255, "an 8-bit sum may wrap: only the width bounds it");
        for (x, y) in [(0u8, 0u8), (255, 255), (255, 0), (0, 255), (17, 200), (128, 127)] {
            let mut m = crate::expr::Assignment::default();
            m.arrays.insert(arr, vec![x, y]);
            for (&e, &max) in cases.iter().zip(&maxima) {
                assert!(crate::expr::evaluate(&p, e, &m) <= max, "{x} {y}");
            }
        }
        // The access check of a byte-indexed table of 256 words folds.
        let last = p.constant(64, 1020);
        assert_eq!(p.cmp(CmpOp::Ule, slot, last), p.bool_const(true));
        let before = p.constant(64, 1019);
        let undecided = p.cmp(CmpOp::Ule, slot, before);
        assert!(p.as_const(undecided).is_none(), "1020 is a value");
        let end = p.constant(64, 1021);
        assert_eq!(p.cmp(CmpOp::Ule, end, slot), p.bool_const(false));
    }

    #[test]
    fn bytes_of_a_word_rejoin() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let bytes: Vec<_> = (0..4).map(|i| p.input_byte(a, i)).collect();
        let w = p.concat(bytes[1], bytes[0]);
        let w = p.concat(bytes[2], w);
        let w = p.concat(bytes[3], w);
        let parts: Vec<_> = (0..4).map(|i| p.extract(w, i * 8, 8)).collect();
        assert_eq!(parts, bytes);
        let lo = p.extract(w, 0, 16);
        let hi = p.extract(w, 16, 16);
        assert_eq!(p.concat(hi, lo), w);
    }

    /// Constant terms gather: a counter bumped many times is one sum, and
    /// `(i + base) - base` is `i`; checked by evaluation too, wrap-around
    /// included.
    #[test]
    fn constant_terms_gather() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 1);
        let x = p.input_byte(arr, 0);
        let one = p.constant(8, 1);
        let mut bumped = x;
        for _ in 0..300 {
            bumped = p.add(bumped, one);
        }
        let k = p.constant(8, 300 % 256);
        assert_eq!(bumped, p.add(x, k));
        let base = p.constant(8, 0xc0);
        let up = p.add(x, base);
        assert_eq!(p.sub(up, base), x);
        let seven = p.constant(8, 7);
        let down = p.sub(up, seven);
        for v in 0..=255u8 {
            let mut m = crate::expr::Assignment::default();
            m.arrays.insert(arr, vec![v]);
            assert_eq!(crate::expr::evaluate(&p, bumped, &m), v.wrapping_add(44) as u128);
            assert_eq!(crate::expr::evaluate(&p, down, &m), v.wrapping_add(0xc0).wrapping_sub(7) as u128);
        }
    }

    /// `c ? (c ? a : b) : (c ? d : e)` is `c ? a : e`, checked by evaluation
    /// under both values of `c` (the builder once took the other sides).
    #[test]
    fn nested_selects_on_one_condition_keep_their_sides() {
        let mut p = ExprPool::new();
        let arr = p.new_array("c", 1);
        let byte = p.input_byte(arr, 0);
        let zero = p.constant(8, 0);
        let c = p.eq(byte, zero);
        let [a, b, d, e] = [1u128, 2, 3, 4].map(|v| p.constant(8, v));
        let inner_then = p.ite(c, a, b);
        let inner_else = p.ite(c, d, e);
        let outer_then = p.ite(c, inner_then, zero);
        let outer_else = p.ite(c, zero, inner_else);
        let both = p.ite(c, inner_then, inner_else);
        for (input, want_then, want_else, want_both) in [(0u8, 1, 0, 1), (7u8, 0, 4, 4)] {
            let mut m = crate::expr::Assignment::default();
            m.arrays.insert(arr, vec![input]);
            assert_eq!(crate::expr::evaluate(&p, outer_then, &m), want_then);
            assert_eq!(crate::expr::evaluate(&p, outer_else, &m), want_else);
            assert_eq!(crate::expr::evaluate(&p, both, &m), want_both);
        }
    }

    #[test]
    fn andnot_sign_is_fabs() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let b: Vec<_> = (0..4).map(|i| p.input_byte(a, i)).collect();
        let x = p.concat(b[1], b[0]);
        let x = p.concat(b[2], x);
        let x = p.concat(b[3], x);
        let minus_zero = p.constant(32, 0x8000_0000);
        let nm = p.not(minus_zero);
        let andnot = p.and(nm, x);
        assert_eq!(andnot, p.fabs(FpFormat::Single, x));
    }

    #[test]
    fn mask_and_becomes_select() {
        let mut p = ExprPool::new();
        let x = p.fresh(32);
        let y = p.fresh(32);
        let c = p.fcmp(Outcomes(Outcomes::GT), FpFormat::Single, x, y);
        let m = p.sext(c, 32);
        let r = p.and(m, x);
        let zero = p.constant(32, 0);
        assert_eq!(r, p.ite(c, x, zero));
    }

    #[test]
    fn nested_select_on_the_same_condition_keeps_the_reachable_arm() {
        let mut p = ExprPool::new();
        let c = p.fresh(1);
        let [a, b, x, y] = [0, 0, 0, 0].map(|_| p.fresh(8));
        let inner = p.ite(c, a, b);
        // ite(c, x, ite(c, a, b)) = ite(c, x, b)
        let outer = p.ite(c, x, inner);
        assert_eq!(outer, p.ite(c, x, b));
        // ite(c, ite(c, a, b), y) = ite(c, a, y)
        let outer = p.ite(c, inner, y);
        assert_eq!(outer, p.ite(c, a, y));
    }
}
