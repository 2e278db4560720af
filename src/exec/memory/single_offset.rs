//! Whether a symbolic offset into a large object has one possible value,
//! so that the access is made at that number instead of at every place
//! the offset may reach. This is only a shortcut: an offset left symbolic
//! is accessed exactly (through the object's store log or selects), just
//! at a higher cost, so every test here that gives up answers "not shown
//! single-valued" and never concretises.
//!
//! First without the solver: the path's model with one input of the
//! offset changed still satisfies the path and gives another offset (an
//! index read from data the path says nothing about; asking the solver at
//! every such access cost most of a histogram's run). The inputs changed
//! are those the offset's value was read from under the model: of each
//! select only the branch the model takes, so an index read from a large
//! buffer at a symbolic place changes the byte the model reads, not the
//! buffer's first bytes. Then the solver, within a work budget in its own
//! units and without the second solver of the portfolio: over a 64 KiB
//! buffer the question is 100,000 nodes, which Bitwuzla was sent as 16 MB
//! of SMT-LIB text and answered "unknown" after half a minute.

use super::mem_ops::SYMBOLIC_OFFSET_PROBE;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{evaluate, evaluate_node, Assignment, Expr, ExprId, ExprPool, Leaf};
use crate::memory::Access;
use rustc_hash::FxHashMap;

/// Paths longer than this (constraints) are not evaluated again for each
/// changed input: evaluating a long path a few times costs more than the
/// query.
const SECOND_VALUE_PATH_LIMIT: usize = 4096;

/// How many of the inputs an offset's value was read from are changed,
/// one at a time, before the solver is asked.
const CHANGED_INPUTS: usize = 16;

/// The solver's work budget (Z3 `rlimit` units) for "can the offset take
/// another value": a count, so the answer does not depend on the load.
const PROBE_QUERY_UNITS: u32 = 2_000_000;

impl<'m> Executor<'m> {
    /// The offset as a number when it has only one possible value on this
    /// path; None when that is not shown (module comment).
    pub(super) fn concrete_offset(&mut self, state: &mut State, access: &Access) -> Option<u64> {
        if let Some(v) = self.cx.pool.as_const(access.offset) {
            return Some(v as u64);
        }
        let size = state.memory.object(access.object).size;
        if size <= SYMBOLIC_OFFSET_PROBE {
            return None;
        }
        let m = self.current_model(state)?;
        let v = evaluate(&self.cx.pool, access.offset, &m);
        if self.has_second_value(state, access.offset, m, v) {
            return None;
        }
        let c = self.cx.pool.constant(64, v);
        let other = self.cx.pool.eq(access.offset, c);
        let other = self.cx.pool.not(other);
        match self.cx.decider.backend.check_budgeted(&self.cx.pool, &state.path, other, PROBE_QUERY_UNITS) {
            crate::check::Feasibility::Unsat => Some(v as u64),
            _ => None,
        }
    }

    /// Whether `offset` can take a value other than `v` on this path, shown
    /// without the solver: the model `m` with one of the inputs the value
    /// was read from changed still satisfies the path and gives another
    /// offset. False means not shown, not single-valued.
    fn has_second_value(&self, state: &State, offset: ExprId, mut m: Assignment, v: u128) -> bool {
        if state.path.len() > SECOND_VALUE_PATH_LIMIT {
            return false;
        }
        let pool = &self.cx.pool;
        let mut read_from = Vec::new();
        taken_value(pool, offset, &m, Some(&mut read_from));
        // The inputs reached last are the data the offset was read from;
        // those reached first chose where to read it.
        for leaf in read_from.into_iter().rev().take(CHANGED_INPUTS) {
            for flip in [1u8, 0x80] {
                let old = set_leaf(&mut m, leaf, |old| old ^ flip as u128);
                let moved = taken_value(pool, offset, &m, None) != v;
                if moved {
                    let values = crate::expr::evaluate_all(pool, &state.path, &m);
                    if state.path.iter().all(|c| values[c] != 0) {
                        return true;
                    }
                }
                set_leaf(&mut m, leaf, |_| old);
            }
        }
        false
    }
}

/// Sets input `leaf` of `m` to `f` of its value (missing inputs read as
/// 0), keeping to its width; returns the value it had.
fn set_leaf(m: &mut Assignment, leaf: Leaf, f: impl Fn(u128) -> u128) -> u128 {
    match leaf {
        Leaf::Input { array, index } => {
            let bytes = m.arrays.entry(array).or_default();
            if bytes.len() <= index as usize {
                bytes.resize(index as usize + 1, 0);
            }
            let old = bytes[index as usize];
            bytes[index as usize] = f(old as u128) as u8;
            old as u128
        }
        Leaf::Fresh { id, width } => {
            let old = m.fresh.get(&id).copied().unwrap_or(0);
            m.fresh.insert(id, f(old) & crate::expr::mask(width));
            old
        }
        // `taken_value` names the byte a read at a symbolic position takes,
        // never the whole input.
        Leaf::Array { .. } => 0,
    }
}

/// The value of `root` under `asg`, evaluating of each select only the
/// branch its condition takes (a select over a large buffer costs the
/// conditions on the way to the byte the model reads, not every byte).
/// `read_from`: the distinct inputs the value was computed from, in the
/// order they were reached.
fn taken_value(pool: &ExprPool, root: ExprId, asg: &Assignment, mut read_from: Option<&mut Vec<Leaf>>) -> u128 {
    let mut memo: FxHashMap<ExprId, u128> = FxHashMap::default();
    // (node, its operands are evaluated)
    let mut stack: Vec<(ExprId, bool)> = vec![(root, false)];
    while let Some((id, ready)) = stack.pop() {
        if memo.contains_key(&id) {
            continue;
        }
        let node = pool.get(id);
        if let Expr::Ite(c, t, e) = &*node {
            let (c, t, e) = (*c, *t, *e);
            let Some(&cv) = memo.get(&c) else {
                stack.extend([(id, false), (c, false)]);
                continue;
            };
            let taken = if cv != 0 { t } else { e };
            match memo.get(&taken) {
                Some(&x) => {
                    memo.insert(id, x);
                }
                None => stack.extend([(id, false), (taken, false)]),
            }
            continue;
        }
        if !ready {
            stack.push((id, true));
            stack.extend(pool.children(id).into_iter().filter(|c| !memo.contains_key(c)).map(|c| (c, false)));
            continue;
        }
        if let Some(out) = read_from.as_deref_mut() {
            match *node {
                Expr::Input { array, index } => out.push(Leaf::Input { array, index }),
                Expr::Fresh { id, width } => out.push(Leaf::Fresh { id, width }),
                // The byte the model reads, as for a select.
                Expr::InputAt { array, index } => {
                    let size = pool.arrays().get(array as usize).map_or(0, |a| a.size);
                    if let Some(i) = u32::try_from(memo[&index]).ok().filter(|i| *i < size) {
                        out.push(Leaf::Input { array, index: i });
                    }
                }
                _ => {}
            }
        }
        let x = evaluate_node(pool, id, asg, |e| memo[e]);
        memo.insert(id, x);
    }
    memo[&root]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte of a 4096-byte input read at a symbolic place (a chain of
    /// selects on the index, as an access at a symbolic offset reads).
    fn byte_at(pool: &mut ExprPool, data: u32, index: ExprId) -> ExprId {
        let mut acc = pool.input_byte(data, 0);
        for k in 1..4096u32 {
            let at = pool.constant(16, k as u128);
            let hit = pool.eq(index, at);
            let b = pool.input_byte(data, k);
            acc = pool.ite(hit, b, acc);
        }
        acc
    }

    #[test]
    fn only_the_branch_the_model_takes_is_read() {
        let mut pool = ExprPool::new();
        let (data, idx) = (pool.new_array("data", 4096), pool.new_array("index", 2));
        let index = pool.input_word(idx, 0, 16);
        let byte = byte_at(&mut pool, data, index);
        let mut m = Assignment::default();
        m.arrays.insert(idx, vec![0x34, 0x02]); // index 0x234
        let mut bytes = vec![0u8; 4096];
        bytes[0x234] = 77;
        m.arrays.insert(data, bytes);
        let mut read_from = Vec::new();
        assert_eq!(taken_value(&pool, byte, &m, Some(&mut read_from)), 77);
        assert_eq!(taken_value(&pool, byte, &m, None), evaluate(&pool, byte, &m));
        // The two index bytes and the one data byte the model selects; none
        // of the 4095 others.
        assert_eq!(read_from.len(), 3, "{read_from:?}");
        assert_eq!(read_from.last(), Some(&Leaf::Input { array: data, index: 0x234 }));
        assert!(read_from.contains(&Leaf::Input { array: idx, index: 0 }));
        // Another index reads another byte.
        m.arrays.get_mut(&idx).expect("set")[0] = 0x35;
        assert_eq!(taken_value(&pool, byte, &m, None), 0);
        assert_eq!(evaluate(&pool, byte, &m), 0);
    }

    #[test]
    fn changing_an_input_restores_it_within_its_width() {
        let mut m = Assignment::default();
        let leaf = Leaf::Fresh { id: 3, width: 4 };
        assert_eq!(set_leaf(&mut m, leaf, |v| v ^ 0x80), 0);
        assert_eq!(m.fresh[&3], 0, "0x80 is past 4 bits");
        assert_eq!(set_leaf(&mut m, leaf, |v| v ^ 1), 0);
        assert_eq!(set_leaf(&mut m, leaf, |_| 0), 1);
        let byte = Leaf::Input { array: 0, index: 5 };
        assert_eq!(set_leaf(&mut m, byte, |v| v ^ 1), 0);
        assert_eq!(m.arrays[&0], vec![0, 0, 0, 0, 0, 1]);
    }
}
