//! A DAG laid out for evaluating many times over one float input: the
//! nodes below the roots in an order where operands come first, each
//! evaluated by `expr::evaluate_node` (the expression evaluator's own step,
//! so the values are the model's, bit for bit), operands' values kept in a
//! flat table instead of a map. A modelled libm call (`libm_model.rs`) is
//! evaluated by this machine's libm; `rerun_with` then puts other results
//! a conforming libm may give in its place and re-evaluates only the nodes
//! that depend on it.

use super::input_range::FloatInput;
use crate::check::libm_model::{host_value, libm_call, LibmCall};
use crate::expr::{evaluate_node, Assignment, Expr, ExprId, ExprPool, FpFormat};

/// The nodes below some roots, ready to evaluate for one input's values.
pub struct Tape<'p> {
    pool: &'p ExprPool,
    /// Pooled nodes, operands before users.
    order: Vec<ExprId>,
    /// Position in `order` of each pooled node, by pool index.
    position: Vec<u32>,
    /// For each position: which byte of the input it is, if an input byte.
    input_byte: Vec<Option<u32>>,
    /// For each position: the modelled libm call it is, if one.
    libm: Vec<Option<LibmCall>>,
    /// Positions of the modelled libm calls.
    calls: Vec<usize>,
    /// For each position: whether it depends on a libm call's result.
    depends_on_call: Vec<bool>,
    values: Vec<u128>,
}

/// No inputs: the tape reads its input bytes itself.
static NO_INPUTS: std::sync::LazyLock<Assignment> = std::sync::LazyLock::new(Assignment::default);

impl<'p> Tape<'p> {
    /// Lays out the nodes below `roots`, which must read no input but
    /// `input` and have exact IEEE meaning: no unconstrained value (an
    /// approximation), no uninterpreted function but the modelled libm
    /// calls (whose argument must not depend on another's result), no
    /// half-precision fused multiply-add (evaluated through double here,
    /// not exactly).
    pub fn new(pool: &'p ExprPool, roots: &[ExprId], input: FloatInput) -> Result<Tape<'p>, String> {
        let mut order = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|r| (*r, false)).collect();
        while let Some((id, expanded)) = stack.pop() {
            if id.is_inline() || (!expanded && seen.contains(&id)) {
                continue;
            }
            if expanded {
                order.push(id);
                continue;
            }
            seen.insert(id);
            stack.push((id, true));
            for c in pool.children(id) {
                stack.push((c, false));
            }
        }
        let bytes = input.format.width() / 8;
        let mut input_byte = Vec::with_capacity(order.len());
        let mut libm = Vec::with_capacity(order.len());
        for id in &order {
            libm.push(libm_call(pool, *id));
            if libm.last().is_some_and(|c| c.is_some()) {
                input_byte.push(None);
                continue;
            }
            let byte = match &*pool.get(*id) {
                Expr::Input { array, index } if *array == input.array && (input.offset..input.offset + bytes).contains(index) => {
                    Some(index - input.offset)
                }
                Expr::Input { .. } => return Err("the values read more than one float input".into()),
                Expr::Fresh { .. } => return Err("the values read an unconstrained value (an approximation)".into()),
                Expr::Apply(app) => return Err(format!("the values call `{}`, which the model leaves uninterpreted", app.function)),
                Expr::Fma(FpFormat::Half, ..) => return Err("a half-precision fused multiply-add is not evaluated exactly".into()),
                _ => None,
            };
            input_byte.push(byte);
        }
        let size = order.iter().map(|e| e.index() + 1).max().unwrap_or(0);
        let mut position = vec![u32::MAX; size];
        for (k, id) in order.iter().enumerate() {
            position[id.index()] = k as u32;
        }
        let mut depends_on_call = vec![false; order.len()];
        let mut calls = Vec::new();
        for k in 0..order.len() {
            let below = pool.children(order[k]).into_iter().any(|c| !c.is_inline() && depends_on_call[position[c.index()] as usize]);
            if let Some(call) = &libm[k] {
                if below {
                    return Err(format!("the argument of `{}` depends on another libm call's result", call.c_name()));
                }
                calls.push(k);
            }
            depends_on_call[k] = below || libm[k].is_some();
        }
        let values = vec![0; order.len()];
        Ok(Tape { pool, order, position, input_byte, libm, calls, depends_on_call, values })
    }

    /// The modelled libm calls, with their argument's value after the last
    /// `run`.
    pub fn calls(&self) -> Vec<(LibmCall, u128)> {
        self.calls
            .iter()
            .map(|&k| {
                let c = self.libm[k].expect("a call's position");
                (c, self.value(c.arg))
            })
            .collect()
    }

    /// Evaluates again, after a `run`, every node that depends on a libm
    /// call, with `results` (one per call, in the order of `calls`) in
    /// place of this machine's.
    pub fn rerun_with(&mut self, results: &[u128]) {
        for (&k, &r) in self.calls.iter().zip(results) {
            self.values[k] = r;
        }
        let first = self.calls.first().copied().unwrap_or(self.order.len());
        for k in first..self.order.len() {
            if self.depends_on_call[k] && self.libm[k].is_none() {
                self.values[k] = self.evaluate_at(k);
            }
        }
    }

    /// How many nodes one run evaluates.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    fn evaluate_at(&self, k: usize) -> u128 {
        let (values, position, pool) = (&self.values, &self.position, self.pool);
        evaluate_node(pool, self.order[k], &NO_INPUTS, |e: &ExprId| {
            if e.is_inline() {
                pool.as_const(*e).expect("an inline handle is a constant")
            } else {
                values[position[e.index()] as usize]
            }
        })
    }

    /// Evaluates every node with the input's bits `x`.
    pub fn run(&mut self, x: u128) {
        for k in 0..self.order.len() {
            let v = match (self.input_byte[k], &self.libm[k]) {
                (Some(byte), _) => (x >> (8 * byte)) & 0xff,
                (None, Some(call)) => host_value(call.base, call.format, self.value(call.arg)),
                (None, None) => self.evaluate_at(k),
            };
            self.values[k] = v;
        }
    }

    /// The value of `id` after the last `run` (`id` below the roots).
    pub fn value(&self, id: ExprId) -> u128 {
        if id.is_inline() {
            return self.pool.as_const(id).expect("an inline handle is a constant");
        }
        self.values[self.position[id.index()] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, FBinOp};

    #[test]
    fn the_tape_agrees_with_the_evaluator() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("x", 4);
        let x = pool.input_word(arr, 0, 32);
        let f = FpFormat::Single;
        let one = pool.constant(32, 1.0f32.to_bits() as u128);
        let r = pool.fbin(FBinOp::Div, f, one, x);
        let xr = pool.fbin(FBinOp::Mul, f, x, r);
        let e = pool.fbin(FBinOp::Sub, f, xr, one);
        let input = FloatInput { array: arr, offset: 0, format: f };
        let mut tape = Tape::new(&pool, &[e], input).unwrap();
        for v in [1.0f32, 3.0, 0.1, -7.5, 0.0, f32::INFINITY, f32::NAN, 1e-40] {
            tape.run(v.to_bits() as u128);
            let mut a = Assignment::default();
            a.arrays.insert(arr, v.to_bits().to_le_bytes().to_vec());
            assert_eq!(tape.value(e), evaluate(&pool, e, &a), "at {v}");
        }
    }

    #[test]
    fn a_second_input_is_refused() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("v", 8);
        let a = pool.input_word(arr, 0, 32);
        let b = pool.input_word(arr, 4, 32);
        let s = pool.fbin(FBinOp::Add, FpFormat::Single, a, b);
        let input = FloatInput { array: arr, offset: 0, format: FpFormat::Single };
        let refused = Tape::new(&pool, &[s], input).err().expect("two inputs are refused");
        assert!(refused.contains("more than one"), "{refused}");
    }
}
