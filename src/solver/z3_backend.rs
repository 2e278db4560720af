//! The in-process Z3 backend for bit-vector queries (no floating point).
//!
//! This is the only module that talks to Z3 through its API (STYLE.md rule
//! 2). The DAG is translated node by node to Z3 bit-vector terms, memoised
//! per query, in one `z3::Context` kept for the life of the solver. Input
//! bytes are 8-bit constants named `a{array}_{index}`, fresh values
//! `f{id}`, and each uninterpreted function one `FuncDecl` per name and
//! signature. An input read at a symbolic position (`Expr::InputAt`) is
//! also the array `arr{array}` (64-bit positions to bytes), whose
//! elements at the positions read at numbers are asserted equal to those
//! bytes' constants. Semantics follow fold.rs; SMT-LIB's division by zero and
//! over-wide shifts already agree with it (tested below against fold).
//! Floating-point nodes are not translated: the query becomes Unknown.

use super::given_rounds::{GivenRounds, ReadPlace, Round};
use super::model_check::finish_model;
use super::smtlib::uf_name;
use super::{Query, Solver, SolverResult, SolverStats, Unknown, UnknownKind};
use crate::expr::{Assignment, BinOp, CmpOp, Expr, ExprId, ExprPool, Leaf};
use crate::process::memory_ceiling::MemoryCeiling;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use z3::ast::{Array, Ast, Bool, Dynamic, BV};
use z3::{Config, Context, ContextHandle, FuncDecl, Params, SatResult, Sort};

/// Why a query stopped at its `resource_limit`.
pub const RESOURCE_LIMIT_REASON: &str = "the solver's work budget for this query ran out";

/// Bit-vector queries decided by Z3 in this process.
pub struct Z3Solver {
    /// Boxed: the interrupt watcher holds a handle to it, so it must not
    /// move. Made at the first query: a run that asks none (an enumerated
    /// kernel) does not carry a context's tens of megabytes.
    ctx: Option<Box<Context>>,
    stats: SolverStats,
    watcher: Option<InterruptWatcher>,
    /// The run's `--max-memory` ceiling (none by default).
    ceiling: MemoryCeiling,
}

impl Default for Z3Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Z3Solver {
    /// An in-process Z3 context with model generation on, and no memory
    /// ceiling.
    pub fn new() -> Self {
        Self::with_ceiling(MemoryCeiling::none())
    }

    /// `new`, with queries stopped at `ceiling` (which they then trip).
    pub fn with_ceiling(ceiling: MemoryCeiling) -> Self {
        Z3Solver { ctx: None, stats: SolverStats::default(), watcher: None, ceiling }
    }
}

impl Solver for Z3Solver {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let start = Instant::now();
        let ctx = self.ctx.get_or_insert_with(|| {
            let mut cfg = Config::new();
            cfg.set_model_generation(true);
            Box::new(Context::new(&cfg))
        });
        let ceiling = &self.ceiling;
        let watcher = self.watcher.get_or_insert_with(|| InterruptWatcher::start(ceiling.clone()));
        // SAFETY: the handle points into the boxed context, which neither
        // moves nor is dropped while the watcher may use it: it is armed
        // only during this call, and `Drop` stops the watcher first.
        let handle: ContextHandle<'static> = unsafe { std::mem::transmute(ctx.handle()) };
        watcher.arm(Some(handle));
        let r = solve(ctx, pool, query, &self.ceiling);
        watcher.arm(None);
        self.stats.z3_queries += 1;
        self.stats.solver_time += start.elapsed();
        self.stats.count(&r);
        r
    }

    fn stats(&self) -> SolverStats {
        self.stats.clone()
    }
}

impl Drop for Z3Solver {
    fn drop(&mut self) {
        if let Some(w) = self.watcher.take() {
            w.stop();
        }
    }
}

/// A thread that interrupts the running Z3 check when a signal asks the
/// run to stop (`crate::process::interrupt`), or when the process passes the
/// memory limit (the solver's `MemoryCeiling`, which it then trips). One per
/// solver, started on the first query: a thread per query would cost more
/// than small queries do.
struct InterruptWatcher {
    armed: Arc<Mutex<Option<ContextHandle<'static>>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl InterruptWatcher {
    fn start(ceiling: MemoryCeiling) -> Self {
        let armed: Arc<Mutex<Option<ContextHandle<'static>>>> = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let (a, s) = (armed.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                if let Some(h) = a.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    if crate::process::interrupt::requested() {
                        h.interrupt();
                    } else if ceiling.exceeded(None) {
                        ceiling.trip();
                        h.interrupt();
                    }
                }
                std::thread::park_timeout(std::time::Duration::from_millis(50));
            }
        });
        InterruptWatcher { armed, stop, thread: Some(thread) }
    }

    fn arm(&self, handle: Option<ContextHandle<'static>>) {
        *self.armed.lock().unwrap_or_else(|e| e.into_inner()) = handle;
    }

    fn stop(mut self) {
        self.arm(None);
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

fn solve(ctx: &Context, pool: &ExprPool, query: &Query, ceiling: &MemoryCeiling) -> SolverResult {
    let constraints = query.constraints();
    let mut tr = Translator { ctx, pool, memo: FxHashMap::default(), funcs: FxHashMap::default(), arrays: FxHashMap::default() };
    // Most queries are many and small (race pairs, sweeping proofs, first
    // attempts): Z3's QF_BV solver (bit-blasting straight to SAT) answers
    // them without the set-up cost of the general solver, which took
    // 15 ms a query on race pairs of 25 nodes. Uninterpreted functions
    // need the general solver.
    let uninterpreted = constraints.iter().any(|c| mentions_apply(pool, *c));
    let read_at = pool.arrays_read_at(&constraints);
    let logic = if read_at.is_empty() { "QF_BV" } else { "QF_ABV" };
    let mut p = Params::new(ctx);
    // Z3 would otherwise install its own SIGINT handler during a check and
    // swallow Ctrl-C; `crate::process::interrupt` interrupts it instead.
    p.set_bool("ctrl_c", false);
    if let Some(t) = query.timeout {
        p.set_u32("timeout", t.as_millis().clamp(1, u32::MAX as u128) as u32);
    }
    // A query's own budget (a step's quick attempt) is Z3's alone; the
    // deciding budget is what any backend would get.
    if let Some(units) = query.resource_limit.or(query.deciding_budget) {
        p.set_u32("rlimit", units.max(1));
    }
    let new_solver = || {
        let solver = if uninterpreted {
            z3::Solver::new(ctx)
        } else {
            z3::Solver::new_for_logic(ctx, logic).unwrap_or_else(|| z3::Solver::new(ctx))
        };
        solver.set_params(&p);
        solver
    };
    let mut solver = new_solver();
    if crate::process::interrupt::requested() {
        return SolverResult::Unknown(Unknown::interrupted());
    }
    tracing::trace!(constraints = constraints.len(), "z3: checking");
    let one = BV::from_u64(ctx, 1, 1);
    // What is asserted, for a new solver (below).
    let mut asserted: Vec<Bool> = Vec::new();
    for &c in &constraints {
        match tr.translate(c) {
            Ok(bv) => asserted.push(bv._eq(&one)),
            Err(reason) => return SolverResult::Unknown(Unknown::new(UnknownKind::Unsupported, reason)),
        }
    }
    // The bytes of an input read at a symbolic position and at numbers are
    // one: its array's elements there are those bytes.
    if !read_at.is_empty() {
        let mut leaves = FxHashSet::default();
        for &c in &constraints {
            pool.leaves_of(c, &mut leaves);
        }
        for leaf in leaves {
            if let Leaf::Input { array, index } = leaf {
                if read_at.contains(&array) {
                    let element = tr.array(array).select(&BV::from_u64(ctx, index as u64, 64));
                    let byte = BV::new_const(ctx, format!("a{array}_{index}"), 8);
                    asserted.push(element._eq(&Dynamic::from_ast(&byte)));
                }
            }
        }
    }
    for a in &asserted {
        solver.assert(a);
    }
    let started = Instant::now();
    // Given bytes read at symbolic positions: a model is taken once every
    // byte it reads there is the given one (given_rounds.rs); a held place
    // is one more assertion.
    let mut rounds = GivenRounds::default();
    loop {
        return match solver.check() {
            _ if crate::process::interrupt::requested() => SolverResult::Unknown(Unknown::interrupted()),
            _ if ceiling.tripped() => SolverResult::Unknown(Unknown::memory_limit()),
            SatResult::Unsat => SolverResult::Unsat,
            SatResult::Unknown => SolverResult::Unknown(classify_unknown(query, started.elapsed(), || solver.get_reason_unknown())),
            SatResult::Sat => match solver.get_model() {
                Some(model) => match rounds.next(pool, given_reads(pool, &model, &tr)) {
                    Round::Settled => finish_model(pool, &constraints, read_model(ctx, pool, &constraints, &model, &tr), "z3"),
                    Round::RanOut(unknown) => SolverResult::Unknown(unknown),
                    Round::Hold(places) => {
                        for (array, at, byte) in places {
                            let element = tr.array(array).select(&BV::from_u64(ctx, at, 64));
                            asserted.push(element._eq(&Dynamic::from_ast(&BV::from_u64(ctx, u64::from(byte), 8))));
                        }
                        // A new solver each round, with the query's whole
                        // budget: Z3 answers a solver's later checks with
                        // its incremental core, which took seconds a round
                        // where the first check's tactic takes milliseconds.
                        solver = new_solver();
                        for a in &asserted {
                            solver.assert(a);
                        }
                        continue;
                    }
                },
                None => SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, "z3 gave no model")),
            },
        };
    }
}

/// The places of given bytes (`InputArray::given`) that `model` reads at
/// symbolic positions, as (array, position, the model's byte there).
fn given_reads(pool: &ExprPool, model: &z3::Model, tr: &Translator) -> Vec<ReadPlace> {
    tr.memo
        .iter()
        .filter_map(|(id, term)| {
            let Expr::InputAt { array, index } = *pool.get(*id) else { return None };
            pool.given_bytes(array)?;
            let at = u64::try_from(eval_wide(model, &tr.memo[&index], 64)).ok()?;
            Some((array, at, eval_wide(model, term, 8) as u8))
        })
        .collect()
}

/// Why Z3 answered `unknown` after `elapsed`, from the limits the query
/// set rather than Z3's message: QF_BV with uninterpreted functions is
/// decidable, so an unknown that is neither an interrupt nor the memory
/// ceiling (checked before) is a limit running out. The time limit when
/// the clock reached it (a little early, as Z3's timer may fire just
/// before), else the work budget when one was set; otherwise Z3 gave up on
/// its own and its message is the only explanation there is.
fn classify_unknown(query: &Query, elapsed: Duration, message: impl FnOnce() -> Option<String>) -> Unknown {
    const TIMER_SLACK: Duration = Duration::from_millis(50);
    match (query.timeout, query.resource_limit, query.deciding_budget) {
        (Some(t), _, _) if elapsed + TIMER_SLACK >= t => Unknown::timeout(t),
        (_, Some(_), _) => Unknown::new(UnknownKind::ResourceLimit, RESOURCE_LIMIT_REASON),
        (_, None, Some(units)) => Unknown::new(UnknownKind::ResourceLimit, super::budget::ran_out(units, "")),
        _ => Unknown::new(UnknownKind::SolverError, format!("z3: {}", message().unwrap_or_default())),
    }
}

/// True if an uninterpreted function application occurs below `root`.
fn mentions_apply(pool: &ExprPool, root: ExprId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if matches!(*pool.get(e), Expr::Apply(_)) {
            return true;
        }
        stack.extend(pool.children(e));
    }
    false
}

/// Values of every input byte and fresh variable the constraints mention,
/// and of the bytes that reads at symbolic positions take (the model's
/// position and byte of each read, from the translation `tr`).
fn read_model(ctx: &Context, pool: &ExprPool, constraints: &[ExprId], model: &z3::Model, tr: &Translator) -> Assignment {
    let mut leaves = FxHashSet::default();
    for &c in constraints {
        pool.leaves_of(c, &mut leaves);
    }
    let mut asg = Assignment::default();
    for leaf in leaves {
        match leaf {
            Leaf::Fresh { id, width: w } => {
                let v = eval_wide(model, &BV::new_const(ctx, format!("f{id}"), w), w);
                asg.fresh.insert(id, v);
            }
            Leaf::Input { array, index } => {
                let v = eval_wide(model, &BV::new_const(ctx, format!("a{array}_{index}"), 8), 8);
                let bytes = asg.arrays.entry(array).or_default();
                if bytes.len() <= index as usize {
                    bytes.resize(index as usize + 1, 0);
                }
                bytes[index as usize] = v as u8;
            }
            // Below: the bytes its reads take.
            Leaf::Array { .. } => {}
        }
    }
    for (id, term) in &tr.memo {
        let Expr::InputAt { array, index } = *pool.get(*id) else { continue };
        // Given bytes are not the assignment's (`InputArray::given`).
        if pool.given_bytes(array).is_some() {
            continue;
        }
        let at = eval_wide(model, &tr.memo[&index], 64);
        let size = pool.arrays().get(array as usize).map_or(0, |a| a.size as u128);
        if at >= size {
            continue;
        }
        let v = eval_wide(model, term, 8);
        let bytes = asg.arrays.entry(array).or_default();
        if bytes.len() <= at as usize {
            bytes.resize(at as usize + 1, 0);
        }
        bytes[at as usize] = v as u8;
    }
    asg
}

/// Evaluates a bit-vector of up to 128 bits in 64-bit pieces.
fn eval_wide(model: &z3::Model, bv: &BV, w: u32) -> u128 {
    let mut v = 0u128;
    let mut lo = 0;
    while lo < w {
        let hi = (lo + 64).min(w) - 1;
        let part = bv.extract(hi, lo);
        let x = model.eval(&part, true).and_then(|p| p.as_u64()).unwrap_or(0);
        v |= (x as u128) << lo;
        lo = hi + 1;
    }
    v
}

struct Translator<'a, 'ctx> {
    ctx: &'ctx Context,
    pool: &'a ExprPool,
    memo: FxHashMap<ExprId, BV<'ctx>>,
    funcs: FxHashMap<String, FuncDecl<'ctx>>,
    /// The arrays of inputs read at symbolic positions, by input number.
    arrays: FxHashMap<u32, Array<'ctx>>,
}

impl<'a, 'ctx> Translator<'a, 'ctx> {
    /// The array standing for input `array`'s bytes.
    fn array(&mut self, array: u32) -> Array<'ctx> {
        let ctx = self.ctx;
        self.arrays
            .entry(array)
            .or_insert_with(|| Array::new_const(ctx, format!("arr{array}"), &Sort::bitvector(ctx, 64), &Sort::bitvector(ctx, 8)))
            .clone()
    }

    /// Post-order over the DAG with an explicit stack (deep DAGs are common).
    fn translate(&mut self, root: ExprId) -> Result<BV<'ctx>, String> {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.memo.contains_key(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(self.pool.children(id).into_iter().map(|c| (c, false)));
                continue;
            }
            let bv = self.node(id)?;
            self.memo.insert(id, bv);
        }
        Ok(self.memo[&root].clone())
    }

    fn constant(&self, width: u32, value: u128) -> BV<'ctx> {
        if width <= 64 {
            return BV::from_u64(self.ctx, value as u64, width);
        }
        let hi = BV::from_u64(self.ctx, (value >> 64) as u64, width - 64);
        hi.concat(&BV::from_u64(self.ctx, value as u64, 64))
    }

    fn bool_to_bv(&self, b: Bool<'ctx>) -> BV<'ctx> {
        b.ite(&BV::from_u64(self.ctx, 1, 1), &BV::from_u64(self.ctx, 0, 1))
    }

    fn node(&mut self, id: ExprId) -> Result<BV<'ctx>, String> {
        let pool = self.pool;
        let m = |e: &ExprId| self.memo[e].clone();
        let bv = match &*pool.get(id) {
            Expr::Const { width, value } => self.constant(*width, *value),
            Expr::Input { array, index } => BV::new_const(self.ctx, format!("a{array}_{index}"), 8),
            Expr::Fresh { id, width } => BV::new_const(self.ctx, format!("f{id}"), *width),
            Expr::Bin(op, a, b) => bin(*op, &m(a), &m(b)),
            Expr::Not(a) => m(a).bvnot(),
            Expr::Cmp(op, a, b) => {
                let (x, y) = (m(a), m(b));
                let c = match op {
                    CmpOp::Eq => x._eq(&y),
                    CmpOp::Ult => x.bvult(&y),
                    CmpOp::Ule => x.bvule(&y),
                    CmpOp::Slt => x.bvslt(&y),
                    CmpOp::Sle => x.bvsle(&y),
                };
                self.bool_to_bv(c)
            }
            Expr::Ite(c, t, e) => m(c)._eq(&BV::from_u64(self.ctx, 1, 1)).ite(&m(t), &m(e)),
            Expr::Concat(h, l) => m(h).concat(&m(l)),
            Expr::Extract { value, offset, width } => m(value).extract(offset + width - 1, *offset),
            Expr::ZExt(a, w) => m(a).zero_ext(w - self.pool.width(*a)),
            Expr::SExt(a, w) => m(a).sign_ext(w - self.pool.width(*a)),
            Expr::Apply(app) => {
                let (function, args, width) = (&app.function, &app.args, &app.width);
                let widths: Vec<u32> = args.iter().map(|a| self.pool.width(*a)).collect();
                let name = uf_name(function, &widths, *width);
                let ctx = self.ctx;
                let decl = self.funcs.entry(name.clone()).or_insert_with(|| {
                    let sorts: Vec<Sort> = widths.iter().map(|w| Sort::bitvector(ctx, *w)).collect();
                    let refs: Vec<&Sort> = sorts.iter().collect();
                    FuncDecl::new(ctx, name, &refs, &Sort::bitvector(ctx, *width))
                });
                let vals: Vec<BV> = args.iter().map(|a| self.memo[a].clone()).collect();
                let refs: Vec<&dyn Ast> = vals.iter().map(|v| v as &dyn Ast).collect();
                let app: Dynamic = decl.apply(&refs);
                app.as_bv().ok_or("z3: uninterpreted application is not a bit-vector")?
            }
            Expr::LogRead(r) => {
                let (offset, base) = (m(&r.offset), m(&r.base));
                let mut word: Option<BV> = None;
                for k in 0..r.len(self.pool) {
                    let (candidates, otherwise) = crate::expr::log_read::byte_sources(self.pool, r, k);
                    let lo = 8 * k as u32;
                    let mut byte = match otherwise {
                        Some(b) => m(&b),
                        None => base.extract(lo + 7, lo),
                    };
                    for c in candidates.iter().rev() {
                        let there = offset.bvadd(&BV::from_u64(self.ctx, c.delta, 64));
                        byte = there._eq(&m(&c.at)).ite(&m(&c.byte), &byte);
                    }
                    // Little-endian: later bytes are higher.
                    word = Some(match word {
                        None => byte,
                        Some(w) => byte.concat(&w),
                    });
                }
                word.ok_or("z3: a read of no bytes")?
            }
            Expr::InputAt { array, index } => {
                // 0 past the declared end (input_at.rs).
                let at = m(index);
                let size = self.pool.arrays().get(*array as usize).map_or(0, |a| a.size as u64);
                let element = self.array(*array).select(&at).as_bv().ok_or("z3: an input array's element is not a bit-vector")?;
                at.bvult(&BV::from_u64(self.ctx, size, 64)).ite(&element, &BV::from_u64(self.ctx, 0, 8))
            }
            other => return Err(format!("z3 backend: floating-point node {other:?} needs the FP solver")),
        };
        Ok(bv)
    }
}

fn bin<'ctx>(op: BinOp, x: &BV<'ctx>, y: &BV<'ctx>) -> BV<'ctx> {
    match op {
        BinOp::Add => x.bvadd(y),
        BinOp::Sub => x.bvsub(y),
        BinOp::Mul => x.bvmul(y),
        // SMT-LIB division by zero: udiv gives all ones, urem the dividend,
        // sdiv -1 or 1 by the dividend's sign, srem the dividend: as fold.rs.
        BinOp::UDiv => x.bvudiv(y),
        BinOp::URem => x.bvurem(y),
        BinOp::SDiv => x.bvsdiv(y),
        BinOp::SRem => x.bvsrem(y),
        BinOp::And => x.bvand(y),
        BinOp::Or => x.bvor(y),
        BinOp::Xor => x.bvxor(y),
        BinOp::Shl => x.bvshl(y),
        BinOp::LShr => x.bvlshr(y),
        BinOp::AShr => x.bvashr(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(timeout: Option<u64>, budget: Option<u32>) -> Query {
        Query { timeout: timeout.map(Duration::from_millis), resource_limit: budget, ..Query::default() }
    }

    /// A lazy read of a list of writes at symbolic slots encodes as its
    /// selects: the two never differ, and the read can see any write.
    #[test]
    fn a_lazy_read_encodes_as_its_selects() {
        use crate::expr::log_read::{expand_with, Update};
        use std::rc::Rc;
        let mut p = ExprPool::new();
        let arr = p.new_array("slots", 10);
        let four = p.constant(64, 4);
        let mut newest: Option<Rc<Update>> = None;
        for k in 0..10 {
            let b = p.input_byte(arr, k);
            let z = p.zext(b, 64);
            let offset = p.mul(z, four);
            let bytes = (0..4).map(|j| Some(p.constant(8, (10 * k + j) as u128))).collect();
            newest = Some(Rc::new(Update { offset, residue: (4, 0), bytes, older: newest }));
        }
        let j = p.fresh(8);
        let zj = p.zext(j, 64);
        let at = p.mul(zj, four);
        let base = p.constant(32, 0xdead_beef);
        let read = p.log_read(newest.expect("ten writes"), at, (4, 0), base);
        let Expr::LogRead(r) = p.get(read).into_owned() else { panic!("a lazy read") };
        let eager = expand_with(&mut p, &r, |e| e);
        let differ = p.cmp(CmpOp::Eq, read, eager);
        let differ = p.not(differ);
        assert!(matches!(Z3Solver::new().check(&p, &Query::all(vec![differ])), SolverResult::Unsat));
        // The oldest write's value, seen where no newer write is.
        let oldest = p.constant(32, 0x0302_0100);
        let seen = p.cmp(CmpOp::Eq, read, oldest);
        let SolverResult::Sat(m) = Z3Solver::new().check(&p, &Query::all(vec![seen])) else { panic!("the oldest write can be seen") };
        assert_eq!(crate::expr::evaluate(&p, read, &m), 0x0302_0100);
    }

    /// An input read at a symbolic position and the same input's bytes
    /// read at numbers are one array: the read sees the byte there, and
    /// the model gives the byte each read takes.
    #[test]
    fn an_input_read_at_a_symbolic_position_is_its_bytes() {
        let mut p = ExprPool::new();
        let a = p.new_array("data", 1 << 20);
        let i = p.fresh(64);
        let read = p.input_at(a, i);
        let three = p.constant(64, 3);
        let at_three = p.eq(i, three);
        let byte3 = p.input_byte(a, 3);
        let nine = p.constant(8, 9);
        let (is_nine, read_nine) = (p.eq(byte3, nine), p.eq(read, nine));
        let not_nine = p.not(read_nine);
        // Byte 3 is 9 and the read is at 3: it cannot read anything else.
        let q = Query::all(vec![is_nine, at_three, not_nine]);
        assert!(matches!(Z3Solver::new().check(&p, &q), SolverResult::Unsat));
        // Two reads at positions a million apart that differ from byte 3.
        let j = p.fresh(64);
        let far = p.constant(64, 1_000_000);
        let (zj, big) = (p.add(j, far), p.constant(64, 1 << 20));
        let inside = p.cmp(CmpOp::Ult, zj, big);
        let other = p.input_at(a, zj);
        let seven = p.constant(8, 7);
        let other_seven = p.eq(other, seven);
        let q = Query::all(vec![is_nine, read_nine, other_seven, inside]);
        let SolverResult::Sat(m) = Z3Solver::new().check(&p, &q) else { panic!("satisfiable") };
        assert!(q.constraints().iter().all(|c| crate::expr::evaluate(&p, *c, &m) == 1), "the model satisfies every constraint");
        let at = crate::expr::evaluate(&p, zj, &m) as usize;
        assert_eq!((m.arrays[&a][3], m.arrays[&a][at]), (9, 7));
        // Past the end the read is 0, in the solver as in evaluation.
        let past = p.cmp(CmpOp::Ule, big, zj);
        let zero = p.constant(8, 0);
        let nonzero = p.eq(other, zero);
        let nonzero = p.not(nonzero);
        assert!(matches!(Z3Solver::new().check(&p, &Query::all(vec![past, nonzero])), SolverResult::Unsat));
    }

    /// Given bytes read at a symbolic position are exactly the given ones:
    /// the solver's free guesses are held to them round by round, a query
    /// only a guess satisfies is unsat, and a model reads the given bytes
    /// (and lists none of them).
    #[test]
    fn given_bytes_read_at_a_symbolic_position_are_the_given_ones() {
        let mut p = ExprPool::new();
        // Byte k is k / 4099 (mod 256), but byte 200 * 4099 is 7.
        let mut bytes: Vec<u8> = (0..(1u32 << 21)).map(|k| (k / 4099) as u8).collect();
        bytes[200 * 4099] = 7;
        let g = p.new_given_array("table.given", &bytes);
        let (i, j) = (p.fresh(64), p.fresh(64));
        let step = p.constant(64, 4099);
        let (ii, jj) = (p.mul(i, step), p.mul(j, step));
        let (ri, rj) = (p.input_at(g, ii), p.input_at(g, jj));
        let n = p.constant(64, 256);
        let (i_in, j_in) = (p.cmp(CmpOp::Ult, i, n), p.cmp(CmpOp::Ult, j, n));
        let ij = p.cmp(CmpOp::Ult, i, j);
        let same = p.eq(ri, rj);
        // Two places reading equal bytes: only 7 and 200.
        let q = Query::all(vec![i_in, j_in, ij, same]);
        let SolverResult::Sat(m) = Z3Solver::new().check(&p, &q) else { panic!("satisfiable") };
        let (vi, vj) = (crate::expr::evaluate(&p, i, &m), crate::expr::evaluate(&p, j, &m));
        assert_eq!((vi, vj), (7, 200));
        assert!(!m.arrays.contains_key(&g), "given bytes are not the model's");
        // Below 200 every byte read is distinct: unsat, after the rounds.
        let n200 = p.constant(64, 200);
        let j_below = p.cmp(CmpOp::Ult, j, n200);
        let q = Query::all(vec![i_in, j_below, ij, same]);
        assert!(matches!(Z3Solver::new().check(&p, &q), SolverResult::Unsat));
        // No place below 256 holds 200 (its byte is 7): unsat, after the
        // rounds, though a free array could hold it anywhere.
        let gone = p.constant(8, 200);
        let is_gone = p.eq(ri, gone);
        assert!(matches!(Z3Solver::new().check(&p, &Query::all(vec![i_in, is_gone])), SolverResult::Unsat));
        // Place 250 holds 250.
        let there = p.constant(8, 250);
        let is_there = p.eq(ri, there);
        let SolverResult::Sat(m) = Z3Solver::new().check(&p, &Query::all(vec![i_in, is_there])) else { panic!("satisfiable") };
        assert_eq!(crate::expr::evaluate(&p, i, &m), 250);
    }

    #[test]
    fn an_unknown_is_classified_by_the_limits_not_the_message() {
        let early = Duration::from_millis(5);
        // A message saying "timeout" does not make an early unknown one.
        let u = classify_unknown(&query(Some(10_000), Some(100)), early, || Some("timeout".into()));
        assert_eq!(u.kind, UnknownKind::ResourceLimit);
        let u = classify_unknown(&query(Some(10_000), None), early, || Some("canceled".into()));
        assert_eq!((u.kind, u.detail.as_str()), (UnknownKind::SolverError, "z3: canceled"));
        // The clock at the limit is a timeout, whatever the message.
        let u = classify_unknown(&query(Some(100), Some(100)), Duration::from_millis(100), || None);
        assert_eq!((u.kind, u.detail.as_str()), (UnknownKind::Timeout, "timeout after 100ms"));
        let u = classify_unknown(&query(None, Some(100)), Duration::from_secs(60), || None);
        assert_eq!(u.kind, UnknownKind::ResourceLimit);
        // The deciding budget names itself in the report.
        let u = classify_unknown(&Query::default().with_deciding_budget(40), Duration::from_secs(60), || None);
        assert_eq!(
            (u.kind, u.detail.as_str()),
            (UnknownKind::ResourceLimit, "the deciding budget of 40 work units (--query-budget) ran out")
        );
    }

    /// Whether x * y, both above 1 and below 2^32, can be a product of two
    /// 32-bit primes: factoring, far beyond a small budget.
    fn factoring(p: &mut ExprPool) -> Query {
        let (x, y) = (p.fresh(64), p.fresh(64));
        let (one, top) = (p.constant(64, 1), p.constant(64, 1 << 32));
        let product = p.constant(64, 3_751_514_891 * 3_846_177_571);
        let xy = p.mul(x, y);
        let c = vec![
            p.cmp(CmpOp::Ult, one, x),
            p.cmp(CmpOp::Ult, one, y),
            p.cmp(CmpOp::Ult, x, top),
            p.cmp(CmpOp::Ult, y, top),
            p.eq(xy, product),
        ];
        Query::all(c)
    }

    /// The deciding budget is counted in work, not time: the same query
    /// under the same small budget gets the same answer every time,
    /// however loaded the machine, and the answer names the budget.
    #[test]
    fn the_same_query_under_a_small_budget_gets_the_same_answer_twice() {
        let mut p = ExprPool::new();
        let q = factoring(&mut p).with_deciding_budget(50_000);
        let answers: Vec<_> = (0..2)
            .map(|_| match Z3Solver::new().check(&p, &q) {
                SolverResult::Unknown(u) => (u.kind, u.detail),
                other => panic!("decided within 50,000 units: {other:?}"),
            })
            .collect();
        assert_eq!(answers[0], answers[1]);
        assert_eq!(
            answers[0],
            (UnknownKind::ResourceLimit, "the deciding budget of 50000 work units (--query-budget) ran out".to_string())
        );
    }
}
