//! Forking: a branch on a symbolic condition splits the state into the
//! feasible sides, and an assumption narrows the path. The solver is the
//! last resort: a condition the path already decides, the state's model,
//! or a few telling input patterns answer most questions first, and a
//! condition on floating-point values goes up the check ladder
//! (`Decider::decide_branch`).

use crate::check::Feasibility;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{Assignment, ExprId};
use crate::report::DecidedBy;

impl<'m> Executor<'m> {
    /// Splits `state` on `cond`: returns whether the true side and the false
    /// side are feasible, updating models. The caller continues `state` on
    /// one side and gets a clone for the other.
    pub(in crate::exec) fn branch(&mut self, state: &mut State, cond: ExprId) -> (Option<State>, Option<State>) {
        self.ruled_out_by = None;
        if let Some(v) = self.cx.pool.as_const(cond) {
            return if v != 0 { (Some(state.clone()), None) } else { (None, Some(state.clone())) };
        }
        if let Some(truth) = self.decided_by_path(state, cond) {
            let mut n = state.clone();
            n.depth += 1;
            return if truth { (Some(n), None) } else { (None, Some(n)) };
        }
        let not_cond = self.cx.pool.not(cond);
        let witnessed = self.model_value(state, cond);
        let mut sides: [Option<(Option<Assignment>, bool)>; 2] = [None, None];
        // The ladder step that showed each side feasible (none: the model).
        let mut steps: [Option<DecidedBy>; 2] = [None, None];
        let mut unknowns: [Option<crate::solver::Unknown>; 2] = [None, None];
        for (i, (c, truth)) in [(cond, true), (not_cond, false)].into_iter().enumerate() {
            if witnessed == Some(truth) {
                sides[i] = Some((state.model.clone(), false));
                continue;
            }
            if witnessed.is_some() {
                if let Some(m) = self.probe(state, c) {
                    sides[i] = Some((Some(m), false));
                    continue;
                }
            }
            match self.cx.decider.decide_branch(&mut self.cx.pool, &state.path, c) {
                Feasibility::Sat(m) => sides[i] = Some((Some(m), false)),
                Feasibility::Unsat => {}
                Feasibility::Unknown(why) => {
                    sides[i] = Some((None, true));
                    unknowns[i] = Some(why);
                }
            }
            steps[i] = self.cx.decider.last_branch_step;
        }
        let [t, f] = sides;
        self.ruled_out_by = match (&t, &f) {
            (Some(_), None) => steps[1],
            (None, Some(_)) => steps[0],
            _ => None,
        };
        // When the other side is infeasible the path already implies the
        // condition: pushing it again would only grow the path (a loop
        // re-deciding an implied branch would make every later query slower).
        let implied = t.is_none() || f.is_none();
        // Only a side the solver (or a constant) ruled out makes the other
        // one implied: an undecided side was kept as feasible.
        if implied && (t.is_some() || f.is_some()) {
            state.implied.insert(&state.path, cond, t.is_some());
        }
        let make = |s: &State, c: ExprId, (model, unknown): (Option<Assignment>, bool), step: Option<DecidedBy>, why: Option<_>| {
            let mut n = s.clone();
            if n.path_unknown.is_none() {
                n.path_unknown = why;
            }
            if !implied {
                n.path.push(c);
            }
            n.model = model;
            n.unconfirmed_path |= unknown;
            n.depth += 1;
            n.branch_step = step;
            n
        };
        let [unknown_t, unknown_f] = unknowns;
        let ts = t.map(|side| make(state, cond, side, steps[0], unknown_t));
        let fs = f.map(|side| make(state, not_cond, side, steps[1], unknown_f));
        (ts, fs)
    }

    /// The value the path gives `cond` without a solver: remembered as
    /// implied, or asserted outright by a constraint (implied.rs).
    pub(in crate::exec) fn decided_by_path(&self, state: &mut State, cond: ExprId) -> Option<bool> {
        if let Some(truth) = state.implied.get(&state.path, cond) {
            return Some(truth);
        }
        let truth = crate::exec::engine::implied::asserted(&self.cx.pool, &state.path, cond)?;
        state.implied.insert(&state.path, cond, truth);
        Some(truth)
    }

    /// Adds `cond` to the path. Returns false (and counts a pruned path)
    /// when the path becomes infeasible.
    pub(in crate::exec) fn assume(&mut self, state: &mut State, cond: ExprId) -> bool {
        if let Some(v) = self.cx.pool.as_const(cond) {
            if v == 0 {
                self.log.stats.pruned += 1;
            }
            return v != 0;
        }
        if self.model_value(state, cond) == Some(true) {
            state.path.push(cond);
            return true;
        }
        if let Some(m) = self.probe(state, cond) {
            state.model = Some(m);
            state.path.push(cond);
            return true;
        }
        match self.cx.decider.decide_branch(&mut self.cx.pool, &state.path, cond) {
            Feasibility::Sat(m) => {
                state.model = Some(m);
                state.path.push(cond);
                true
            }
            Feasibility::Unsat => {
                self.log.stats.pruned += 1;
                false
            }
            Feasibility::Unknown(why) => {
                state.model = None;
                state.unconfirmed_path = true;
                state.path_unknown.get_or_insert(why);
                state.path.push(cond);
                true
            }
        }
    }

    /// Looks for a model of `path /\ cond` without a solver: the state's
    /// model with the bytes `cond` reads set to a few telling patterns
    /// (zero, small positive and negative, huge, NaN for floats, -1 for
    /// integers). Only used where evaluation has the solver's semantics.
    fn probe(&self, state: &State, cond: ExprId) -> Option<Assignment> {
        const PATTERNS: [u8; 6] = [0x00, 0x3f, 0xbf, 0x7f, 0x80, 0xff];
        let base = state.model.as_ref()?;
        let mut leaves = rustc_hash::FxHashSet::default();
        self.cx.pool.leaves_of(cond, &mut leaves);
        let mut inputs = Vec::with_capacity(leaves.len());
        let mut fresh = Vec::new();
        for leaf in leaves {
            match leaf {
                crate::expr::Leaf::Input { array, index } => inputs.push((array, index)),
                // A fresh value (an approximate operation's result,
                // havocked memory) takes the pattern in every byte, as an
                // input would: the model is checked below like any other.
                crate::expr::Leaf::Fresh { id, width } => fresh.push((id, width)),
                // The bytes reads at symbolic positions take under the
                // model, below.
                crate::expr::Leaf::Array { .. } => {}
            }
        }
        inputs.extend(self.cx.pool.positions_read_at(cond, base));
        for pattern in PATTERNS {
            let mut m = base.clone();
            for &(id, width) in &fresh {
                m.fresh.insert(id, u128::from_le_bytes([pattern; 16]) & crate::expr::mask(width));
            }
            for (array, index) in &inputs {
                let size = self.cx.pool.arrays()[*array as usize].size as usize;
                let bytes = m.arrays.entry(*array).or_insert_with(|| vec![0; size]);
                if bytes.len() < size {
                    bytes.resize(size, 0);
                }
                bytes[*index as usize] = pattern;
            }
            let holds = |e: ExprId| crate::expr::evaluate(&self.cx.pool, e, &m) != 0;
            if holds(cond) && state.path.iter().all(|c| holds(*c)) {
                return Some(m);
            }
        }
        None
    }

    /// The value of `cond` under the state's model, when that model's
    /// semantics are the solver's: FP assumptions change the meaning of FP
    /// operations (e.g. zero results are +0), so FP conditions are then left
    /// to the solver.
    fn model_value(&self, state: &State, cond: ExprId) -> Option<bool> {
        let m = state.model.as_ref()?;
        if self.cx.config.assumptions.any() && self.cx.pool.mentions_fp(cond) {
            return None;
        }
        Some(crate::expr::evaluate(&self.cx.pool, cond, m) != 0)
    }
}
