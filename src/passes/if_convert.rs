//! Static path merging by if-conversion (KLEE-CL's aggressive phi-node
//! folding, papers/klee-cl.txt section 5). A scalar reference that branches
//! per element forks 2^n paths; folding each small `if` into `select`s
//! leaves one.
//!
//! Shapes folded, with `A` ending in `condbr c, X, Y`:
//! - diamond: `A -> T -> J`, `A -> F -> J`;
//! - triangle: `A -> T -> J` and `A -> J` (either edge of `A` may be the
//!   direct one).
//!
//! Conditions: each side block has `A` as its only predecessor, no phi
//! nodes, and only instructions that may run unconditionally
//! (speculation.rs, load_safety.rs); `J`'s predecessors are exactly the
//! region's; every phi of `J` has one value per region edge and no other;
//! the sides hold at most `threshold` instructions together.
//!
//! Folding moves the side instructions to the end of `A` (then side first),
//! turns each phi of `J` into `select c, <then-edge value>, <else-edge
//! value>` located at `A`'s branch, and merges `J` into `A`. The emptied
//! blocks stay in the function, unreachable, so block ids never change.
//! Regions are folded until none is left, so a folded inner `if` makes its
//! enclosing one foldable (nested) and a folded `if` exposes the next one
//! after it (chained).

use super::cfg::Cfg;
use super::load_safety::{Defs, LoadCtx};
use super::speculation::is_speculatable;
use crate::ir::{BlockId, Function, Global, Inst, InstKind, Module, Operand, Terminator};

/// What the pass did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IfConvertStats {
    /// Diamonds folded (`A -> T -> J`, `A -> F -> J`).
    pub diamonds: u64,
    /// Triangles folded (`A -> T -> J` and `A -> J`).
    pub triangles: u64,
    /// Blocks emptied and left unreachable.
    pub blocks_removed: u64,
}

impl IfConvertStats {
    /// Regions folded (diamonds and triangles).
    pub fn folded(&self) -> u64 {
        self.diamonds + self.triangles
    }
}

/// If-converts every function of `module`; `threshold` bounds the number of
/// speculated instructions per region.
pub fn if_convert(module: &mut Module, threshold: u32) -> IfConvertStats {
    let mut stats = IfConvertStats::default();
    let Module { functions, globals, .. } = module;
    for f in functions.iter_mut().filter(|f| !f.is_declaration()) {
        convert_function(f, globals, threshold, &mut stats);
    }
    stats
}

/// A foldable region: `A`'s branch, its side blocks and the join.
#[derive(Clone, Debug)]
struct Region {
    head: BlockId,
    cond: Operand,
    /// The block on `A`'s then edge, unless that edge goes to `join`.
    then_side: Option<BlockId>,
    /// The block on `A`'s else edge, unless that edge goes to `join`.
    else_side: Option<BlockId>,
    join: BlockId,
}

impl Region {
    fn sides(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.then_side.iter().chain(self.else_side.iter()).copied()
    }
    /// The block the then (else) edge reaches `join` from.
    fn then_pred(&self) -> BlockId {
        self.then_side.unwrap_or(self.head)
    }
    fn else_pred(&self) -> BlockId {
        self.else_side.unwrap_or(self.head)
    }
}

fn convert_function(f: &mut Function, globals: &[Global], threshold: u32, stats: &mut IfConvertStats) {
    // Every fold empties at least two reachable blocks, so this ends.
    loop {
        let cfg = Cfg::new(f);
        let defs = Defs::new(f);
        let mut heads: Vec<BlockId> = (0..f.blocks.len() as u32).map(BlockId).filter(|b| cfg.is_reachable(*b)).collect();
        // Innermost first: later in reverse post-order means deeper.
        heads.sort_by_key(|b| std::cmp::Reverse(cfg.rpo_position(*b)));
        let found = heads.into_iter().find_map(|a| {
            let region = match_region(f, &cfg, a)?;
            let ctx = LoadCtx { globals, func: f, cfg: &cfg, defs: &defs, branch_block: a };
            foldable(f, &ctx, &region, threshold).then_some(region)
        });
        match found {
            Some(region) => fold(f, &region, stats),
            None => return,
        }
    }
}

/// The diamond or triangle headed by `a`, if the graph has that shape.
fn match_region(f: &Function, cfg: &Cfg, a: BlockId) -> Option<Region> {
    let Terminator::CondBr { cond, then, otherwise } = &f.blocks[a.0 as usize].term else { return None };
    let (t, e) = (*then, *otherwise);
    if t == e || t == a || e == a {
        return None;
    }
    let only_from_a = |b: BlockId| cfg.preds(b) == [a] && b.0 != 0;
    let jumps_to = |b: BlockId| match f.blocks[b.0 as usize].term {
        Terminator::Br(j) => Some(j),
        _ => None,
    };
    let preds_are = |j: BlockId, x: BlockId, y: BlockId| {
        let p = cfg.preds(j);
        p.len() == 2 && p.contains(&x) && p.contains(&y) && j != a && j.0 != 0
    };
    let region = |then_side, else_side, join| Region { head: a, cond: cond.clone(), then_side, else_side, join };
    if only_from_a(t) && only_from_a(e) {
        if let (Some(j), Some(k)) = (jumps_to(t), jumps_to(e)) {
            if j == k && j != t && j != e && preds_are(j, t, e) {
                return Some(region(Some(t), Some(e), j));
            }
        }
    }
    if only_from_a(t) && jumps_to(t) == Some(e) && preds_are(e, a, t) {
        return Some(region(Some(t), None, e));
    }
    if only_from_a(e) && jumps_to(e) == Some(t) && preds_are(t, a, e) {
        return Some(region(None, Some(e), t));
    }
    None
}

/// Whether the region may be folded: speculatable sides within the
/// threshold, and phi nodes in the join that map exactly onto its edges.
fn foldable(f: &Function, ctx: &LoadCtx, r: &Region, threshold: u32) -> bool {
    let mut cost: u64 = 0;
    for side in r.sides() {
        for inst in &f.blocks[side.0 as usize].insts {
            let ok = match &inst.kind {
                InstKind::Load { ptr, volatile: false, .. } => ctx.load_is_safe(ptr, &inst.ty),
                kind => is_speculatable(kind, &inst.ty),
            };
            if !ok {
                return false;
            }
            cost += 1;
        }
    }
    if cost > threshold as u64 {
        return false;
    }
    f.blocks[r.join.0 as usize].insts.iter().all(|inst| match &inst.kind {
        InstKind::Phi { incoming } => phi_values(incoming, r).is_some(),
        _ => true,
    })
}

/// The values a phi of the join takes from the then and else edges, if it
/// has exactly those incoming edges (duplicates must agree).
fn phi_values(incoming: &[(BlockId, Operand)], r: &Region) -> Option<(Operand, Operand)> {
    let (tp, ep) = (r.then_pred(), r.else_pred());
    let mut then_v: Option<&Operand> = None;
    let mut else_v: Option<&Operand> = None;
    for (b, v) in incoming {
        let slot = if *b == tp {
            &mut then_v
        } else if *b == ep {
            &mut else_v
        } else {
            return None;
        };
        match slot {
            Some(old) if *old != v => return None,
            _ => *slot = Some(v),
        }
    }
    Some((then_v?.clone(), else_v?.clone()))
}

/// Rewrites the region into straight-line code in `A` (see the module doc).
fn fold(f: &mut Function, r: &Region, stats: &mut IfConvertStats) {
    let head = r.head.0 as usize;
    let branch_loc = f.blocks[head].term_loc;
    let mut moved: Vec<Inst> = Vec::new();
    for side in r.sides() {
        moved.append(&mut f.blocks[side.0 as usize].insts);
    }
    let join = &mut f.blocks[r.join.0 as usize];
    let mut join_insts = std::mem::take(&mut join.insts);
    for inst in join_insts.iter_mut() {
        let InstKind::Phi { incoming } = &inst.kind else { break };
        // `foldable` checked every phi; a failure here is an engine bug.
        let (then_v, else_v) = phi_values(incoming, r).expect("phi checked by foldable");
        inst.kind = InstKind::Select { cond: r.cond.clone(), then: then_v, otherwise: else_v, folded: true };
        inst.loc = branch_loc;
    }
    let join_term = std::mem::replace(&mut join.term, Terminator::Unreachable);
    let join_loc = join.term_loc;
    let a = &mut f.blocks[head];
    a.insts.append(&mut moved);
    a.insts.append(&mut join_insts);
    a.term = join_term;
    a.term_loc = join_loc;
    for side in r.sides() {
        f.blocks[side.0 as usize].term = Terminator::Unreachable;
    }
    // The join's successors now come from `A`.
    for s in super::cfg::successors(&f.blocks[head].term) {
        for inst in f.blocks[s.0 as usize].insts.iter_mut() {
            let InstKind::Phi { incoming } = &mut inst.kind else { break };
            for (b, _) in incoming.iter_mut() {
                if *b == r.join {
                    *b = r.head;
                }
            }
        }
    }
    let sides = r.sides().count() as u64;
    stats.blocks_removed += sides + 1;
    if sides == 2 {
        stats.diamonds += 1;
    } else {
        stats.triangles += 1;
    }
}
