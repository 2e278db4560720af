//! Case splits on the input bytes a branch fixes. SIMD code often tests a
//! whole vector at once where its C reference tests one element at a time:
//! pixman's SSE2 combiners store the source unchanged when all four
//! pixels' alpha bytes are 0xff (`movemask(cmpeq(x, ones)) & 0x8888 ==
//! 0x8888`) and leave the destination when the whole mask is zero, where
//! the C combiner asks the same of each pixel. Merged paths keep both as
//! selects, so the two sides of a check are nested selects over different
//! conditions, and no rewrite of either side alone makes them meet.
//!
//! Under one of those conditions, though, every byte it tests has a known
//! value: all four alpha bytes are 0xff, so each pixel's C test folds to
//! its branch and each SIMD multiply by that alpha has a constant operand.
//! `split_condition` picks, among the select conditions of the sides, one
//! that fixes some input byte when it holds or when it fails;
//! `fixed_bytes` reads those bytes off the condition; `specialize`
//! rebuilds the sides with them (and the condition itself) replaced by
//! their values, through the folding builders. The check then holds when
//! it holds in both cases, each with the case's condition added to the
//! path.
//!
//! Soundness: `fixed_bytes(c, holds)` only returns bytes that every input
//! on which `c` evaluates to `holds` has (each rule below reads a
//! necessary condition off the bits of `c`), and `None` only when no input
//! gives `c` that value; so each specialised side equals its side on every
//! input of its case. `tests/case_split.rs` checks both by evaluation on
//! every value of small inputs and on pixman's own condition shapes.

use crate::expr::{mask, BinOp, CmpOp, Expr, ExprId, ExprPool};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// Input bytes with known values, by (array, byte index).
pub type FixedBytes = FxHashMap<(u32, u32), u8>;

/// How deep `fixed_bytes` follows a condition's operands: conditions are
/// shallow (compares of masks of concatenated compares); past this depth a
/// subterm simply fixes nothing, which is always sound.
const FACT_DEPTH: u32 = 48;

/// The input bytes every input on which `cond` (a 1-bit value) evaluates
/// to `holds` has; `None` when no input gives it that value (the bits it
/// would need contradict each other).
pub fn fixed_bytes(pool: &ExprPool, cond: ExprId, holds: bool) -> Option<FixedBytes> {
    let mut out = FixedBytes::default();
    match fix(pool, cond, 1, holds as u128, &mut out, 0) {
        Ok(()) => Some(out),
        Err(Contradiction) => None,
    }
}

/// The bits asked of a value cannot all be had.
struct Contradiction;

/// Records what `e`'s bits under `care` equal to those of `want` fixes.
fn fix(pool: &ExprPool, e: ExprId, care: u128, want: u128, out: &mut FixedBytes, depth: u32) -> Result<(), Contradiction> {
    let w = pool.width(e);
    let care = care & mask(w);
    let want = want & care;
    if care == 0 || depth > FACT_DEPTH {
        return Ok(());
    }
    let d = depth + 1;
    match *pool.get(e) {
        Expr::Const { value, .. } if (value ^ want) & care != 0 => return Err(Contradiction),
        Expr::Input { array, index } if care == 0xff => {
            let byte = want as u8;
            if out.insert((array, index), byte).is_some_and(|old| old != byte) {
                return Err(Contradiction);
            }
        }
        Expr::Concat(hi, lo) => {
            let wl = pool.width(lo);
            fix(pool, lo, care & mask(wl), want, out, d)?;
            fix(pool, hi, care >> wl, want >> wl, out, d)?;
        }
        Expr::ZExt(x, _) => {
            let wx = pool.width(x);
            if want >> wx != 0 {
                return Err(Contradiction);
            }
            fix(pool, x, care, want, out, d)?;
        }
        Expr::Extract { value, offset, .. } => {
            fix(pool, value, care << offset, want << offset, out, d)?;
        }
        Expr::Not(x) => fix(pool, x, care, !want & care, out, d)?,
        Expr::Bin(BinOp::Xor, x, y) => match (pool.as_const(x), pool.as_const(y)) {
            (_, Some(k)) => fix(pool, x, care, want ^ k, out, d)?,
            (Some(k), _) => fix(pool, y, care, want ^ k, out, d)?,
            _ => {}
        },
        Expr::Bin(BinOp::And, x, y) => match (pool.as_const(x), pool.as_const(y)) {
            (_, Some(m)) | (Some(m), _) => {
                let v = if pool.as_const(y).is_some() { x } else { y };
                // Bits the mask clears are zero whatever `v` is.
                if want & !m != 0 {
                    return Err(Contradiction);
                }
                fix(pool, v, care & m, want, out, d)?;
            }
            _ => {
                // A one of `x & y` is a one of both.
                let ones = care & want;
                fix(pool, x, ones, ones, out, d)?;
                fix(pool, y, ones, ones, out, d)?;
            }
        },
        Expr::Bin(BinOp::Or, x, y) => match (pool.as_const(x), pool.as_const(y)) {
            (_, Some(m)) | (Some(m), _) => {
                let v = if pool.as_const(y).is_some() { x } else { y };
                // Bits the constant sets are one whatever `v` is.
                if !want & care & m != 0 {
                    return Err(Contradiction);
                }
                fix(pool, v, care & !m, want, out, d)?;
            }
            _ => {
                // A zero of `x | y` is a zero of both.
                let zeros = care & !want;
                fix(pool, x, zeros, 0, out, d)?;
                fix(pool, y, zeros, 0, out, d)?;
            }
        },
        Expr::Bin(BinOp::Add, x, y) if care == mask(w) => match (pool.as_const(x), pool.as_const(y)) {
            (_, Some(k)) => fix(pool, x, care, want.wrapping_sub(k) & mask(w), out, d)?,
            (Some(k), _) => fix(pool, y, care, want.wrapping_sub(k) & mask(w), out, d)?,
            _ => {}
        },
        Expr::Cmp(CmpOp::Eq, x, y) => {
            // `x == k` holding fixes every bit of `x`; failing, it fixes a
            // one-bit `x` to the other value.
            let equal = want == 1;
            let (v, k) = match (pool.as_const(x), pool.as_const(y)) {
                (_, Some(k)) => (x, k),
                (Some(k), _) => (y, k),
                _ => return Ok(()),
            };
            let wv = pool.width(v);
            if equal {
                fix(pool, v, mask(wv), k, out, d)?;
            } else if wv == 1 {
                fix(pool, v, 1, !k & 1, out, d)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The select condition of `roots` to split on: nearest the roots first
/// (breadth first), the first that fixes an input byte when it holds or
/// when it fails, or that one of its values contradicts. None when no
/// condition does.
pub fn split_condition(pool: &ExprPool, roots: &[ExprId]) -> Option<ExprId> {
    let mut seen: FxHashSet<ExprId> = roots.iter().copied().collect();
    let mut tried: FxHashSet<ExprId> = FxHashSet::default();
    let mut queue: VecDeque<ExprId> = roots.iter().copied().collect();
    while let Some(e) = queue.pop_front() {
        if let Expr::Ite(c, ..) = *pool.get(e) {
            if tried.insert(c) && pool.as_const(c).is_none() && decisive(pool, c) {
                return Some(c);
            }
        }
        for k in pool.children(e) {
            if seen.insert(k) {
                queue.push_back(k);
            }
        }
    }
    None
}

/// Whether one of `c`'s values fixes an input byte or is impossible.
fn decisive(pool: &ExprPool, c: ExprId) -> bool {
    [true, false].into_iter().any(|holds| fixed_bytes(pool, c, holds).is_none_or(|f| !f.is_empty()))
}

/// `roots` on the inputs where `cond` is `holds` and the bytes of `fixed`
/// have their values: those bytes and `cond` replaced by constants,
/// rebuilt through the folding builders (a select on `cond`, or on a test
/// of the fixed bytes, becomes its branch).
pub fn specialize(pool: &mut ExprPool, roots: &[ExprId], cond: ExprId, holds: bool, fixed: &FixedBytes) -> Vec<ExprId> {
    let mut done: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    let value = pool.bool_const(holds);
    done.insert(cond, value);
    let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|&r| (r, false)).collect();
    while let Some((id, expanded)) = stack.pop() {
        if done.contains_key(&id) {
            continue;
        }
        let kids = pool.children(id);
        if !expanded {
            stack.push((id, true));
            stack.extend(kids.into_iter().filter(|k| !done.contains_key(k)).map(|k| (k, false)));
            continue;
        }
        let new = match *pool.get(id) {
            Expr::Input { array, index } => match fixed.get(&(array, index)) {
                Some(&b) => pool.constant(8, b as u128),
                None => id,
            },
            _ => {
                let new_kids: Vec<ExprId> = kids.iter().map(|k| done[k]).collect();
                if new_kids[..] == kids[..] {
                    id
                } else {
                    pool.rebuild(id, &new_kids)
                }
            }
        };
        done.insert(id, new);
    }
    roots.iter().map(|r| done[r]).collect()
}
