//! Checks that combine per-element conditions: each element's conditions
//! are replaced by one-bit variables constrained to the combinations the
//! element can give them, found by evaluating every value of the element.
//!
//! The end of block of libvpx's quantizer is the last position whose
//! coefficient is outside the zero bin and quantizes to nonzero: the C
//! reference finds it with a backward scan and a forward loop (a chain of
//! selects on the merged path), the SSE2 path with masked lane indices and
//! a tree of 16-bit maxima. Both read each coefficient only through a few
//! one-bit conditions (`6 <s |c_i|`, `q(c_i) == 0`, ...), written
//! differently on each side, and combine those. The solver sees sixteen
//! quantizer multiplies per side and does not finish; without them the
//! question is a small one about selects of constants.
//!
//! `decide` finds, on both sides, the one-bit nodes that read the bytes of
//! at most `MAX_ELEMENT_BYTES` bytes (an element) and nothing wider: the
//! element conditions. Every input byte must be read only through them.
//! Elements whose conditions share a byte are one group. Each group is
//! evaluated on every value of its bytes (under the path's constraints on
//! those bytes alone), which gives the exact set of combinations its
//! conditions take. The check is then asked of one-bit variables, one per
//! condition, constrained to those combinations.
//!
//! Soundness: on any input of the path, the conditions of each group take
//! one of the recorded combinations (the constraints dropped only remove
//! inputs), so a side's value is its abstract value at those variables: if
//! the abstract sides cannot differ, the sides cannot. A model of the
//! abstract question is turned back into bytes (each group's recorded
//! value for the combination) and is reported only when the original
//! sides differ on them and the whole path holds.

use super::{Backend, Feasibility};
use crate::expr::{evaluate, evaluate_node, Assignment, Expr, ExprId, ExprPool, Leaf};
use rustc_hash::{FxHashMap, FxHashSet};

/// Bytes one element (a group of conditions) may read: each group is
/// evaluated on all 2^(8 x bytes) values.
pub(super) const MAX_ELEMENT_BYTES: usize = 2;

/// Conditions one group may have: its combinations are kept as bit sets.
const MAX_CONDITIONS_PER_ELEMENT: usize = 16;

/// Combinations written out in the abstract question, over all groups;
/// past it the step is not tried.
const MAX_COMBINATIONS: usize = 4096;

/// Solver work units (Z3 `rlimit`) of the abstract question.
pub(super) const ABSTRACT_BUDGET: u32 = 3_000_000;

/// What the abstract question answered.
pub(super) enum Decided {
    /// The sides agree on every input of the path.
    Equal,
    /// They differ on this input, on which the whole path holds.
    Differ(Assignment),
}

/// One element: the bytes it reads and the conditions that read them.
type Group = (Vec<(u32, u32)>, Vec<ExprId>);

/// The bytes a node reads, when they are few; `Wide` past
/// `MAX_ELEMENT_BYTES`.
#[derive(Clone, PartialEq)]
enum Reads {
    Bytes(Vec<(u32, u32)>),
    Wide,
}

/// `a == b` on `path` by abstracting element conditions (module doc);
/// None when the sides do not have that shape, a limit of this step is
/// passed, or the solver does not answer within `ABSTRACT_BUDGET`.
pub(super) fn decide(pool: &mut ExprPool, backend: &mut dyn Backend, path: &[ExprId], a: ExprId, b: ExprId) -> Option<Decided> {
    let reads = reads_below(pool, &[a, b])?;
    // The conditions: one-bit nodes that read a few bytes, outermost.
    let mut conditions: Vec<ExprId> = Vec::new();
    let mut seen: FxHashSet<ExprId> = FxHashSet::default();
    let mut stack = vec![a, b];
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &reads[&e] {
            Reads::Bytes(bs) if bs.is_empty() => {}
            Reads::Bytes(_) if pool.width(e) == 1 => conditions.push(e),
            // A wider value of one element (an absolute value, a lane's
            // index) is looked into: it must reach the bytes only through
            // conditions. A byte read outside any condition ends the step.
            _ => {
                if matches!(*pool.get(e), Expr::Input { .. }) {
                    return None;
                }
                stack.extend(pool.children(e));
            }
        }
    }
    if conditions.is_empty() {
        return None;
    }
    // Group the conditions by the bytes they share.
    let mut groups: Vec<Group> = Vec::new();
    conditions.sort_unstable();
    for &c in &conditions {
        let Reads::Bytes(bs) = &reads[&c] else { unreachable!("conditions read few bytes") };
        let touching: Vec<usize> = (0..groups.len()).filter(|&g| groups[g].0.iter().any(|x| bs.contains(x))).collect();
        let mut bytes = bs.clone();
        let mut members = vec![c];
        for &g in touching.iter().rev() {
            let (gb, gm) = groups.swap_remove(g);
            bytes.extend(gb);
            members.extend(gm);
        }
        bytes.sort_unstable();
        bytes.dedup();
        if bytes.len() > MAX_ELEMENT_BYTES || members.len() > MAX_CONDITIONS_PER_ELEMENT {
            return None;
        }
        groups.push((bytes, members));
    }
    // Each group's combinations, with a value of its bytes giving each.
    let mut combos: Vec<FxHashMap<u32, u32>> = Vec::with_capacity(groups.len());
    let mut written = 0usize;
    for (bytes, members) in &groups {
        let found = combinations(pool, path, bytes, members);
        written += found.len();
        if written > MAX_COMBINATIONS {
            return None;
        }
        combos.push(found);
    }
    // The abstract sides: each condition a fresh one-bit variable.
    let mut var_of: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for (_, members) in &groups {
        for &c in members {
            let v = pool.fresh(1);
            var_of.insert(c, v);
        }
    }
    let abstract_sides = pool.substitute(&[a, b], &var_of);
    let differ = {
        let eq = pool.eq(abstract_sides[0], abstract_sides[1]);
        pool.not(eq)
    };
    let mut goal = differ;
    for ((_, members), found) in groups.iter().zip(&combos) {
        let mut any = pool.bool_const(false);
        for &bits in found.keys() {
            let mut all = pool.bool_const(true);
            for (k, c) in members.iter().enumerate() {
                let v = var_of[c];
                let lit = if bits >> k & 1 == 1 { v } else { pool.not(v) };
                all = pool.and(all, lit);
            }
            any = pool.or(any, all);
        }
        goal = pool.and(goal, any);
    }
    match backend.check_budgeted(pool, &[], goal, ABSTRACT_BUDGET) {
        Feasibility::Unsat => Some(Decided::Equal),
        Feasibility::Sat(m) => {
            // Back to bytes: each group's value for the model's combination.
            let mut asg = Assignment::default();
            for ((bytes, members), found) in groups.iter().zip(&combos) {
                let bits = members.iter().enumerate().fold(0u32, |acc, (k, c)| {
                    let Expr::Fresh { id, .. } = *pool.get(var_of[c]) else { unreachable!("conditions become fresh values") };
                    acc | ((m.fresh.get(&id).copied().unwrap_or(0) & 1) as u32) << k
                });
                let value = *found.get(&bits)?;
                set_bytes(&mut asg, bytes, value);
            }
            let differs = evaluate(pool, a, &asg) != evaluate(pool, b, &asg);
            let on_path = path.iter().all(|&p| evaluate(pool, p, &asg) != 0);
            (differs && on_path).then_some(Decided::Differ(asg))
        }
        Feasibility::Unknown(_) => None,
    }
}

/// The bytes every node below `roots` reads (`Wide` past
/// `MAX_ELEMENT_BYTES`); None when one reads a fresh value or an input at
/// a symbolic position (no group of bytes can stand for those).
fn reads_below(pool: &ExprPool, roots: &[ExprId]) -> Option<FxHashMap<ExprId, Reads>> {
    let mut reads: FxHashMap<ExprId, Reads> = FxHashMap::default();
    let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|&r| (r, false)).collect();
    while let Some((id, expanded)) = stack.pop() {
        if reads.contains_key(&id) {
            continue;
        }
        let kids = pool.children(id);
        if !expanded {
            stack.push((id, true));
            stack.extend(kids.into_iter().filter(|k| !reads.contains_key(k)).map(|k| (k, false)));
            continue;
        }
        let r = match *pool.get(id) {
            Expr::Input { array, index } => Reads::Bytes(vec![(array, index)]),
            Expr::Fresh { .. } | Expr::InputAt { .. } => return None,
            _ => {
                let mut bytes: Vec<(u32, u32)> = Vec::new();
                let mut wide = false;
                for k in &kids {
                    match &reads[k] {
                        Reads::Wide => wide = true,
                        Reads::Bytes(bs) => bytes.extend_from_slice(bs),
                    }
                }
                bytes.sort_unstable();
                bytes.dedup();
                if wide || bytes.len() > MAX_ELEMENT_BYTES {
                    Reads::Wide
                } else {
                    Reads::Bytes(bytes)
                }
            }
        };
        reads.insert(id, r);
    }
    Some(reads)
}

/// The combinations `members` take on every value of `bytes` that
/// satisfies the path's constraints on those bytes alone, each with the
/// first value giving it (bit k: member k).
fn combinations(pool: &ExprPool, path: &[ExprId], bytes: &[(u32, u32)], members: &[ExprId]) -> FxHashMap<u32, u32> {
    let local: Vec<ExprId> = path
        .iter()
        .copied()
        .filter(|&p| {
            let mut leaves = FxHashSet::default();
            pool.leaves_of(p, &mut leaves);
            !leaves.is_empty()
                && leaves.iter().all(|l| match l {
                    Leaf::Input { array, index } => bytes.contains(&(*array, *index)),
                    _ => false,
                })
        })
        .collect();
    let mut roots = members.to_vec();
    roots.extend_from_slice(&local);
    let (order, slot) = tape(pool, &roots);
    let mut values = vec![0u128; order.len()];
    let mut asg = Assignment::default();
    let mut found: FxHashMap<u32, u32> = FxHashMap::default();
    for n in 0u32..(1u32 << (8 * bytes.len())) {
        set_bytes(&mut asg, bytes, n);
        for (k, &id) in order.iter().enumerate() {
            let v = evaluate_node(pool, id, &asg, |e: &ExprId| values[slot[e]]);
            values[k] = v;
        }
        if local.iter().any(|p| values[slot[p]] == 0) {
            continue;
        }
        let bits = members.iter().enumerate().fold(0u32, |acc, (k, c)| acc | ((values[slot[c]] & 1) as u32) << k);
        found.entry(bits).or_insert(n);
    }
    found
}

/// Byte k of `value` into byte `bytes[k]` of the assignment.
fn set_bytes(asg: &mut Assignment, bytes: &[(u32, u32)], value: u32) {
    for (k, &(array, index)) in bytes.iter().enumerate() {
        let row = asg.arrays.entry(array).or_default();
        if row.len() <= index as usize {
            row.resize(index as usize + 1, 0);
        }
        row[index as usize] = (value >> (8 * k)) as u8;
    }
}

/// The nodes below `roots`, operands first, with their positions.
fn tape(pool: &ExprPool, roots: &[ExprId]) -> (Vec<ExprId>, FxHashMap<ExprId, usize>) {
    let order = pool.operands_first(roots);
    let slot = order.iter().enumerate().map(|(k, &id)| (id, k)).collect();
    (order, slot)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::Z3Referee;
    use super::*;
    use crate::expr::CmpOp;

    /// How many of three bytes are below a bound: each byte read only
    /// through its test, `small(k)` choosing how the test is written.
    fn count(pool: &mut ExprPool, c: &[ExprId], small: impl Fn(&mut ExprPool, usize, ExprId) -> ExprId) -> ExprId {
        let mut total = pool.constant(8, 0);
        for (k, &ck) in c.iter().enumerate() {
            let t = small(pool, k, ck);
            total = pool.add(total, t);
        }
        total
    }

    fn below(pool: &mut ExprPool, bound: u128, c: ExprId) -> ExprId {
        let b = pool.constant(8, bound);
        let lt = pool.cmp(CmpOp::Ult, c, b);
        pool.zext(lt, 8)
    }

    /// The same count written with the opposite test and selects.
    fn not_above(pool: &mut ExprPool, bound: u128, c: ExprId) -> ExprId {
        let b = pool.constant(8, bound);
        let ge = pool.cmp(CmpOp::Ule, b, c);
        let (zero, one) = (pool.constant(8, 0), pool.constant(8, 1));
        pool.ite(ge, zero, one)
    }

    fn bytes(pool: &mut ExprPool, n: u32) -> Vec<ExprId> {
        let arr = pool.new_array("c", n);
        (0..n).map(|k| pool.input_byte(arr, k)).collect()
    }

    #[test]
    fn sides_that_combine_the_same_element_conditions_are_equal() {
        let mut p = ExprPool::new();
        let c = bytes(&mut p, 3);
        let a = count(&mut p, &c, |p, _, ck| below(p, 7, ck));
        let b = count(&mut p, &c, |p, _, ck| not_above(p, 7, ck));
        let mut z3 = Z3Referee::default();
        assert!(matches!(decide(&mut p, &mut z3, &[], a, b), Some(Decided::Equal)));
        assert_eq!(z3.asked, 1, "one abstract question");
    }

    #[test]
    fn a_condition_off_by_one_gives_a_witness_in_bytes() {
        let mut p = ExprPool::new();
        let c = bytes(&mut p, 3);
        let a = count(&mut p, &c, |p, _, ck| below(p, 7, ck));
        // Element 1 tested against 8: they differ where c[1] == 7.
        let b = count(&mut p, &c, |p, k, ck| not_above(p, if k == 1 { 8 } else { 7 }, ck));
        let mut z3 = Z3Referee::default();
        let Some(Decided::Differ(w)) = decide(&mut p, &mut z3, &[], a, b) else { panic!("a difference") };
        assert_eq!(evaluate(&p, c[1], &w), 7);
        assert_ne!(evaluate(&p, a, &w), evaluate(&p, b, &w));
        // On a path where c[1] is never 7, they are equal.
        let seven = p.constant(8, 7);
        let is7 = p.eq(c[1], seven);
        let not7 = p.not(is7);
        assert!(matches!(decide(&mut p, &mut z3, &[not7], a, b), Some(Decided::Equal)));
    }

    #[test]
    fn a_byte_read_outside_a_condition_is_not_this_shape() {
        let mut p = ExprPool::new();
        let c = bytes(&mut p, 3);
        let a = count(&mut p, &c, |p, _, ck| below(p, 7, ck));
        let b = p.add(a, c[0]);
        let mut z3 = Z3Referee::default();
        assert!(decide(&mut p, &mut z3, &[], a, b).is_none());
        assert_eq!(z3.asked, 0);
    }
}
