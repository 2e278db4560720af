//! A DAG laid out for evaluating many times over one float input: the
//! nodes below the roots in an order where operands come first, operands'
//! values kept in a flat table instead of a map. Float arithmetic,
//! comparisons and selects, most of a typical tape, are computed directly
//! on f32/f64 (`Step`): IEEE operations in round-to-nearest, so the model's
//! bits whenever the result is not a NaN; a NaN result, and every other
//! node, is evaluated by `expr::evaluate_node` (the expression evaluator's
//! own step, whose NaN rules pick the NaN's bits). So the values are the
//! model's, bit for bit. A modelled libm call (`libm_model.rs`) is
//! evaluated by this machine's libm; `rerun_with` then puts other results
//! a conforming libm may give in its place and re-evaluates only the nodes
//! that depend on it.

use super::input_range::FloatInput;
use crate::check::libm_model::{host_value, libm_call, LibmCall};
use crate::expr::{evaluate_node, Assignment, Expr, ExprId, ExprPool, FBinOp, FpFormat, Outcomes};

/// How the tape evaluates one position. Operands are slots of the value
/// table: positions, then the constants the nodes read.
#[derive(Copy, Clone, Debug)]
enum Step {
    /// A byte of the input.
    InputByte(u32),
    /// A modelled libm call (this machine's libm).
    Libm,
    /// `+ - * /` on two floats or two doubles.
    Arithmetic(FBinOp, FpFormat, u32, u32),
    /// An ordered or unordered comparison of floats or doubles.
    Compare(Outcomes, FpFormat, u32, u32),
    /// A select: condition, then, else.
    Select(u32, u32, u32),
    /// Anything else: the expression evaluator's step.
    Evaluator,
}

/// The nodes below some roots, ready to evaluate for one input's values.
pub struct Tape<'p> {
    pool: &'p ExprPool,
    /// Pooled nodes, operands before users.
    order: Vec<ExprId>,
    /// Position in `order` of each pooled node, by pool index.
    position: Vec<u32>,
    /// For each position: how it is evaluated.
    steps: Vec<Step>,
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
        let size = order.iter().map(|e| e.index() + 1).max().unwrap_or(0);
        let mut position = vec![u32::MAX; size];
        for (k, id) in order.iter().enumerate() {
            position[id.index()] = k as u32;
        }
        // Constants get slots after the positions, filled once.
        let mut constants: Vec<u128> = Vec::new();
        let mut slot = |e: ExprId| -> u32 {
            if e.is_inline() {
                let c = pool.as_const(e).expect("an inline handle is a constant");
                let at = constants.iter().position(|v| *v == c).unwrap_or_else(|| {
                    constants.push(c);
                    constants.len() - 1
                });
                (order.len() + at) as u32
            } else {
                position[e.index()]
            }
        };
        let mut steps = Vec::with_capacity(order.len());
        let mut libm = Vec::with_capacity(order.len());
        for id in &order {
            libm.push(libm_call(pool, *id));
            if libm.last().is_some_and(|c| c.is_some()) {
                steps.push(Step::Libm);
                continue;
            }
            let step = match &*pool.get(*id) {
                Expr::Input { array, index } if *array == input.array && (input.offset..input.offset + bytes).contains(index) => {
                    Step::InputByte(index - input.offset)
                }
                Expr::Input { .. } => return Err("the values read more than one float input".into()),
                Expr::Fresh { .. } => return Err("the values read an unconstrained value (an approximation)".into()),
                Expr::Apply(app) => return Err(format!("the values call `{}`, which the model leaves uninterpreted", app.function)),
                Expr::Fma(FpFormat::Half, ..) => return Err("a half-precision fused multiply-add is not evaluated exactly".into()),
                Expr::FBin(
                    op @ (FBinOp::Add | FBinOp::Sub | FBinOp::Mul | FBinOp::Div),
                    f @ (FpFormat::Single | FpFormat::Double),
                    a,
                    b,
                ) => Step::Arithmetic(*op, *f, slot(*a), slot(*b)),
                Expr::FCmp(set, f @ (FpFormat::Single | FpFormat::Double), a, b) => Step::Compare(*set, *f, slot(*a), slot(*b)),
                Expr::Ite(c, t, e) => Step::Select(slot(*c), slot(*t), slot(*e)),
                _ => Step::Evaluator,
            };
            steps.push(step);
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
        let mut values = vec![0; order.len()];
        values.extend(constants);
        Ok(Tape { pool, order, position, steps, libm, calls, depends_on_call, values })
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
                self.values[k] = self.step(k);
            }
        }
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
            let v = match (self.steps[k], &self.libm[k]) {
                (Step::InputByte(byte), _) => (x >> (8 * byte)) & 0xff,
                (Step::Libm, Some(call)) => host_value(call.base, call.format, self.value(call.arg)),
                _ => self.step(k),
            };
            self.values[k] = v;
        }
    }

    /// The value of position `k` from its operands' values.
    #[inline]
    fn step(&self, k: usize) -> u128 {
        let v = |s: u32| self.values[s as usize];
        match self.steps[k] {
            Step::Arithmetic(op, FpFormat::Single, a, b) => {
                let (x, y) = (f32::from_bits(v(a) as u32), f32::from_bits(v(b) as u32));
                let r = match op {
                    FBinOp::Add => x + y,
                    FBinOp::Sub => x - y,
                    FBinOp::Mul => x * y,
                    _ => x / y,
                };
                if r.is_nan() {
                    self.evaluate_at(k)
                } else {
                    r.to_bits() as u128
                }
            }
            Step::Arithmetic(op, _, a, b) => {
                let (x, y) = (f64::from_bits(v(a) as u64), f64::from_bits(v(b) as u64));
                let r = match op {
                    FBinOp::Add => x + y,
                    FBinOp::Sub => x - y,
                    FBinOp::Mul => x * y,
                    _ => x / y,
                };
                if r.is_nan() {
                    self.evaluate_at(k)
                } else {
                    r.to_bits() as u128
                }
            }
            Step::Compare(set, f, a, b) => {
                let (x, y) = match f {
                    FpFormat::Single => (f32::from_bits(v(a) as u32) as f64, f32::from_bits(v(b) as u32) as f64),
                    _ => (f64::from_bits(v(a) as u64), f64::from_bits(v(b) as u64)),
                };
                set.has(crate::expr::compare_outcome(x, y)) as u128
            }
            Step::Select(c, t, e) => {
                if v(c) != 0 {
                    v(t)
                } else {
                    v(e)
                }
            }
            _ => self.evaluate_at(k),
        }
    }

    /// How many nodes one run evaluates.
    pub fn len(&self) -> usize {
        self.order.len()
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
    use crate::expr::evaluate;

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

    /// Double arithmetic, comparisons and selects, computed directly, give
    /// the evaluator's bits, NaN results included (whose bits the NaN
    /// rules choose).
    #[test]
    fn typed_steps_agree_with_the_evaluator_on_doubles_comparisons_and_selects() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("x", 4);
        let x = pool.input_word(arr, 0, 32);
        let (f, d) = (FpFormat::Single, FpFormat::Double);
        let wide = pool.fp_convert(f, d, x);
        let three = pool.constant(64, 3.0f64.to_bits() as u128);
        let q = pool.fbin(FBinOp::Div, d, wide, three);
        let back = pool.fbin(FBinOp::Mul, d, q, three);
        let diff = pool.fbin(FBinOp::Sub, d, back, wide);
        let zero = pool.constant(64, 0);
        let nan = pool.fbin(FBinOp::Div, d, zero, zero);
        let lt = pool.fcmp(Outcomes(Outcomes::LT | Outcomes::UNO), d, diff, zero);
        let pick = pool.ite(lt, nan, diff);
        let sum = pool.fbin(FBinOp::Add, d, pick, wide);
        let input = FloatInput { array: arr, offset: 0, format: f };
        let mut tape = Tape::new(&pool, &[sum, lt], input).unwrap();
        for v in [1.0f32, 3.0, 0.1, -7.5, 0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e-40, 5.0e37] {
            tape.run(v.to_bits() as u128);
            let mut a = Assignment::default();
            a.arrays.insert(arr, v.to_bits().to_le_bytes().to_vec());
            for e in [sum, lt, pick, diff] {
                assert_eq!(tape.value(e), evaluate(&pool, e, &a), "at {v}");
            }
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
