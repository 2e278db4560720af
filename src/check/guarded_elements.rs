//! Per-element checks under a guard over many elements: drop the guards a
//! check's own element test implies, then decide the element on every
//! value of the few input bytes it still reads.
//!
//! A C reference often skips work with a test over a whole block that the
//! SIMD code does not make: libvpx's `vpx_quantize_b_c` first scans the
//! coefficients backwards for the last one outside the zero bin and
//! quantizes only those before it, where the SSE2 path quantizes all
//! sixteen lanes and masks each with its own zero-bin test. On a merged
//! path, element `i` of the C output is
//! `(i <u last) ? ((zbin <=s |c_i|) ? q(c_i) : 0) : 0`, with `last` a chain
//! of selects over the coefficients `i..15`, against the SSE2 lane's
//! `(zbin <=s |c_i|) ? q'(c_i) : 0`. The scan's guard is redundant: a
//! coefficient outside the zero bin stops the backward scan at or after
//! it. No rewrite of either side alone makes them meet, and the guard
//! ties every element to all later coefficients, so the solver faces the
//! quantizer's multiplies on 256 input bits instead of 16.
//!
//! The guard on the last coefficient is not even nested over a test of
//! its own (the normal form drops the zero-bin test it implies): there
//! `match_wide_conditions` replaces a condition over many bytes by a
//! condition of the other side over a subset of them when the solver shows
//! the two equal on the path.
//!
//! `drop_implied_guards` rewrites `g ? (h ? y : z) : z` to `h ? y : z`
//! when the solver shows that `h` implies `g` on the path (a question
//! about the conditions only: compares and selects, no multiplies). Then
//! `decide_exhaustively` evaluates a check whose sides read at most
//! `MAX_EXHAUSTIVE_BYTES` input bytes on every value of them.
//!
//! Soundness: a condition replaced by one equal to it on the path leaves
//! the side's value unchanged on every input of the path. Where `h` holds `g` holds (on the path), so the select on
//! `g` takes its first branch; where `h` fails both forms give `z`. Each
//! rewritten side therefore equals its original on every input of the
//! path. The exhaustive step proves `a == b` on every value of the bytes
//! the sides read that satisfies the path's constraints over those bytes
//! alone: every input of the whole path is among them, since the other
//! constraints only remove inputs. A difference it finds is returned as a
//! witness only when the whole path holds on it (other bytes zero);
//! otherwise the step leaves the check to the solver.

use super::{Backend, Feasibility};
use crate::expr::{evaluate, evaluate_node, Assignment, Expr, ExprId, ExprPool, Leaf};
use rustc_hash::{FxHashMap, FxHashSet};

/// Solver work units (Z3 `rlimit`) one implication between two select
/// conditions may use: they are compares over a few bytes, decided in a
/// fraction of that; one that runs out keeps its guard.
pub(super) const IMPLICATION_BUDGET: u32 = 200_000;

/// Implication questions one check may ask; past it, the guards not yet
/// asked about are kept (the sides stay equal to the originals, only
/// larger), and the rest of the ladder decides them.
pub(super) const IMPLICATIONS_PER_CHECK: u32 = 64;

/// Input bytes a check may read and still be decided by evaluating every
/// value of them: 2^16 evaluations of the two sides.
pub(super) const MAX_EXHAUSTIVE_BYTES: usize = 2;

/// `roots` with every `g ? (h ? y : z) : z` whose guard `g` is implied by
/// `h` on `path` replaced by `h ? y : z` (and `g ? (h ? z : y) : z` whose
/// guard `!h` implies by `h ? z : y`), bottom-up (so a nest of such
/// guards goes one by one). `asked` counts the implication questions of
/// the check; none is asked past `IMPLICATIONS_PER_CHECK`.
pub(super) fn drop_implied_guards(
    pool: &mut ExprPool,
    backend: &mut dyn Backend,
    path: &[ExprId],
    roots: &[ExprId],
    asked: &mut u32,
) -> Vec<ExprId> {
    let mut done: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    // (guard, inner condition) -> whether the inner one implies the guard.
    let mut implied: FxHashMap<(ExprId, ExprId), bool> = FxHashMap::default();
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
        let new_kids: Vec<ExprId> = kids.iter().map(|k| done[k]).collect();
        let mut new = if new_kids[..] == kids[..] { id } else { pool.rebuild(id, &new_kids) };
        if let Some((g, t, z)) = as_select(pool, new) {
            if let Some((h, inner_then, inner_else)) = as_select(pool, t) {
                // The inner select leaves `z` when `h` fails (or, written
                // the other way round, when it holds): `leaves` is the
                // condition under which it does not.
                let leaves = if inner_else == z {
                    Some(h)
                } else if inner_then == z {
                    Some(pool.not(h))
                } else {
                    None
                };
                if let Some(h) = leaves.filter(|_| pool.as_const(g).is_none()) {
                    let holds = match implied.get(&(g, h)) {
                        Some(&known) => known,
                        None if *asked < IMPLICATIONS_PER_CHECK && !backend.stop_requested() => {
                            *asked += 1;
                            let not_g = pool.not(g);
                            let escape = pool.and(h, not_g);
                            let known = matches!(backend.check_budgeted(pool, path, escape, IMPLICATION_BUDGET), Feasibility::Unsat);
                            implied.insert((g, h), known);
                            known
                        }
                        None => false,
                    };
                    if holds {
                        new = t;
                    }
                }
            }
        }
        done.insert(id, new);
    }
    roots.iter().map(|r| done[r]).collect()
}

/// `roots` with each select condition of `wide` that reads more than
/// `MAX_EXHAUSTIVE_BYTES` bytes replaced by a condition of `narrow` that
/// reads a subset of its bytes and that the solver shows equal to it on
/// `path`. Meant for a check whose `narrow` side reads one element: the C
/// reference's guard on its last coefficient (`7 <u last`, a chain over
/// every coefficient) is that coefficient's own zero-bin test there, so
/// once replaced the check reads one element. `asked` counts the questions
/// as in `drop_implied_guards`.
pub(super) fn match_wide_conditions(
    pool: &mut ExprPool,
    backend: &mut dyn Backend,
    path: &[ExprId],
    wide: ExprId,
    narrow: ExprId,
    asked: &mut u32,
) -> ExprId {
    let Some(narrow_bytes) = input_bytes(pool, &[narrow]) else { return wide };
    if narrow_bytes.len() > MAX_EXHAUSTIVE_BYTES {
        return wide;
    }
    let candidates: Vec<ExprId> = select_conditions(pool, narrow).into_iter().filter(|&h| pool.as_const(h).is_none()).collect();
    let mut replace: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for g in select_conditions(pool, wide) {
        let Some(g_bytes) = input_bytes(pool, &[g]) else { continue };
        if g_bytes.len() <= MAX_EXHAUSTIVE_BYTES {
            continue;
        }
        for &h in &candidates {
            if *asked >= IMPLICATIONS_PER_CHECK || backend.stop_requested() {
                break;
            }
            let Some(h_bytes) = input_bytes(pool, &[h]) else { continue };
            if !h_bytes.iter().all(|x| g_bytes.contains(x)) {
                continue;
            }
            *asked += 1;
            let differ = pool.xor(g, h);
            if matches!(backend.check_budgeted(pool, path, differ, IMPLICATION_BUDGET), Feasibility::Unsat) {
                replace.insert(g, h);
                break;
            }
        }
    }
    if replace.is_empty() {
        return wide;
    }
    pool.substitute(&[wide], &replace)[0]
}

/// The conditions of the selects below `root`, in a fixed order.
fn select_conditions(pool: &ExprPool, root: ExprId) -> Vec<ExprId> {
    let mut seen: FxHashSet<ExprId> = FxHashSet::default();
    let mut out: Vec<ExprId> = Vec::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if let Some((c, _, _)) = as_select(pool, e) {
            out.push(c);
        }
        stack.extend(pool.children(e));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `e`'s condition and branches when it is a select.
fn as_select(pool: &ExprPool, e: ExprId) -> Option<(ExprId, ExprId, ExprId)> {
    match *pool.get(e) {
        Expr::Ite(c, t, f) => Some((c, t, f)),
        _ => None,
    }
}

/// What evaluating a check on every value of its bytes found.
pub(super) enum Exhaustive {
    /// The sides agree on every value the path allows.
    Equal,
    /// They differ on this input, on which the whole path holds.
    Differ(Assignment),
}

/// `a == b` decided on every value of the input bytes the sides read,
/// under the path's constraints over those bytes; None when the sides read
/// more than `MAX_EXHAUSTIVE_BYTES` bytes or anything but input bytes, or
/// when the only difference found is on an input the rest of the path
/// excludes.
pub(super) fn decide_exhaustively(pool: &ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> Option<Exhaustive> {
    let bytes = input_bytes(pool, &[a, b])?;
    if bytes.len() > MAX_EXHAUSTIVE_BYTES {
        return None;
    }
    let support: FxHashSet<(u32, u32)> = bytes.iter().copied().collect();
    // The path's constraints over these bytes only: the others cannot
    // change the sides, only exclude inputs.
    let local: Vec<ExprId> =
        path.iter().copied().filter(|&p| input_bytes(pool, &[p]).is_some_and(|bs| bs.iter().all(|b| support.contains(b)))).collect();
    let mut roots = vec![a, b];
    roots.extend_from_slice(&local);
    let tape = Tape::new(pool, &roots);
    let mut asg = Assignment::default();
    for &(array, index) in &bytes {
        let row = asg.arrays.entry(array).or_default();
        if row.len() <= index as usize {
            row.resize(index as usize + 1, 0);
        }
    }
    let mut values = vec![0u128; tape.order.len()];
    for n in 0u32..(1u32 << (8 * bytes.len())) {
        for (k, &(array, index)) in bytes.iter().enumerate() {
            asg.arrays.get_mut(&array).expect("sized above")[index as usize] = (n >> (8 * k)) as u8;
        }
        tape.run(pool, &asg, &mut values);
        let at = |e: ExprId| values[tape.slot[&e]];
        if local.iter().any(|&p| at(p) == 0) || at(a) == at(b) {
            continue;
        }
        // A difference: a witness only if the rest of the path allows it.
        let whole = path.iter().all(|&p| evaluate(pool, p, &asg) != 0);
        return whole.then_some(Exhaustive::Differ(asg));
    }
    Some(Exhaustive::Equal)
}

/// The input bytes `roots` read, in a fixed order; None when they read a
/// fresh value or an input at a symbolic position.
fn input_bytes(pool: &ExprPool, roots: &[ExprId]) -> Option<Vec<(u32, u32)>> {
    let mut leaves = FxHashSet::default();
    for &r in roots {
        pool.leaves_of(r, &mut leaves);
    }
    let mut bytes = Vec::with_capacity(leaves.len());
    for leaf in leaves {
        match leaf {
            Leaf::Input { array, index } => bytes.push((array, index)),
            Leaf::Array { .. } | Leaf::Fresh { .. } => return None,
        }
    }
    bytes.sort_unstable();
    Some(bytes)
}

/// The nodes below some roots in an order that puts operands first, each
/// with its slot in a value vector: the sides are evaluated 65,536 times,
/// so the walk is done once.
struct Tape {
    order: Vec<ExprId>,
    slot: FxHashMap<ExprId, usize>,
}

impl Tape {
    fn new(pool: &ExprPool, roots: &[ExprId]) -> Tape {
        let order = pool.operands_first(roots);
        let slot = order.iter().enumerate().map(|(k, &id)| (id, k)).collect();
        Tape { order, slot }
    }

    fn run(&self, pool: &ExprPool, asg: &Assignment, values: &mut [u128]) {
        for (k, &id) in self.order.iter().enumerate() {
            let v = evaluate_node(pool, id, asg, |e: &ExprId| values[self.slot[e]]);
            values[k] = v;
        }
    }
}
