//! Lane symmetry: when every element of a comparison computes the same
//! formula on its own inputs (the lanes of a vector, the pixels of an
//! image), the proof of one element is reused for the others by renaming.
//!
//! The reuse is checked, never assumed. A proved element (`got0`, `want0`)
//! on path `P` is a template; a later element (`got`, `want`) reuses it
//! when a renaming `s` of input leaves (symbolic input bytes, fresh values)
//! maps the template's pair node for node onto the element's pair, `s` is
//! one-to-one, and the swap `t` that exchanges each moved leaf with its
//! image (an involution: moved leaves and images are disjoint) maps every
//! conjunct of `P` that reads a moved leaf onto a conjunct of `P`. Then
//! `t(P) = P` as a set, so `P /\ got != want` is `t(P /\ got0 != want0)`,
//! a renaming of an unsatisfiable formula: unsatisfiable too. A later path
//! only adds conjuncts, which cannot make it satisfiable. Leaves are free
//! symbolic values with no meaning but their name (the assumptions of a run
//! restrict operations, not names), so renaming them preserves every
//! answer of every ladder step.

use crate::expr::{Expr, ExprId, ExprPool, Leaf};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most templates kept per comparison: an interleaved layout (RGBA) has a
/// few element shapes, each repeating.
const MAX_TEMPLATES: usize = 4;

/// Most node pairs one renaming walk visits before it gives up (the element
/// then goes through the ladder as usual): a count, so the route a check
/// takes does not depend on the machine.
const MAX_VISITED_PAIRS: usize = 200_000;

/// A proved element: its two sides and the path it was proved on.
struct Template {
    got: ExprId,
    want: ExprId,
    path: Vec<ExprId>,
}

/// The proved elements of one comparison, and the reuse of their proofs.
#[derive(Default)]
pub struct LaneSymmetry {
    templates: Vec<Template>,
    /// Elements decided by reuse (for tests and the log).
    pub reused: u64,
}

impl LaneSymmetry {
    /// Keeps a proved element as a template for the ones after it.
    pub fn learn(&mut self, got: ExprId, want: ExprId, path: &[ExprId]) {
        if self.templates.len() < MAX_TEMPLATES {
            self.templates.push(Template { got, want, path: path.to_vec() });
        }
    }

    /// Whether `got == want` on `path` follows from a template's proof by
    /// a checked renaming of input leaves.
    pub fn proved_by_renaming(&mut self, pool: &ExprPool, path: &[ExprId], got: ExprId, want: ExprId) -> bool {
        let found = self.templates.iter().any(|t| {
            // The template's path must be a prefix of this one: a longer
            // path only has more conjuncts.
            path.starts_with(&t.path) && renames_to(pool, (t.got, t.want), (got, want), &t.path)
        });
        if found {
            self.reused += 1;
        }
        found
    }
}

/// Whether a checked renaming maps the proved pair `template` onto `pair`
/// and fixes `path` as a set of conjuncts (module comment).
pub fn renames_to(pool: &ExprPool, template: (ExprId, ExprId), pair: (ExprId, ExprId), path: &[ExprId]) -> bool {
    let mut renaming = Renaming::default();
    if !walk(pool, &[(template.0, pair.0), (template.1, pair.1)], |from, to| renaming.bind(from, to)) {
        return false;
    }
    let Some(swap) = renaming.into_swap() else { return false };
    if swap.is_empty() {
        return true;
    }
    // Only conjuncts that read a moved leaf change under the swap; each
    // must land on a conjunct of the path.
    let moved: Vec<ExprId> = path
        .iter()
        .copied()
        .filter(|c| {
            let mut leaves = FxHashSet::default();
            pool.leaves_of(*c, &mut leaves);
            // A read of an input at a symbolic position may see any of
            // its bytes the swap moves.
            let moved_input = |a: u32| swap.keys().any(|k| matches!(k, Leaf::Input { array, .. } if *array == a));
            leaves.iter().any(|l| swap.contains_key(l) || matches!(l, Leaf::Array { array } if moved_input(*array)))
        })
        .collect();
    moved.iter().all(|c| moved.iter().any(|d| walk(pool, &[(*c, *d)], |from, to| swap.get(&from).copied().unwrap_or(from) == to)))
}

/// A one-to-one map of leaves, built while walking two expressions.
#[derive(Default)]
struct Renaming {
    forward: FxHashMap<Leaf, Leaf>,
    backward: FxHashMap<Leaf, Leaf>,
}

impl Renaming {
    /// Maps `from` to `to`; false when that breaks the map's consistency
    /// or injectivity, or mixes an input byte with a fresh value.
    fn bind(&mut self, from: Leaf, to: Leaf) -> bool {
        let same_kind = match (from, to) {
            (Leaf::Input { .. }, Leaf::Input { .. }) => true,
            (Leaf::Fresh { width: a, .. }, Leaf::Fresh { width: b, .. }) => a == b,
            _ => false,
        };
        if !same_kind {
            return false;
        }
        match (self.forward.get(&from), self.backward.get(&to)) {
            (Some(t), _) if *t != to => false,
            (_, Some(f)) if *f != from => false,
            _ => {
                self.forward.insert(from, to);
                self.backward.insert(to, from);
                true
            }
        }
    }

    /// The involution exchanging every moved leaf with its image (both
    /// directions in one map), or `None` when a moved leaf is also an image
    /// (a chain or cycle, which no single swap realises).
    fn into_swap(self) -> Option<FxHashMap<Leaf, Leaf>> {
        let mut swap = FxHashMap::default();
        for (from, to) in self.forward {
            if from == to {
                continue;
            }
            if swap.contains_key(&from) || swap.contains_key(&to) {
                return None;
            }
            swap.insert(from, to);
            swap.insert(to, from);
        }
        Some(swap)
    }
}

/// Walks pairs of expressions node for node: the same operation with the
/// same parameters at every node, equal constants, and leaves accepted by
/// `leaf`. False at the first difference or past the visit budget.
fn walk(pool: &ExprPool, roots: &[(ExprId, ExprId)], mut leaf: impl FnMut(Leaf, Leaf) -> bool) -> bool {
    let mut shapes = Shapes::default();
    let mut seen: FxHashSet<(ExprId, ExprId)> = FxHashSet::default();
    let mut stack: Vec<(ExprId, ExprId)> = roots.to_vec();
    while let Some((x, y)) = stack.pop() {
        if !seen.insert((x, y)) {
            continue;
        }
        if seen.len() > MAX_VISITED_PAIRS {
            return false;
        }
        let (ex, ey) = (pool.get(x), pool.get(y));
        match (&*ex, &*ey) {
            (Expr::Const { .. }, _) | (_, Expr::Const { .. }) => {
                if x != y {
                    return false;
                }
            }
            (Expr::Input { array: a, index: i }, Expr::Input { array: b, index: j }) => {
                if !leaf(Leaf::Input { array: *a, index: *i }, Leaf::Input { array: *b, index: *j }) {
                    return false;
                }
            }
            (Expr::Fresh { id: a, width: v }, Expr::Fresh { id: b, width: w }) => {
                if !leaf(Leaf::Fresh { id: *a, width: *v }, Leaf::Fresh { id: *b, width: *w }) {
                    return false;
                }
            }
            (a, b) if same_operation(a, b) => {
                let (mut cx, mut cy) = (pool.children(x), pool.children(y));
                if cx.len() != cy.len() {
                    return false;
                }
                // The builders order a commutative operation's operands by
                // node number, which differs from lane to lane: pair them
                // by shape instead (a tie keeps the order as built).
                if commutative(a) {
                    for c in [&mut cx, &mut cy] {
                        if shapes.of(pool, c[1]) < shapes.of(pool, c[0]) {
                            c.swap(0, 1);
                        }
                    }
                }
                stack.extend(cx.into_iter().zip(cy));
            }
            _ => return false,
        }
    }
    true
}

/// Integer operations whose operands the builders may swap.
fn commutative(e: &Expr) -> bool {
    use crate::expr::BinOp::*;
    matches!(e, Expr::Bin(Add | Mul | And | Or | Xor, ..))
}

/// A hash of each node's shape that no renaming of leaves changes: the
/// operations and constants below it, leaves by kind and width only, the
/// operands of a commutative operation in either order.
#[derive(Default)]
struct Shapes {
    memo: FxHashMap<ExprId, u64>,
}

impl Shapes {
    fn of(&mut self, pool: &ExprPool, root: ExprId) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.memo.contains_key(&id) {
                continue;
            }
            let children = pool.children(id);
            if !expanded {
                stack.push((id, true));
                stack.extend(children.iter().filter(|c| !self.memo.contains_key(c)).map(|c| (*c, false)));
                continue;
            }
            let node = pool.get(id);
            let mut h = rustc_hash::FxHasher::default();
            operation_key(&node, &mut h);
            let mut below: Vec<u64> = children.iter().map(|c| self.memo[c]).collect();
            if commutative(&node) {
                below.sort_unstable();
            }
            below.hash(&mut h);
            self.memo.insert(id, h.finish());
        }
        self.memo[&root]
    }
}

/// Hashes what [`same_operation`] compares (and a leaf's kind and width,
/// a constant's value).
fn operation_key(e: &Expr, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    use Expr::*;
    std::mem::discriminant(e).hash(h);
    match e {
        Const { width, value } => (width, value).hash(h),
        Fresh { width, .. } => width.hash(h),
        Input { .. } | Not(_) | Ite(..) | Concat(..) => {}
        Bin(o, ..) => o.hash(h),
        Cmp(o, ..) => o.hash(h),
        Extract { offset, width, .. } => (offset, width).hash(h),
        ZExt(_, w) | SExt(_, w) => w.hash(h),
        FBin(o, f, ..) => (o, f).hash(h),
        FUn(o, f, _) => (o, f).hash(h),
        Fma(f, ..) => f.hash(h),
        FCmp(o, f, ..) => (o, f).hash(h),
        FpToInt { signed, rounding, from, width, .. } => (signed, rounding, from, width).hash(h),
        IntToFp { signed, to, .. } => (signed, to).hash(h),
        FpConvert { from, to, .. } => (from, to).hash(h),
        Apply(app) => (&app.function, app.width).hash(h),
        // Never the same operation as another (`same_operation`).
        LogRead(r) => (std::rc::Rc::as_ptr(&r.newest) as usize).hash(h),
        InputAt { array, .. } => array.hash(h),
    }
}

/// Whether two nodes apply the same operation with the same parameters
/// (everything but their children).
fn same_operation(a: &Expr, b: &Expr) -> bool {
    use Expr::*;
    match (a, b) {
        (Bin(o, ..), Bin(p, ..)) => o == p,
        (Not(_), Not(_)) | (Ite(..), Ite(..)) | (Concat(..), Concat(..)) => true,
        (Cmp(o, ..), Cmp(p, ..)) => o == p,
        (Extract { offset: o, width: w, .. }, Extract { offset: p, width: v, .. }) => o == p && w == v,
        (ZExt(_, w), ZExt(_, v)) | (SExt(_, w), SExt(_, v)) => w == v,
        (FBin(o, f, ..), FBin(p, g, ..)) => o == p && f == g,
        (FUn(o, f, _), FUn(p, g, _)) => o == p && f == g,
        (Fma(f, ..), Fma(g, ..)) => f == g,
        (FCmp(o, f, ..), FCmp(p, g, ..)) => o == p && f == g,
        (FpToInt { signed: s, rounding: r, from: f, width: w, .. }, FpToInt { signed: t, rounding: q, from: g, width: v, .. }) => {
            s == t && r == q && f == g && w == v
        }
        (IntToFp { signed: s, to: f, .. }, IntToFp { signed: t, to: g, .. }) => s == t && f == g,
        (FpConvert { from: f, to: t, .. }, FpConvert { from: g, to: u, .. }) => f == g && t == u,
        (Apply(x), Apply(y)) => x.function == y.function && x.width == y.width && x.args.len() == y.args.len(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::BinOp;

    /// `x[i] * y[i] + 1` for one lane.
    fn lane(p: &mut ExprPool, x: u32, y: u32, i: u32) -> ExprId {
        let (a, b) = (p.input_word(x, i, 8), p.input_word(y, i, 8));
        let m = p.bin(BinOp::Mul, a, b);
        let one = p.constant(8, 1);
        p.bin(BinOp::Add, m, one)
    }

    #[test]
    fn a_lane_renames_to_another_of_the_same_formula() {
        let mut p = ExprPool::new();
        let (x, y) = (p.new_array("x", 4), p.new_array("y", 4));
        let (g0, g3) = (lane(&mut p, x, y, 0), lane(&mut p, x, y, 3));
        let (w0, w3) = (lane(&mut p, y, x, 0), lane(&mut p, y, x, 3));
        assert!(renames_to(&p, (g0, w0), (g3, w3), &[]));
        // A lane that reads the other lane's inputs crosswise is no renaming.
        let g_cross = {
            let (a, b) = (p.input_word(x, 3, 8), p.input_word(y, 2, 8));
            let m = p.bin(BinOp::Mul, a, b);
            let one = p.constant(8, 1);
            p.bin(BinOp::Add, m, one)
        };
        assert!(!renames_to(&p, (g0, w0), (g_cross, w3), &[]));
    }

    #[test]
    fn commutative_operands_built_in_another_order_still_match() {
        let mut p = ExprPool::new();
        let (x, y) = (p.new_array("x", 4), p.new_array("y", 4));
        // y[0] is built before x[0]'s difference, x[1]'s difference before
        // y[1]: the builder orders the products' operands differently.
        let y0 = p.input_word(y, 0, 8);
        let (x0, x1) = (p.input_word(x, 0, 8), p.input_word(x, 1, 8));
        let k = p.constant(8, 255);
        let d0 = p.bin(BinOp::Sub, k, x0);
        let d1 = p.bin(BinOp::Sub, k, x1);
        let y1 = p.input_word(y, 1, 8);
        let (g0, g1) = (p.bin(BinOp::Mul, d0, y0), p.bin(BinOp::Mul, d1, y1));
        assert_ne!(p.children(g0)[0] == d0, p.children(g1)[0] == d1, "the test needs the two orders");
        assert!(renames_to(&p, (g0, g0), (g1, g1), &[]));
    }

    #[test]
    fn a_different_constant_breaks_the_renaming() {
        let mut p = ExprPool::new();
        let (x, y) = (p.new_array("x", 4), p.new_array("y", 4));
        let g0 = lane(&mut p, x, y, 0);
        let w0 = g0;
        let g1 = lane(&mut p, x, y, 1);
        let w1 = {
            let (a, b) = (p.input_word(x, 1, 8), p.input_word(y, 1, 8));
            let m = p.bin(BinOp::Mul, a, b);
            let two = p.constant(8, 2);
            p.bin(BinOp::Add, m, two)
        };
        assert!(!renames_to(&p, (g0, w0), (g1, w1), &[]));
    }

    #[test]
    fn the_path_must_be_fixed_by_the_swap() {
        let mut p = ExprPool::new();
        let (x, y) = (p.new_array("x", 4), p.new_array("y", 4));
        let (g0, g1) = (lane(&mut p, x, y, 0), lane(&mut p, x, y, 1));
        let (w0, w1) = (lane(&mut p, y, x, 0), lane(&mut p, y, x, 1));
        let small = p.constant(8, 10);
        let x0 = p.input_word(x, 0, 8);
        let x1 = p.input_word(x, 1, 8);
        let c0 = p.cmp(crate::expr::CmpOp::Ult, x0, small);
        let c1 = p.cmp(crate::expr::CmpOp::Ult, x1, small);
        // Lane 0 proved under x[0] < 10 says nothing of lane 1 unless the
        // path also holds x[1] < 10.
        assert!(!renames_to(&p, (g0, w0), (g1, w1), &[c0]));
        assert!(renames_to(&p, (g0, w0), (g1, w1), &[c0, c1]));
        // A conjunct on neither lane stays as it is.
        let x2 = p.input_word(x, 2, 8);
        let c2 = p.cmp(crate::expr::CmpOp::Ult, x2, small);
        assert!(renames_to(&p, (g0, w0), (g1, w1), &[c2]));
    }

    #[test]
    fn a_template_proved_on_a_longer_path_is_not_reused() {
        let mut p = ExprPool::new();
        let (x, y) = (p.new_array("x", 4), p.new_array("y", 4));
        let (g0, g1) = (lane(&mut p, x, y, 0), lane(&mut p, x, y, 1));
        let (w0, w1) = (lane(&mut p, y, x, 0), lane(&mut p, y, x, 1));
        let x2 = p.input_word(x, 2, 8);
        let small = p.constant(8, 10);
        let c2 = p.cmp(crate::expr::CmpOp::Ult, x2, small);
        let mut lanes = LaneSymmetry::default();
        lanes.learn(g0, w0, &[c2]);
        assert!(!lanes.proved_by_renaming(&p, &[], g1, w1));
        assert!(lanes.proved_by_renaming(&p, &[c2], g1, w1));
        assert_eq!(lanes.reused, 1);
    }
}
