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

/// The solver's answers about select conditions on one path, kept across
/// the checks of a run: the elements of one output are checked on the same
/// path and ask about the same block-wide guards (libvpx's quantizer asked
/// some five questions per coefficient, most of them already answered for
/// an earlier one). An answer holds for its path in the run's one pool
/// (expression ids are never reused, as the sweeper's memo also assumes);
/// on another path they are all dropped.
#[derive(Default)]
pub(super) struct GuardAnswers {
    path: Vec<ExprId>,
    /// (guard, inner condition) -> whether the inner one implies the guard.
    implied: FxHashMap<(ExprId, ExprId), bool>,
    /// (wide condition, narrow one) -> whether they are equal.
    equal: FxHashMap<(ExprId, ExprId), bool>,
    /// Questions answered from here instead of the solver (for tests).
    pub reused: u64,
}

impl GuardAnswers {
    /// The answers that hold on `path` (none when it is not the path of
    /// the answers kept).
    fn on(&mut self, path: &[ExprId]) -> &mut GuardAnswers {
        if self.path != path {
            self.path = path.to_vec();
            self.implied.clear();
            self.equal.clear();
        }
        self
    }
}

/// `roots` with every `g ? (h ? y : z) : z` whose guard `g` is implied by
/// `h` on `path` replaced by `h ? y : z` (and `g ? (h ? z : y) : z` whose
/// guard `!h` implies by `h ? z : y`), bottom-up (so a nest of such
/// guards goes one by one). `asked` counts the implication questions of
/// the check; none is asked past `IMPLICATIONS_PER_CHECK`. Answers already
/// in `known` are not asked again.
pub(super) fn drop_implied_guards(
    pool: &mut ExprPool,
    backend: &mut dyn Backend,
    path: &[ExprId],
    roots: &[ExprId],
    asked: &mut u32,
    known: &mut GuardAnswers,
) -> Vec<ExprId> {
    let known = known.on(path);
    pool.rewrite_bottom_up(roots, FxHashMap::default(), |pool, new| {
        let Some((g, t, z)) = as_select(pool, new) else { return new };
        let Some((h, inner_then, inner_else)) = as_select(pool, t) else { return new };
        // The inner select leaves `z` when `h` fails (or, written the
        // other way round, when it holds): `leaves` is the condition under
        // which it does not.
        let leaves = if inner_else == z {
            Some(h)
        } else if inner_then == z {
            Some(pool.not(h))
        } else {
            None
        };
        let Some(h) = leaves.filter(|_| pool.as_const(g).is_none()) else { return new };
        let holds = match known.implied.get(&(g, h)) {
            Some(&answer) => {
                known.reused += 1;
                answer
            }
            None if *asked < IMPLICATIONS_PER_CHECK && !backend.stop_requested() => {
                *asked += 1;
                let not_g = pool.not(g);
                let escape = pool.and(h, not_g);
                let answer = backend.check_budgeted(pool, path, escape, IMPLICATION_BUDGET);
                let proved = matches!(answer, Feasibility::Unsat);
                // A question cut short by a signal or the deadline is not
                // an answer to keep.
                if proved || !backend.stop_requested() {
                    known.implied.insert((g, h), proved);
                }
                proved
            }
            None => false,
        };
        if holds {
            t
        } else {
            new
        }
    })
}

/// `roots` with each select condition of `wide` that reads more than
/// `MAX_EXHAUSTIVE_BYTES` bytes replaced by a condition of `narrow` that
/// reads a subset of its bytes and that the solver shows equal to it on
/// `path`. Meant for a check whose `narrow` side reads one element: the C
/// reference's guard on its last coefficient (`7 <u last`, a chain over
/// every coefficient) is that coefficient's own zero-bin test there, so
/// once replaced the check reads one element. `asked` counts the questions
/// and `known` keeps the answers as in `drop_implied_guards`.
pub(super) fn match_wide_conditions(
    pool: &mut ExprPool,
    backend: &mut dyn Backend,
    path: &[ExprId],
    wide: ExprId,
    narrow: ExprId,
    asked: &mut u32,
    known: &mut GuardAnswers,
) -> ExprId {
    let known = known.on(path);
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
            let Some(h_bytes) = input_bytes(pool, &[h]) else { continue };
            if !h_bytes.iter().all(|x| g_bytes.contains(x)) {
                continue;
            }
            let equal = match known.equal.get(&(g, h)) {
                Some(&answer) => {
                    known.reused += 1;
                    answer
                }
                None => {
                    if *asked >= IMPLICATIONS_PER_CHECK || backend.stop_requested() {
                        break;
                    }
                    *asked += 1;
                    let differ = pool.xor(g, h);
                    let proved = matches!(backend.check_budgeted(pool, path, differ, IMPLICATION_BUDGET), Feasibility::Unsat);
                    if proved || !backend.stop_requested() {
                        known.equal.insert((g, h), proved);
                    }
                    proved
                }
            };
            if equal {
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

#[cfg(test)]
mod tests {
    use super::super::test_support::Z3Referee;
    use super::*;
    use crate::expr::CmpOp;

    /// A quantizer's element in miniature: byte `c[k]`, its zero-bin test
    /// `6 <u c[k]`, and its value `3 * c[k]` (8 bits).
    struct Block {
        pool: ExprPool,
        c: Vec<ExprId>,
        zero: ExprId,
    }

    impl Block {
        fn new(n: u32) -> Block {
            let mut pool = ExprPool::new();
            let arr = pool.new_array("c", n);
            let c = (0..n).map(|k| pool.input_byte(arr, k)).collect();
            let zero = pool.constant(8, 0);
            Block { pool, c, zero }
        }
        fn outside(&mut self, k: usize) -> ExprId {
            let six = self.pool.constant(8, 6);
            self.pool.cmp(CmpOp::Ult, six, self.c[k])
        }
        fn value(&mut self, k: usize) -> ExprId {
            let three = self.pool.constant(8, 3);
            self.pool.mul(self.c[k], three)
        }
        /// The C reference's element `k`: quantized only when some
        /// coefficient at or after it is outside the zero bin (the backward
        /// scan), and then only when it is itself.
        fn scanned(&mut self, k: usize) -> (ExprId, ExprId) {
            let mut scan = self.outside(k);
            for j in k + 1..self.c.len() {
                let later = self.outside(j);
                scan = self.pool.or(scan, later);
            }
            let own = self.own(k);
            (self.pool.ite(scan, own, self.zero), own)
        }
        /// The SIMD lane `k`: its own test only.
        fn own(&mut self, k: usize) -> ExprId {
            let (h, y) = (self.outside(k), self.value(k));
            self.pool.ite(h, y, self.zero)
        }
    }

    #[test]
    fn a_guard_the_element_test_implies_is_dropped() {
        let mut b = Block::new(4);
        let (scanned, own) = b.scanned(1);
        let (mut z3, mut asked, mut known) = (Z3Referee::default(), 0, GuardAnswers::default());
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[], &[scanned, own], &mut asked, &mut known);
        assert_eq!(out, vec![own, own]);
        assert_eq!((asked, z3.asked), (1, 1));
    }

    #[test]
    fn a_guard_the_element_test_does_not_imply_is_kept() {
        let mut b = Block::new(4);
        let own = b.own(1);
        // Guarded by a later coefficient alone: not implied by `6 <u c[1]`.
        let later = b.outside(2);
        let guarded = b.pool.ite(later, own, b.zero);
        let (mut z3, mut asked, mut known) = (Z3Referee::default(), 0, GuardAnswers::default());
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[], &[guarded], &mut asked, &mut known);
        assert_eq!(out, vec![guarded]);
        // On a path where c[2] is outside the zero bin whenever c[1] is,
        // it is implied.
        let (h1, h2) = (b.outside(1), b.outside(2));
        let not_h1 = b.pool.not(h1);
        let ties = b.pool.or(not_h1, h2);
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[ties], &[guarded], &mut asked, &mut known);
        assert_eq!(out, vec![own]);
    }

    /// The elements of one output ask about the same guards: an answer on
    /// the same path is not asked again, and none is kept across paths.
    #[test]
    fn guard_answers_are_reused_on_their_path_only() {
        let mut b = Block::new(3);
        let (mut z3, mut known) = (Z3Referee::default(), GuardAnswers::default());
        let (scanned, own) = b.scanned(0);
        let mut asked = 0;
        drop_implied_guards(&mut b.pool, &mut z3, &[], &[scanned, own], &mut asked, &mut known);
        let first = z3.asked;
        // The same element again (a twin check on the same path).
        let mut asked = 0;
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[], &[scanned, own], &mut asked, &mut known);
        assert_eq!((out, asked, z3.asked, known.reused), (vec![own, own], 0, first, 1));
        // Another path: asked afresh.
        let (c2, z) = (b.c[2], b.zero);
        let is_zero = b.pool.eq(c2, z);
        let nonzero = b.pool.not(is_zero);
        let mut asked = 0;
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[nonzero], &[scanned, own], &mut asked, &mut known);
        assert_eq!((out, asked, z3.asked), (vec![own, own], 1, first + 1));
    }

    /// The last coefficient's guard reads every coefficient but equals its
    /// own test on the path; once replaced, the check reads one element.
    #[test]
    fn a_wide_condition_equal_to_a_narrow_one_on_the_path_is_replaced() {
        let mut b = Block::new(3);
        let own = b.own(0);
        let (h0, h1, h2) = (b.outside(0), b.outside(1), b.outside(2));
        let any = b.pool.or(h1, h2);
        let wide_guard = b.pool.or(h0, any);
        let y = b.value(0);
        let wide = b.pool.ite(wide_guard, y, b.zero);
        // Without a path that rules out the later coefficients, the
        // conditions differ and nothing is replaced.
        let (mut z3, mut asked, mut known) = (Z3Referee::default(), 0, GuardAnswers::default());
        assert_eq!(match_wide_conditions(&mut b.pool, &mut z3, &[], wide, own, &mut asked, &mut known), wide);
        let (not1, not2) = (b.pool.not(h1), b.pool.not(h2));
        let path = [not1, not2];
        assert_eq!(match_wide_conditions(&mut b.pool, &mut z3, &path, wide, own, &mut asked, &mut known), own);
        // Asked once more on the same path, the answer is kept.
        let before = z3.asked;
        assert_eq!(match_wide_conditions(&mut b.pool, &mut z3, &path, wide, own, &mut asked, &mut known), own);
        assert_eq!(z3.asked, before);
    }

    #[test]
    fn no_question_is_asked_past_the_limit_of_a_check() {
        let mut b = Block::new(4);
        let (scanned, own) = b.scanned(1);
        let (mut z3, mut known) = (Z3Referee::default(), GuardAnswers::default());
        let mut asked = IMPLICATIONS_PER_CHECK;
        let out = drop_implied_guards(&mut b.pool, &mut z3, &[], &[scanned, own], &mut asked, &mut known);
        assert_eq!((out, z3.asked), (vec![scanned, own], 0));
    }

    #[test]
    fn two_bytes_are_decided_on_every_value() {
        let mut b = Block::new(2);
        let (c0, c1) = (b.c[0], b.c[1]);
        // c0 + c1 against c1 + c0 written with a subtraction of the negation.
        let sum = b.pool.add(c0, c1);
        let neg = b.pool.sub(b.zero, c1);
        let other = b.pool.sub(c0, neg);
        assert!(matches!(decide_exhaustively(&b.pool, &[], sum, other), Some(Exhaustive::Equal)));
        // Off by one where c0 == 7: the witness shows it.
        let seven = b.pool.constant(8, 7);
        let is7 = b.pool.eq(c0, seven);
        let one = b.pool.constant(8, 1);
        let bumped = b.pool.add(sum, one);
        let broken = b.pool.ite(is7, bumped, sum);
        let Some(Exhaustive::Differ(w)) = decide_exhaustively(&b.pool, &[], sum, broken) else { panic!("a difference") };
        assert_eq!(evaluate(&b.pool, c0, &w), 7);
        // A path that excludes c0 == 7 makes them equal.
        let not7 = b.pool.not(is7);
        assert!(matches!(decide_exhaustively(&b.pool, &[not7], sum, broken), Some(Exhaustive::Equal)));
        // Three bytes are too many.
        let mut b3 = Block::new(3);
        let (x, y, z) = (b3.c[0], b3.c[1], b3.c[2]);
        let xy = b3.pool.add(x, y);
        let xyz = b3.pool.add(xy, z);
        assert!(decide_exhaustively(&b3.pool, &[], xyz, xy).is_none());
    }

    /// A difference only on inputs another path constraint (over other
    /// bytes) excludes is no witness: the step leaves it to the solver.
    #[test]
    fn a_difference_the_whole_path_excludes_is_no_witness() {
        let mut b = Block::new(3);
        let (c0, c1, c2) = (b.c[0], b.c[1], b.c[2]);
        let seven = b.pool.constant(8, 7);
        let is7 = b.pool.eq(c0, seven);
        let one = b.pool.constant(8, 1);
        let sum = b.pool.add(c0, c1);
        let bumped = b.pool.add(sum, one);
        let broken = b.pool.ite(is7, bumped, sum);
        // c2 == c0 + 1 is a constraint over a byte the sides do not read,
        // and with c2 = 0 (the bytes the step does not set) it fails.
        let c0p1 = b.pool.add(c0, one);
        let tie = b.pool.eq(c2, c0p1);
        assert!(decide_exhaustively(&b.pool, &[tie], sum, broken).is_none());
    }
}
