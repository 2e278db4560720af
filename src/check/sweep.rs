//! Equivalence sweeping for integer checks: the SAT sweeping of hardware
//! equivalence checkers, at word level.
//!
//! A bit-blasting solver is poor at proving that two differently built
//! arithmetic circuits agree: a sum of absolute differences computed in 32
//! bits with signed compares (the scalar C) against one computed in 16 bits
//! with unsigned compares (PSADBW) stays undecided for minutes, although
//! every intermediate value of one side has an obvious twin in the other.
//! Sweeping finds those twins and proves them one at a time, bottom-up, so
//! that each proof is small:
//!
//! 1. every node below both sides is evaluated on the same deterministic
//!    samples (edge patterns, then pseudo-random bytes);
//! 2. a node whose samples never use its high bits is *narrowed*: once the
//!    solver proves those bits are always zero (or copies of the sign), the
//!    node is rewritten as a zero (sign) extension of its low bits, and the
//!    truncation is pushed through + - * and the bit operations (low bits of
//!    a sum are the sum of the low bits), so the 32-bit and the 16-bit
//!    version of one sum both become an extension of the same narrow sum;
//! 3. a node with the same samples as an earlier node of its width is
//!    *merged* with it once the solver proves them equal.
//!
//! Every rewrite is an equality the solver proved for all inputs (no path
//! condition is used), or an identity of modular arithmetic, so the swept
//! sides equal the originals everywhere: if they become the same node the
//! check holds; otherwise the smaller swept question goes to the solver.
//! The proofs run with a work budget counted by the solver (not a time), so
//! the outcome does not depend on the machine's load; a proof that runs out
//! merely leaves the node as it was.

use super::{Backend, Feasibility};
use crate::expr::{evaluate_into, mask, to_signed, Assignment, BinOp, Expr, ExprId, ExprPool, Leaf, Width};
use rustc_hash::{FxHashMap, FxHashSet};

/// Samples every node is evaluated on.
const SAMPLES: usize = 64;
/// Solver work units one sweeping proof may use (Z3 `rlimit`).
pub(super) const PROOF_BUDGET: u32 = 300_000;
/// Proofs one sweep may ask for; past it, nodes are kept as they are.
const PROOFS_PER_SWEEP: u32 = 4_000;
/// Deepest recursion of the truncation pushed through operations.
const LOW_BITS_DEPTH: u32 = 64;

/// State kept across the checks of a run: node ids are stable within a
/// pool and the samples depend only on the seed, so what one check proved
/// serves the next (the elements of one vector share most of their cones).
pub struct Sweeper {
    seed: u64,
    /// Per sample: the assignment (grown on demand) and the values known.
    samples: Vec<(Assignment, FxHashMap<ExprId, u128>)>,
    /// Inputs already given a value in every sample.
    assigned: FxHashSet<Leaf>,
    /// What each node swept so far was rewritten to.
    swept: FxHashMap<ExprId, ExprId>,
    /// The first node seen with given width and samples.
    representatives: FxHashMap<(Width, Vec<u128>), ExprId>,
    /// Pairs (node, claim) that were tried and not proved.
    refused: FxHashSet<(ExprId, ExprId)>,
    /// Structural bit-length bounds of the nodes seen.
    bounds: Bounds,
    low_bits_memo: FxHashMap<(ExprId, Width), ExprId>,
    /// Proofs asked for by the current sweep.
    proofs: u32,
    /// Proofs asked for in total (for statistics and tests).
    pub total_proofs: u64,
}

impl Sweeper {
    pub fn new(seed: u64) -> Self {
        Sweeper {
            seed,
            samples: (0..SAMPLES).map(|_| (Assignment::default(), FxHashMap::default())).collect(),
            assigned: FxHashSet::default(),
            swept: FxHashMap::default(),
            representatives: FxHashMap::default(),
            refused: FxHashSet::default(),
            bounds: Bounds::default(),
            low_bits_memo: FxHashMap::default(),
            proofs: 0,
            total_proofs: 0,
        }
    }

    /// Sweeps the cones of `a` and `b` (integer-only expressions) and
    /// returns nodes equal to them on every input.
    pub fn sweep(&mut self, pool: &mut ExprPool, backend: &mut dyn Backend, a: ExprId, b: ExprId) -> (ExprId, ExprId) {
        self.proofs = 0;
        let mut leaves = FxHashSet::default();
        pool.leaves_of(a, &mut leaves);
        pool.leaves_of(b, &mut leaves);
        self.assign(&leaves);
        for node in post_order(pool, &[a, b]) {
            // The run's time is up or a signal asked it to stop: what is
            // swept so far stays (every rewrite is proved), the rest is
            // left as it is.
            if backend.stop_requested() {
                tracing::debug!("sweep: stopped by the run's time limit or a signal");
                break;
            }
            if self.swept.contains_key(&node) {
                continue;
            }
            let r = self.sweep_node(pool, backend, node);
            self.swept.insert(node, r);
        }
        let swept = |x: ExprId| self.swept.get(&x).copied().unwrap_or(x);
        (swept(a), swept(b))
    }

    /// Inputs among the sweep's samples (edge patterns first) on which
    /// `a` and `b` differ and every constraint of `path` holds: a witness
    /// found without the solver. The edge patterns (one input all 0x80,
    /// the next all 0x7f, ...) are what overflows a narrow accumulator.
    pub fn find_difference(&mut self, pool: &ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> Option<Assignment> {
        let mut leaves = FxHashSet::default();
        for r in path.iter().chain([&a, &b]) {
            pool.leaves_of(*r, &mut leaves);
        }
        self.assign(&leaves);
        for (asg, memo) in self.samples.iter_mut() {
            let mut roots = vec![a, b];
            roots.extend_from_slice(path);
            evaluate_into(pool, &roots, asg, memo);
            if memo[&a] != memo[&b] && path.iter().all(|c| memo[c] != 0) {
                return Some(asg.clone());
            }
        }
        None
    }

    fn sweep_node(&mut self, pool: &mut ExprPool, backend: &mut dyn Backend, node: ExprId) -> ExprId {
        let kids = pool.children(node);
        if kids.is_empty() {
            return node;
        }
        let new_kids: Vec<ExprId> = kids.iter().map(|k| self.swept.get(k).copied().unwrap_or(*k)).collect();
        // Extracts stay extracts (not pushed-down truncations): the bytes of
        // a stored value rejoin into the value only as extracts of it.
        let x = if new_kids[..] == kids[..] { node } else { pool.rebuild(node, &new_kids) };
        let w = pool.width(x);
        if pool.is_const(x) || w > 128 {
            return x;
        }
        let values = self.values(pool, x);
        if let Some(c) = self.as_constant(pool, backend, x, &values) {
            return c;
        }
        let x = self.narrow(pool, backend, x, &values);
        let (core, extend) = split_extension(pool, x);
        let core_values = self.values(pool, core);
        let key = (pool.width(core), core_values);
        match self.representatives.get(&key).copied() {
            Some(rep) if rep != core => {
                if self.prove_equal(pool, backend, core, rep) {
                    return extend.apply(pool, rep, w);
                }
                x
            }
            Some(_) => x,
            None => {
                self.representatives.insert(key, core);
                x
            }
        }
    }

    /// `x` as a constant, when every sample agrees and the solver proves it.
    fn as_constant(&mut self, pool: &mut ExprPool, backend: &mut dyn Backend, x: ExprId, values: &[u128]) -> Option<ExprId> {
        if values.windows(2).any(|p| p[0] != p[1]) {
            return None;
        }
        let c = pool.constant(pool.width(x), values[0]);
        self.prove_equal(pool, backend, x, c).then_some(c)
    }

    /// `x` rewritten as an extension of its low bits when the samples
    /// suggest it and the high bits are known or proved to be zero (sign).
    fn narrow(&mut self, pool: &mut ExprPool, backend: &mut dyn Backend, x: ExprId, values: &[u128]) -> ExprId {
        let w = pool.width(x);
        if w <= 1 {
            return x;
        }
        // An extension is already as narrow as its operand.
        if matches!(*pool.get(x), Expr::ZExt(..) | Expr::SExt(..)) {
            return x;
        }
        let used = values.iter().map(|v| 128 - v.leading_zeros()).max().unwrap_or(0).max(1);
        if used < w {
            let low = self.low_bits(pool, x, used, 0);
            let narrowed = pool.zext(low, w);
            if self.bounds.known_bit_length(pool, x) <= used || self.prove_equal(pool, backend, x, narrowed) {
                return narrowed;
            }
        }
        let signed_used = values.iter().map(|v| signed_bit_length(*v, w)).max().unwrap_or(1);
        if signed_used < w {
            let low = self.low_bits(pool, x, signed_used, 0);
            let narrowed = pool.sext(low, w);
            if self.bounds.known_signed_bit_length(pool, x, 0) <= signed_used || self.prove_equal(pool, backend, x, narrowed) {
                return narrowed;
            }
        }
        x
    }

    /// Asks the solver, within the work budget, whether `x == y` always.
    fn prove_equal(&mut self, pool: &mut ExprPool, backend: &mut dyn Backend, x: ExprId, y: ExprId) -> bool {
        if x == y {
            return true;
        }
        if self.proofs >= PROOFS_PER_SWEEP || self.refused.contains(&(x, y)) {
            return false;
        }
        // A claim the samples already contradict is not worth a query.
        let (vx, vy) = (self.values(pool, x), self.values(pool, y));
        if vx != vy {
            return false;
        }
        self.proofs += 1;
        self.total_proofs += 1;
        let eq = pool.eq(x, y);
        let differ = pool.not(eq);
        let answer = backend.check_budgeted(pool, &[], differ, PROOF_BUDGET);
        tracing::trace!(left = x.index(), right = y.index(), equal = matches!(answer, Feasibility::Unsat), "sweep: proof attempt");
        let proved = matches!(answer, Feasibility::Unsat);
        if !proved {
            self.refused.insert((x, y));
        }
        proved
    }

    /// The low `k` bits of `x`, with the truncation pushed through the
    /// operations whose low result bits depend only on the low operand
    /// bits (modular arithmetic), so that the narrow form of a wide sum is
    /// the narrow sum.
    fn low_bits(&mut self, pool: &mut ExprPool, x: ExprId, k: Width, depth: u32) -> ExprId {
        let w = pool.width(x);
        if k >= w {
            return x;
        }
        if let Some(&r) = self.low_bits_memo.get(&(x, k)) {
            return r;
        }
        let r = if depth >= LOW_BITS_DEPTH {
            pool.extract(x, 0, k)
        } else {
            let d = depth + 1;
            match pool.get(x).into_owned() {
                Expr::ZExt(i, _) if pool.width(i) >= k => self.low_bits(pool, i, k, d),
                Expr::ZExt(i, _) => pool.zext(i, k),
                Expr::SExt(i, _) if pool.width(i) >= k => self.low_bits(pool, i, k, d),
                Expr::SExt(i, _) => pool.sext(i, k),
                Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor), a, b) => {
                    let (la, lb) = (self.low_bits(pool, a, k, d), self.low_bits(pool, b, k, d));
                    pool.bin(op, la, lb)
                }
                Expr::Bin(BinOp::Shl, a, s) => match pool.as_const(s) {
                    Some(s) if s < k as u128 => {
                        let la = self.low_bits(pool, a, k, d);
                        let sk = pool.constant(k, s);
                        pool.bin(BinOp::Shl, la, sk)
                    }
                    Some(_) => pool.constant(k, 0),
                    None => pool.extract(x, 0, k),
                },
                Expr::Not(a) => {
                    let la = self.low_bits(pool, a, k, d);
                    pool.not(la)
                }
                Expr::Ite(c, t, e) => {
                    let (lt, le) = (self.low_bits(pool, t, k, d), self.low_bits(pool, e, k, d));
                    pool.ite(c, lt, le)
                }
                Expr::Concat(hi, lo) => {
                    let wl = pool.width(lo);
                    if k <= wl {
                        self.low_bits(pool, lo, k, d)
                    } else {
                        let lh = self.low_bits(pool, hi, k - wl, d);
                        pool.concat(lh, lo)
                    }
                }
                _ => pool.extract(x, 0, k),
            }
        };
        self.low_bits_memo.insert((x, k), r);
        r
    }

    /// The value of `x` in every sample.
    /// Every node built while sweeping is made of nodes below the swept
    /// roots, whose inputs `sweep` assigned first.
    fn values(&mut self, pool: &ExprPool, x: ExprId) -> Vec<u128> {
        self.samples
            .iter_mut()
            .map(|(asg, memo)| {
                evaluate_into(pool, &[x], asg, memo);
                memo[&x]
            })
            .collect()
    }

    /// Gives every input byte and fresh value of `leaves` its value in
    /// every sample (a function of the seed, the sample and the leaf
    /// alone, so a node's samples never depend on which check came first).
    fn assign(&mut self, leaves: &FxHashSet<Leaf>) {
        for &leaf in leaves {
            // The bytes a read at a symbolic position takes are those its
            // positions' samples pick, all zero unless read at numbers too:
            // samples only suggest merges, which the solver proves.
            if matches!(leaf, Leaf::Array { .. }) || !self.assigned.insert(leaf) {
                continue;
            }
            for (s, (asg, _)) in self.samples.iter_mut().enumerate() {
                let v = sample_value(self.seed, s, leaf);
                match leaf {
                    Leaf::Fresh { id, width } => {
                        asg.fresh.insert(id, v & mask(width));
                    }
                    Leaf::Input { array, index } => {
                        let bytes = asg.arrays.entry(array).or_default();
                        if bytes.len() <= index as usize {
                            bytes.resize(index as usize + 1, 0);
                        }
                        bytes[index as usize] = v as u8;
                    }
                    Leaf::Array { .. } => {}
                }
            }
        }
    }
}

/// How a swept node extends its core: not at all, or by zero or sign
/// extension.
#[derive(Copy, Clone)]
enum Extension {
    None,
    Zero,
    Sign,
}

impl Extension {
    fn apply(self, pool: &mut ExprPool, core: ExprId, w: Width) -> ExprId {
        match self {
            Extension::None => core,
            Extension::Zero => pool.zext(core, w),
            Extension::Sign => pool.sext(core, w),
        }
    }
}

fn split_extension(pool: &ExprPool, x: ExprId) -> (ExprId, Extension) {
    match *pool.get(x) {
        Expr::ZExt(i, _) => (i, Extension::Zero),
        Expr::SExt(i, _) => (i, Extension::Sign),
        _ => (x, Extension::None),
    }
}

/// Deepest recursion of the structural bit-length bounds (past it, the
/// bound is the width: still an upper bound).
const BOUND_DEPTH: u32 = 24;

/// Structural bit-length bounds, remembered per node: the cones are DAGs
/// whose shared nodes a plain recursion visits once per path to them, a
/// number that doubles with each level of butterflies (a 4x4 transform
/// took minutes). A bound is reused by a call that reaches its node at
/// the same depth or deeper (so would look no further below it), and
/// recomputed by one that reaches it higher: at most `BOUND_DEPTH` times
/// per node, and never looser than the plain recursion's bound.
#[derive(Default)]
struct Bounds {
    /// Per node: the depth its bound was computed at, and the bound.
    unsigned: FxHashMap<ExprId, (u32, Width)>,
    signed: FxHashMap<ExprId, (u32, Width)>,
    /// Bounds computed (not reused), for the test of the memo.
    computed: u64,
}

impl Bounds {
    /// An upper bound on the number of low bits of `x` that can be
    /// nonzero, read from its structure alone (interval reasoning: a sum
    /// of values below 2^k and 2^m is below 2^(max(k,m)+1), a product
    /// below 2^(k+m), as long as that fits the width).
    fn known_bit_length(&mut self, pool: &ExprPool, x: ExprId) -> Width {
        self.unsigned_bound(pool, x, 0)
    }

    fn unsigned_bound(&mut self, pool: &ExprPool, x: ExprId, depth: u32) -> Width {
        let w = pool.width(x);
        if depth >= BOUND_DEPTH {
            return w;
        }
        if let Some(&(at, b)) = self.unsigned.get(&x) {
            if at <= depth {
                return b;
            }
        }
        self.computed += 1;
        let d = depth + 1;
        let bound = match *pool.get(x) {
            Expr::Const { value, .. } => 128 - value.leading_zeros(),
            Expr::Input { .. } => 8,
            Expr::ZExt(i, _) => self.unsigned_bound(pool, i, d),
            Expr::Bin(BinOp::And, a, c) => self.unsigned_bound(pool, a, d).min(self.unsigned_bound(pool, c, d)),
            Expr::Bin(BinOp::Or | BinOp::Xor, a, c) => self.unsigned_bound(pool, a, d).max(self.unsigned_bound(pool, c, d)),
            Expr::Bin(BinOp::Add, a, c) => self.unsigned_bound(pool, a, d).max(self.unsigned_bound(pool, c, d)) + 1,
            Expr::Bin(BinOp::Mul, a, c) => self.unsigned_bound(pool, a, d) + self.unsigned_bound(pool, c, d),
            Expr::Bin(BinOp::LShr | BinOp::UDiv | BinOp::URem, a, _) => self.unsigned_bound(pool, a, d),
            Expr::Ite(_, t, e) => self.unsigned_bound(pool, t, d).max(self.unsigned_bound(pool, e, d)),
            Expr::Extract { value, offset: 0, width } => self.unsigned_bound(pool, value, d).min(width),
            _ => w,
        };
        let bound = bound.min(w);
        self.unsigned.insert(x, (depth, bound));
        bound
    }

    /// An upper bound on the bits `x` needs as a signed number (its value
    /// is a sign extension of that many low bits), read from its structure
    /// alone.
    fn known_signed_bit_length(&mut self, pool: &ExprPool, x: ExprId, depth: u32) -> Width {
        let w = pool.width(x);
        if depth >= BOUND_DEPTH {
            return w;
        }
        if let Some(&(at, b)) = self.signed.get(&x) {
            if at <= depth {
                return b;
            }
        }
        self.computed += 1;
        let d = depth + 1;
        let bound = match *pool.get(x) {
            Expr::Const { value, .. } => signed_bit_length(value, w),
            Expr::SExt(i, _) => self.known_signed_bit_length(pool, i, d),
            // A zero extension is non-negative: one more bit for the sign.
            Expr::ZExt(i, _) => self.known_bit_length(pool, i) + 1,
            // The difference of two values in [0, 2^k) lies in (-2^k, 2^k).
            Expr::Bin(BinOp::Sub, a, c) if is_zext(pool, a) && is_zext(pool, c) => {
                self.known_bit_length(pool, a).max(self.known_bit_length(pool, c)) + 1
            }
            Expr::Bin(BinOp::Add | BinOp::Sub, a, c) => {
                self.known_signed_bit_length(pool, a, d).max(self.known_signed_bit_length(pool, c, d)) + 1
            }
            // |x*y| <= 2^(k-1) * 2^(m-1): k + m signed bits.
            Expr::Bin(BinOp::Mul, a, c) => self.known_signed_bit_length(pool, a, d) + self.known_signed_bit_length(pool, c, d),
            Expr::Ite(_, t, e) => self.known_signed_bit_length(pool, t, d).max(self.known_signed_bit_length(pool, e, d)),
            _ => w,
        };
        let bound = bound.min(w);
        self.signed.insert(x, (depth, bound));
        bound
    }
}

fn is_zext(pool: &ExprPool, x: ExprId) -> bool {
    matches!(*pool.get(x), Expr::ZExt(..))
}

/// Bits needed to hold `v` (a `w`-bit value) as a signed number.
fn signed_bit_length(v: u128, w: Width) -> Width {
    let s = to_signed(v, w);
    let magnitude = if s < 0 { !s } else { s };
    (128 - magnitude.leading_zeros()) + 1
}

/// The stream fresh values draw their samples from, as each input array
/// has its own: the number they drew from before leaves had a type, so
/// sweeps sample as they did. No real array gets that far; if one did, it
/// would only share samples with fresh values, never change a result (a
/// sweep's merges are proved by the solver).
const FRESH_SAMPLE_STREAM: u32 = u32::MAX;

/// Value of `leaf` in sample `s`: edge patterns first (all zero, all ones,
/// sign bits, alternating by stream so that one side of a difference is
/// large and the other small), then pseudo-random bytes.
fn sample_value(seed: u64, s: usize, leaf: Leaf) -> u128 {
    let (stream, index) = match leaf {
        Leaf::Input { array, index } => (array, index),
        Leaf::Fresh { id, .. } => (FRESH_SAMPLE_STREAM, id),
        Leaf::Array { array } => (array, u32::MAX),
    };
    let odd = stream % 2 == 1;
    let byte = |x: u8| u128::from_le_bytes([x; 16]);
    match s {
        0 => 0,
        1 => u128::MAX,
        2 => byte(0x80),
        3 => byte(0x7f),
        4 => byte(if odd { 0 } else { 0xff }),
        5 => byte(if odd { 0xff } else { 0 }),
        6 => byte(if odd { 0x7f } else { 0x80 }),
        7 => byte(if odd { 0x80 } else { 0x7f }),
        _ => {
            let mut h = seed ^ (s as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= (stream as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (index as u64).wrapping_mul(0x94d0_49bb_1331_11eb);
            let lo = crate::splitmix::splitmix64(h);
            let hi = crate::splitmix::splitmix64(lo);
            ((hi as u128) << 64) | lo as u128
        }
    }
}

/// The nodes below `roots`, children before parents (iteratively: the
/// DAGs of unrolled loops are deep).
fn post_order(pool: &ExprPool, roots: &[ExprId]) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<(ExprId, bool)> = roots.iter().rev().map(|r| (*r, false)).collect();
    while let Some((id, expanded)) = stack.pop() {
        if expanded {
            out.push(id);
            continue;
        }
        if !seen.insert(id) {
            continue;
        }
        stack.push((id, true));
        for c in pool.children(id).into_iter().rev() {
            if !seen.contains(&c) {
                stack.push((c, false));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, CmpOp};

    /// Answers every budgeted question by enumerating all values of the
    /// (at most two) input bytes: an exact referee for small cones.
    struct Exhaustive;

    impl Backend for Exhaustive {
        fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility {
            assert!(path.is_empty());
            let mut leaves = FxHashSet::default();
            pool.leaves_of(goal, &mut leaves);
            let inputs: Vec<(u32, u32)> = leaves
                .into_iter()
                .map(|leaf| match leaf {
                    Leaf::Input { array, index } => (array, index),
                    Leaf::Fresh { .. } | Leaf::Array { .. } => panic!("exhaustive referee: input bytes only"),
                })
                .collect();
            assert!(inputs.len() <= 2, "exhaustive referee: too many inputs");
            for v in 0..(1u32 << (8 * inputs.len())) {
                let mut asg = Assignment::default();
                for (n, (array, index)) in inputs.iter().enumerate() {
                    let bytes = asg.arrays.entry(*array).or_default();
                    bytes.resize(bytes.len().max(*index as usize + 1), 0);
                    bytes[*index as usize] = (v >> (8 * n)) as u8;
                }
                if evaluate(pool, goal, &asg) == 1 {
                    return Feasibility::Sat(asg);
                }
            }
            Feasibility::Unsat
        }
        fn queries(&self) -> u64 {
            0
        }
    }

    fn every_pair(pool: &ExprPool, x: ExprId, y: ExprId) -> bool {
        (0..=0xffffu32).all(|v| {
            let mut asg = Assignment::default();
            asg.arrays.insert(0, vec![v as u8]);
            asg.arrays.insert(1, vec![(v >> 8) as u8]);
            evaluate(pool, x, &asg) == evaluate(pool, y, &asg)
        })
    }

    /// |a - b| of two bytes the way scalar C writes it: in 32 bits, signed.
    fn abs_diff_c(p: &mut ExprPool, a: ExprId, b: ExprId) -> ExprId {
        let (a, b) = (p.zext(a, 32), p.zext(b, 32));
        let d = p.sub(a, b);
        let zero = p.constant(32, 0);
        let neg = p.cmp(CmpOp::Slt, d, zero);
        let minus = p.sub(zero, d);
        p.ite(neg, minus, d)
    }

    /// |a - b| the way PSADBW is lowered: in 16 bits, unsigned compare.
    fn abs_diff_hw(p: &mut ExprPool, a: ExprId, b: ExprId) -> ExprId {
        let (a, b) = (p.zext(a, 16), p.zext(b, 16));
        let lt = p.cmp(CmpOp::Ult, a, b);
        let (ba, ab) = (p.sub(b, a), p.sub(a, b));
        p.ite(lt, ba, ab)
    }

    #[test]
    fn two_absolute_differences_meet() {
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let c = abs_diff_c(&mut p, a, b);
        let h = abs_diff_hw(&mut p, a, b);
        let h32 = p.zext(h, 32);
        let mut s = Sweeper::new(7);
        let (x, y) = s.sweep(&mut p, &mut Exhaustive, c, h32);
        assert_eq!(x, y, "both are |a - b| of two bytes");
        assert!(every_pair(&p, x, c) && every_pair(&p, y, h32));
    }

    #[test]
    fn a_wrong_claim_is_never_merged() {
        // |a - b| against a - b: equal whenever a >= b, which most samples
        // are not; and a saturating difference that agrees on the edge
        // samples.
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let c = abs_diff_c(&mut p, a, b);
        let (a32, b32) = (p.zext(a, 32), p.zext(b, 32));
        let plain = p.sub(a32, b32);
        let mut s = Sweeper::new(7);
        let (x, y) = s.sweep(&mut p, &mut Exhaustive, c, plain);
        assert_ne!(x, y);
        assert!(every_pair(&p, x, c) && every_pair(&p, y, plain));
    }

    #[test]
    fn narrow_forms_equal_the_wide_ones() {
        // Sums, products and differences of bytes in 32 bits, narrowed.
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let (za, sb) = (p.zext(a, 32), p.sext(b, 32));
        let prod = p.mul(za, sb);
        let sum = p.add(za, sb);
        let diff = p.sub(za, sb);
        let t = p.trunc(sum, 16);
        let mut s = Sweeper::new(3);
        for e in [prod, sum, diff, t] {
            let (x, _) = s.sweep(&mut p, &mut Exhaustive, e, e);
            assert!(every_pair(&p, x, e), "a swept node must equal the original");
        }
    }

    #[test]
    fn low_bits_are_the_truncation() {
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let (za, sb) = (p.zext(a, 32), p.sext(b, 32));
        let three = p.constant(32, 3);
        let sh = p.bin(BinOp::Shl, za, three);
        let m = p.mul(sh, sb);
        let n = p.not(m);
        let x = p.xor(n, za);
        let lt = p.cmp(CmpOp::Ult, za, sb);
        let sel = p.ite(lt, x, sb);
        let cat = p.concat(a, b);
        let cz = p.zext(cat, 32);
        let top = p.sub(sel, cz);
        let mut s = Sweeper::new(1);
        for k in [1, 4, 8, 9, 12, 16, 31] {
            let low = s.low_bits(&mut p, top, k, 0);
            let reference = p.extract(top, 0, k);
            assert!(every_pair(&p, low, reference), "low {k} bits");
        }
    }

    /// The structural bounds never claim fewer bits than a value needs:
    /// checked on every pair of byte values.
    #[test]
    fn structural_bounds_hold_for_every_input() {
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let (za, sb, zb) = (p.zext(a, 32), p.sext(b, 32), p.zext(b, 32));
        let (za16, sb16) = (p.zext(a, 16), p.sext(b, 16));
        let prod = p.mul(za, sb);
        let prod16 = p.mul(za16, sb16);
        let uprod = p.mul(za, zb);
        let sum = p.add(prod, uprod);
        let diff = p.sub(za, sb);
        let zdiff = p.sub(za, zb);
        let sum16 = p.add(prod16, prod16);
        let lt = p.cmp(CmpOp::Ult, za, zb);
        let sel = p.ite(lt, diff, sum);
        let masked = p.and(sel, za);
        for e in [prod, prod16, uprod, sum, diff, zdiff, sum16, sel, masked] {
            let (k, ks) = (Bounds::default().known_bit_length(&p, e), Bounds::default().known_signed_bit_length(&p, e, 0));
            let w = p.width(e);
            for v in 0..=0xffffu32 {
                let mut asg = Assignment::default();
                asg.arrays.insert(0, vec![v as u8]);
                asg.arrays.insert(1, vec![(v >> 8) as u8]);
                let x = evaluate(&p, e, &asg);
                assert!(128 - x.leading_zeros() <= k, "{} needs more than {k} bits", crate::expr::print_expr(&p, e));
                assert!(signed_bit_length(x, w) <= ks, "{} needs more than {ks} signed bits", crate::expr::print_expr(&p, e));
            }
        }
    }

    /// Each level uses the one below twice, as butterflies do: a plain
    /// recursion visits 2^depth paths, the memo each node a few times.
    #[test]
    fn bounds_of_a_shared_dag_are_computed_a_bounded_number_of_times() {
        let mut p = ExprPool::new();
        let a = p.input_byte(0, 0);
        let b = p.input_byte(2, 0);
        let (za, zb) = (p.zext(a, 32), p.zext(b, 32));
        let mut x = p.sub(za, zb);
        let mut nodes = 2;
        for level in 0..60 {
            let c = p.input_byte(1, level);
            let cz = p.zext(c, 32);
            let lt = p.cmp(CmpOp::Ult, x, cz);
            let sum = p.add(x, x);
            let prod = p.mul(x, x);
            x = p.ite(lt, sum, prod);
            nodes += 6;
        }
        let mut bounds = Bounds::default();
        assert_eq!(bounds.known_bit_length(&p, x), 32);
        assert_eq!(bounds.known_signed_bit_length(&p, x, 0), 32);
        assert!(bounds.computed <= u64::from(BOUND_DEPTH) * 2 * nodes, "{} bounds computed for {nodes} nodes", bounds.computed);
    }

    /// A backend that reports the run stopped and refuses every query.
    struct Stopped(u64);

    impl Backend for Stopped {
        fn check(&mut self, _: &ExprPool, _: &[ExprId], _: ExprId) -> Feasibility {
            self.0 += 1;
            Feasibility::Unknown(crate::solver::Unknown::interrupted())
        }
        fn queries(&self) -> u64 {
            self.0
        }
        fn stop_requested(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_stopped_run_sweeps_nothing_and_asks_nothing() {
        let mut p = ExprPool::new();
        let (a, b) = (p.input_byte(0, 0), p.input_byte(1, 0));
        let c = abs_diff_c(&mut p, a, b);
        let h = abs_diff_hw(&mut p, a, b);
        let h32 = p.zext(h, 32);
        let mut backend = Stopped(0);
        let (x, y) = Sweeper::new(7).sweep(&mut p, &mut backend, c, h32);
        assert_eq!((x, y, backend.0), (c, h32, 0));
    }

    #[test]
    fn samples_do_not_depend_on_the_order_of_checks() {
        let byte = |index| Leaf::Input { array: 1, index };
        assert_eq!(sample_value(5, 9, byte(3)), sample_value(5, 9, byte(3)));
        assert_ne!(sample_value(5, 9, byte(3)), sample_value(5, 9, byte(4)));
        // A fresh value is not a byte of an input array with its number.
        assert_ne!(sample_value(5, 9, byte(3)), sample_value(5, 9, Leaf::Fresh { id: 3, width: 8 }));
        assert_eq!(signed_bit_length(0xff, 8), 1);
        assert_eq!(signed_bit_length(0x7f, 8), 8);
        assert_eq!(signed_bit_length(0x80, 16), 9);
    }
}
