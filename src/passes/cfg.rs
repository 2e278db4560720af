//! The control-flow graph of one function: successors, predecessors,
//! reachability and dominators. Built fresh whenever a pass changes the
//! graph; functions are small enough that incremental updates would cost
//! more in correctness risk than they save in time.

use crate::ir::{BlockId, Function, Terminator};

/// Successor blocks of a terminator, in order, duplicates kept (a switch
/// may reach one block through several cases).
pub fn successors(term: &Terminator) -> Vec<BlockId> {
    match term {
        Terminator::Br(b) => vec![*b],
        Terminator::CondBr { then, otherwise, .. } => vec![*then, *otherwise],
        Terminator::Switch { default, cases, .. } => {
            let mut out = vec![*default];
            out.extend(cases.iter().map(|(_, b)| *b));
            out
        }
        Terminator::Ret(_) | Terminator::Unreachable | Terminator::Unsupported(_) => Vec::new(),
    }
}

/// The control-flow graph of a function, with dominators.
pub struct Cfg {
    /// Distinct successors of each block.
    pub succs: Vec<Vec<BlockId>>,
    /// Distinct predecessors of each block, from every block (reachable
    /// or not): an edge from dead code still constrains a phi node.
    pub preds: Vec<Vec<BlockId>>,
    /// Reachable from the entry block.
    pub reachable: Vec<bool>,
    /// Immediate dominator of each reachable block (the entry's is itself);
    /// `None` for unreachable blocks.
    idom: Vec<Option<usize>>,
    /// Position of each block in reverse post-order (reachable ones only).
    rpo_index: Vec<usize>,
}

impl Cfg {
    /// The graph of `f`'s blocks.
    pub fn new(f: &Function) -> Cfg {
        let n = f.blocks.len();
        let mut succs: Vec<Vec<BlockId>> = Vec::with_capacity(n);
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); n];
        for (i, b) in f.blocks.iter().enumerate() {
            let mut s = successors(&b.term);
            s.retain(|t| (t.0 as usize) < n);
            let mut distinct: Vec<BlockId> = Vec::with_capacity(s.len());
            for t in s {
                if !distinct.contains(&t) {
                    distinct.push(t);
                }
            }
            for t in &distinct {
                preds[t.0 as usize].push(BlockId(i as u32));
            }
            succs.push(distinct);
        }
        let rpo = reverse_post_order(&succs);
        let mut rpo_index = vec![usize::MAX; n];
        for (k, b) in rpo.iter().enumerate() {
            rpo_index[*b] = k;
        }
        let reachable: Vec<bool> = rpo_index.iter().map(|k| *k != usize::MAX).collect();
        let idom = immediate_dominators(&rpo, &rpo_index, &preds);
        Cfg { succs, preds, reachable, idom, rpo_index }
    }

    /// The distinct predecessors of `b`.
    pub fn preds(&self, b: BlockId) -> &[BlockId] {
        &self.preds[b.0 as usize]
    }

    /// Whether `b` is reachable from the entry block.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.reachable.get(b.0 as usize).copied().unwrap_or(false)
    }

    /// Whether `a` dominates `b` (every block dominates itself). False when
    /// either is unreachable.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (a, mut b) = (a.0 as usize, b.0 as usize);
        if !self.reachable[a] || !self.reachable[b] {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.idom[b] {
                Some(up) if up != b => b = up,
                _ => return false,
            }
        }
    }

    /// The blocks dominating `b`, from `b` itself up to the entry.
    pub fn dominators(&self, b: BlockId) -> Vec<BlockId> {
        let mut out = Vec::new();
        let mut cur = b.0 as usize;
        if !self.reachable[cur] {
            return out;
        }
        loop {
            out.push(BlockId(cur as u32));
            match self.idom[cur] {
                Some(up) if up != cur => cur = up,
                _ => return out,
            }
        }
    }

    /// Blocks that can run after `from` and before `to` on a path that
    /// does not pass through `from` again: reachable forward from `from`'s
    /// successors and backward from `to`, both avoiding `from`. `to` is
    /// included when such a path exists.
    pub fn blocks_between(&self, from: BlockId, to: BlockId) -> Vec<BlockId> {
        let forward = self.flood(&self.succs[from.0 as usize], &self.succs, from);
        let backward = self.flood(&[to], &self.preds, from);
        (0..self.succs.len()).filter(|&i| forward[i] && backward[i]).map(|i| BlockId(i as u32)).collect()
    }

    /// Blocks reachable from `start` (included) along `edges`, never
    /// entering `avoid`.
    fn flood(&self, start: &[BlockId], edges: &[Vec<BlockId>], avoid: BlockId) -> Vec<bool> {
        let mut seen = vec![false; edges.len()];
        let mut stack: Vec<BlockId> = start.to_vec();
        while let Some(b) = stack.pop() {
            let i = b.0 as usize;
            if b == avoid || seen[i] {
                continue;
            }
            seen[i] = true;
            stack.extend(edges[i].iter().copied());
        }
        seen
    }

    /// Reverse post-order position (smaller runs earlier); None if dead.
    pub fn rpo_position(&self, b: BlockId) -> Option<usize> {
        let k = self.rpo_index[b.0 as usize];
        (k != usize::MAX).then_some(k)
    }
}

fn reverse_post_order(succs: &[Vec<BlockId>]) -> Vec<usize> {
    let n = succs.len();
    if n == 0 {
        return Vec::new();
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Iterative DFS: (block, index of the next successor to visit).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    visited[0] = true;
    while let Some(top) = stack.last_mut() {
        let (b, k) = *top;
        if k < succs[b].len() {
            top.1 += 1;
            let s = succs[b][k].0 as usize;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order.
fn immediate_dominators(rpo: &[usize], rpo_index: &[usize], preds: &[Vec<BlockId>]) -> Vec<Option<usize>> {
    let n = rpo_index.len();
    let mut idom: Vec<Option<usize>> = vec![None; n];
    let Some(&entry) = rpo.first() else { return idom };
    idom[entry] = Some(entry);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<usize> = None;
            for p in &preds[b] {
                let p = p.0 as usize;
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(cur) => intersect(&idom, rpo_index, p, cur),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[Option<usize>], rpo_index: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rpo_index[a] > rpo_index[b] {
            a = idom[a].unwrap_or(a);
        }
        while rpo_index[b] > rpo_index[a] {
            b = idom[b].unwrap_or(b);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Loc, Operand, Type};

    fn block(term: Terminator) -> Block {
        Block { name: String::new(), insts: Vec::new(), term, term_loc: Loc::default() }
    }

    fn func(blocks: Vec<Block>) -> Function {
        Function {
            name: "f".into(),
            params: Vec::new(),
            ret: Type::Void,
            varargs: false,
            blocks,
            num_regs: 0,
            reg_types: Vec::new(),
            reg_names: Vec::new(),
            loc: Loc::default(),
            is_kernel: false,
        }
    }

    fn cond(t: u32, e: u32) -> Terminator {
        Terminator::CondBr { cond: Operand::Const(crate::ir::Const::Int { width: 1, value: 1 }), then: BlockId(t), otherwise: BlockId(e) }
    }

    #[test]
    fn dominators_of_a_diamond_in_a_loop() {
        // 0 -> 1 (loop head) -> 2 | 3 -> 4 -> 1 or 5; 6 is dead.
        let f = func(vec![
            block(Terminator::Br(BlockId(1))),
            block(cond(2, 3)),
            block(Terminator::Br(BlockId(4))),
            block(Terminator::Br(BlockId(4))),
            block(cond(1, 5)),
            block(Terminator::Ret(None)),
            block(Terminator::Br(BlockId(4))),
        ]);
        let cfg = Cfg::new(&f);
        let b = BlockId;
        assert!(cfg.dominates(b(1), b(4)));
        assert!(!cfg.dominates(b(2), b(4)));
        assert!(cfg.dominates(b(4), b(5)));
        assert!(!cfg.is_reachable(b(6)));
        assert!(!cfg.dominates(b(6), b(4)));
        assert_eq!(cfg.dominators(b(5)), vec![b(5), b(4), b(1), b(0)]);
        // Dead blocks still count as predecessors (their phi entries exist).
        assert_eq!(cfg.preds(b(4)).len(), 3);
        // From the loop head back to the latch: the sides and the latch,
        // never the head itself.
        let mut between = cfg.blocks_between(b(1), b(4));
        between.sort();
        assert_eq!(between, vec![b(2), b(3), b(4)]);
        // From a side to the latch of a later iteration: round the loop.
        let mut round = cfg.blocks_between(b(2), b(4));
        round.sort();
        assert_eq!(round, vec![b(1), b(3), b(4)]);
    }
}
