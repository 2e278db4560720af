//! Undefined behaviour as findings (README, "Undefined behaviour").
//!
//! Signed division or remainder of the minimum by -1 is undefined where it
//! runs, in LLVM as in C: it is reported there, and the path goes on with
//! the operands that do not overflow (as division by zero does, int_ops.rs).
//!
//! A shift by the width or more, signed overflow of an `nsw` `+ - *` (C's
//! signed arithmetic) and a float-to-integer conversion of NaN or of an
//! out-of-range value give *poison* in LLVM: an optimiser may compute them
//! ahead of the test that guards them, and so does symcross's own
//! if-conversion, and throw the result away. So the lanes they make poison
//! are marked in the shadow of the uninitialised-bits analysis
//! (exec/memory/shadow.rs), with an origin naming the operation, and they
//! travel as indeterminate bits do. Where they decide something (a branch,
//! an address, a divisor, a check, a library call's argument, the exit
//! status) the use is an `undefined-behaviour` finding placed at the
//! operation, whose witness makes the operation undefined and its result
//! reach that use: UBSan reports the same input at the same line. The path
//! then goes on only with inputs for which it does not: nothing is proved
//! through an undefined value.
//!
//! The flags the compiler writes on integer operations (`shl nsw`, `nuw`,
//! `exact`) are promises of the same kind: where one is broken the result
//! is poison, and the path that breaks it broke one of C's rules first
//! (`shl nsw` is C's rule for `<<` of signed values itself).
//!
//! Most operations are settled without a query: constants fold, and
//! operands known to need fewer bits than the width (a sum of widened
//! bytes) cannot overflow.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::ops::operand_ranges::{float_range, signed_bits, unsigned_max};
use crate::expr::value::Value;
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool, FpFormat, Outcomes};
use crate::ir::{Inst, Loc, PoisonFlags};
use crate::memory::shadow::Shadow;
use crate::ranges::{Interval, PathRanges, Range, RangeAnalysis};
use crate::report::{FindingKind, Related, UndefinedOperation};

impl<'m> Executor<'m> {
    /// Marks the lanes of an integer operation's result that are poison:
    /// a shift amount of the width or more, a signed overflow where the IR
    /// says `nsw`, or a broken `nuw` or `exact` promise.
    /// `path` is the path's condition: its facts (`symcross_assume`
    /// bounds) settle overflows that structure alone leaves possible.
    pub(in crate::exec) fn int_poison(
        &mut self,
        inst: &Inst,
        op: BinOp,
        flags: PoisonFlags,
        operands: (&Value, &Value),
        r: &Value,
        path: &[ExprId],
    ) {
        let (a, b) = operands;
        let (p, ranges) = (&mut self.cx.pool, &mut self.shadow.operand_ranges);
        let on_path = &mut self.shadow.path_ranges;
        let w = r.first().map_or(0, |l| p.width(*l));
        let (kind, what) = match op {
            BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                let shown = match op {
                    BinOp::Shl => "<<",
                    _ => ">>",
                };
                (UndefinedOperation::ShiftOutOfRange, format!("a shift (`{shown}`) of a {w}-bit value by {w} or more"))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul if flags.nsw => {
                (UndefinedOperation::SignedOverflow, format!("signed overflow of a {w}-bit `{}`", shown(op)))
            }
            _ => (UndefinedOperation::SignedOverflow, String::new()),
        };
        if !what.is_empty() {
            let conds: Vec<ExprId> = (0..r.len())
                .map(|i| match kind {
                    UndefinedOperation::ShiftOutOfRange => shift_out_of_range(p, b[i]),
                    _ => signed_overflow(p, (ranges, on_path, path), op, (a[i], b[i]), r[i]),
                })
                .collect();
            self.record_poison(inst.loc, kind, what, &conds, r);
        }
        if let Some((kind, what)) = promise(op, flags, w) {
            let p = &mut self.cx.pool;
            let conds: Vec<ExprId> = (0..r.len()).map(|i| promise_broken(p, op, flags, a[i], b[i], r[i])).collect();
            self.record_poison(inst.loc, kind, what, &conds, r);
        }
    }

    /// Whether `loc` lies in a file of the runtime model (cl-runtime-model/),
    /// whose code is symcross's, not the user's.
    pub(in crate::exec) fn in_runtime_model(&self, loc: Loc) -> bool {
        static RUNTIME: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        let runtime = RUNTIME.get_or_init(|| crate::frontend::runtime_dir().map(|d| d.display().to_string()));
        let file = self.cx.module.file_name(loc);
        runtime.as_deref().is_some_and(|r| file.starts_with(r)) || file.contains("cl-runtime-model/")
    }

    /// Marks the lanes of a float-to-integer conversion that are poison:
    /// NaN, or a value whose integer part the result cannot hold.
    pub(in crate::exec) fn cast_poison(&mut self, inst: &Inst, signed: bool, from: FpFormat, v: &Value, r: &Value) {
        let p = &mut self.cx.pool;
        let w = r.first().map_or(0, |l| p.width(*l));
        let conds: Vec<ExprId> = v.iter().map(|x| float_cast_out_of_range(p, from, signed, *x, w)).collect();
        let what = format!(
            "a conversion of NaN or of an out-of-range {} to a {w}-bit {} integer",
            from.name(),
            if signed { "signed" } else { "unsigned" }
        );
        self.record_poison(inst.loc, UndefinedOperation::FloatCastOverflow, what, &conds, r);
    }

    /// Marks the lanes of `llvm.abs` (`abs`) or `llvm.ctlz`/`llvm.cttz`
    /// (`name` of the count) that are poison by the call's flag: the
    /// absolute value of the minimum (C's `abs(INT_MIN)`), a count of
    /// zeros of zero (`__builtin_clz(0)`).
    pub(in crate::exec) fn flagged_intrinsic_poison(&mut self, loc: Loc, count: Option<&str>, x: &Value, r: &Value) {
        let p = &mut self.cx.pool;
        let w = x.first().map_or(0, |l| p.width(*l));
        if w == 0 {
            return;
        }
        let special = if count.is_none() { 1u128 << (w - 1) } else { 0 };
        let c = p.constant(w, special);
        let ranges = &mut self.shadow.operand_ranges;
        // No query where the operand's range leaves the special value out
        // (abs of a difference of bytes, a count of a value with a bit
        // forced on).
        let conds: Vec<ExprId> = x
            .iter()
            .map(|l| {
                let special_signed = crate::expr::to_signed(special, w);
                let excluded = (count.is_none() && signed_bits(p, *l) < w)
                    || (Range::tracked(w) && {
                        let r = ranges.range(p, *l);
                        let (s, u) = (r.signed, r.unsigned);
                        special_signed < s.lo || special_signed > s.hi || (special as i128) < u.lo || (special as i128) > u.hi
                    });
                if excluded {
                    p.bool_const(false)
                } else {
                    p.eq(*l, c)
                }
            })
            .collect();
        let (kind, what) = match count {
            None => (
                UndefinedOperation::SignedOverflow,
                format!("the absolute value of the minimum {w}-bit integer (`abs(INT_MIN)`: its negation does not fit)"),
            ),
            Some(name) => (
                UndefinedOperation::InvalidBuiltinUse,
                format!("a count of the {name} zeros of a {w}-bit zero (`__builtin_clz(0)`/`__builtin_ctz(0)`: C leaves it undefined)"),
            ),
        };
        self.record_poison(loc, kind, what, &conds, r);
    }

    /// Leaves in `self.shadow.poison` the lanes of `r` that `conds` make
    /// poison, for the step to merge into the result's shadow. A second
    /// reason for the same result joins the first's lanes under the first's
    /// name (both are the same operation's).
    pub(in crate::exec) fn record_poison(&mut self, loc: Loc, kind: UndefinedOperation, what: String, conds: &[ExprId], r: &Value) {
        let p = &mut self.cx.pool;
        if conds.iter().all(|c| p.as_const(*c) == Some(0)) {
            return;
        }
        let mask: Value = conds.iter().zip(r.iter()).map(|(c, l)| p.sext(*c, p.width(*l))).collect();
        if let Some((old, origin)) = self.shadow.poison.take() {
            let joined = old.iter().zip(mask.iter()).map(|(x, y)| p.or(*x, *y)).collect();
            self.shadow.poison = Some((joined, origin));
            return;
        }
        let origin = self.shadow.intern_undefined(what, loc, kind);
        self.shadow.poison = Some((mask, origin));
    }

    /// The result of the instruction just run was written to `dest`: its
    /// poison lanes, if it made some, join the register's shadow.
    pub(in crate::exec) fn merge_poison(&mut self, state: &mut State, dest: crate::ir::RegId) {
        let Some((mask, origin)) = self.shadow.poison.take() else { return };
        let s = match state.frame().shadows.get(&dest) {
            Some(old) if old.mask.len() == mask.len() => {
                let p = &mut self.cx.pool;
                let merged = old.mask.iter().zip(mask.iter()).map(|(a, b)| p.or(*a, *b)).collect();
                Shadow { mask: merged, origin: old.origin }
            }
            _ => Shadow { mask, origin },
        };
        self.set_shadow(state, dest, Some(s));
    }

    /// Signed division or remainder of the minimum by -1: reported where
    /// it runs; the path goes on with operands that do not overflow.
    pub(in crate::exec) fn check_division_overflow(&mut self, state: &mut State, inst: &Inst, a: ExprId, d: ExprId) -> Result<(), Step> {
        let p = &mut self.cx.pool;
        let w = p.width(d);
        let minus_one = p.constant(w, crate::expr::mask(w));
        let min = p.constant(w, 1u128 << (w - 1));
        let by_minus_one = p.eq(d, minus_one);
        let of_min = p.eq(a, min);
        let overflow = p.and(by_minus_one, of_min);
        if p.as_const(overflow) == Some(0) {
            return Ok(());
        }
        let (bad, good) = self.branch(state, overflow);
        if let Some(b) = bad {
            let msg = format!("undefined behaviour: signed division of the minimum {w}-bit value by -1 (the quotient does not fit)");
            let model = b.model.clone();
            if let Some(f) = self.report(&b, FindingKind::UndefinedBehaviour, inst.loc, msg, model.as_ref(), None) {
                f.undefined_behaviour = Some(UndefinedOperation::DivisionOverflow);
            }
        }
        match good {
            Some(s) => {
                *state = s;
                Ok(())
            }
            None => Err(Step::Terminated),
        }
    }

    /// clang's test of one of C's rules failed on this path (the user's
    /// code is compiled with the test of `<<` on signed values, README
    /// "Undefined behaviour"): an `undefined-behaviour` finding where it
    /// failed, as UndefinedBehaviorSanitizer reports it there. `check` is
    /// the test's number (clang's list of sanitizer handlers).
    pub(in crate::exec) fn sanitizer_trap(&mut self, state: &State, loc: Loc, check: Option<u128>) {
        let (kind, what) = match check {
            Some(0 | 12 | 13 | 21) => (UndefinedOperation::SignedOverflow, "signed overflow"),
            Some(3) => (UndefinedOperation::DivisionOverflow, "signed division of the minimum value by -1"),
            Some(5) => (UndefinedOperation::FloatCastOverflow, "a conversion of NaN or of an out-of-range float to an integer"),
            Some(20) => (
                UndefinedOperation::LeftShiftOverflow,
                "a left shift (`<<`) of a signed value that is negative or whose set bits reach the sign bit",
            ),
            _ => {
                let msg = "an UndefinedBehaviorSanitizer test failed (llvm.ubsantrap)".to_string();
                self.report(state, FindingKind::UndefinedBehaviour, loc, msg, None, None);
                return;
            }
        };
        let msg = format!("undefined behaviour: {what}");
        if let Some(f) = self.report(state, FindingKind::UndefinedBehaviour, loc, msg, None, None) {
            f.undefined_behaviour = Some(kind);
        }
    }

    /// Poison of the undefined operation `s.origin` names reaches `what`
    /// at `use_loc`: an `undefined-behaviour` finding at the operation
    /// when some bit of `s` can be set on this path, and the path goes on
    /// only where none is. Returns false when no input lets it go on.
    pub(in crate::exec) fn undefined_use(&mut self, state: &mut State, s: &Shadow, use_loc: Loc, what: &str) -> bool {
        let origin = self.shadow.origin(s.origin);
        let (Some(kind), Some(op_loc)) = (origin.undefined, origin.loc) else { return true };
        // In a kernel, each work-item would ask again of the same operation
        // (512 items, two queries each on a growing path): once it is a
        // finding, the verdict is "findings" whatever the other items do.
        if state.gpu.is_some() {
            let at = self.cx.location(op_loc);
            if self.log.findings.iter().any(|f| f.undefined_behaviour == Some(kind) && f.location == at) {
                return true;
            }
        }
        let any = s.any_set(&mut self.cx.pool);
        if self.cx.pool.as_const(any) == Some(0) {
            return true;
        }
        if state.gpu.is_some() && self.cx.pool.as_const(any).is_none() && self.decided_by_path(state, any).is_none() {
            let max = self.cx.config.max_undefined_queries;
            if self.log.kernel_undefined_queries >= max {
                // Unasked: no verdict may rest on it.
                if self.log.kernel_undefined_queries == max {
                    self.log.kernel_undefined_queries += 1;
                    let at = self.cx.location(op_loc);
                    self.cut_path(
                        crate::exec::engine::executor::LimitHit::UndefinedQueries,
                        format!(
                            "kernels asked {max} solver questions about undefined behaviour; later uses of undefined results (the first at {}:{}) were not checked (--max-undefined-queries {max})",
                            at.file, at.line
                        ),
                    );
                }
                return true;
            }
            self.log.kernel_undefined_queries += 1;
        }
        let (bad, good) = self.branch(state, any);
        if let Some(b) = bad {
            let msg = format!("undefined behaviour: {}", origin.what);
            let model = b.model.clone();
            let use_location = self.cx.location(use_loc);
            if let Some(f) = self.report(&b, FindingKind::UndefinedBehaviour, op_loc, msg, model.as_ref(), None) {
                f.undefined_behaviour = Some(kind);
                f.related.insert(0, Related { message: format!("the undefined result decides {what} here"), location: use_location });
            }
        }
        match good {
            Some(g) => {
                *state = g;
                true
            }
            None => {
                // No input avoids it: the path ends. Callers that cannot
                // stop it at once see an unsatisfiable path, so nothing
                // after this is found or proved on it.
                let f = self.cx.pool.bool_const(false);
                state.path.push(f);
                state.model = None;
                false
            }
        }
    }
}

/// A shift amount of the value's width or more; false without a query
/// when the amount is known to be smaller (`n & 31`).
fn shift_out_of_range(p: &mut ExprPool, amount: ExprId) -> ExprId {
    let w = p.width(amount);
    if unsigned_max(p, amount) < w as u128 {
        return p.bool_const(false);
    }
    let width = p.constant(w, w as u128);
    p.cmp(CmpOp::Ule, width, amount)
}

/// The C spelling of an arithmetic operation, for messages.
fn shown(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Shl => "<<",
        BinOp::LShr | BinOp::AShr => ">>",
        _ => "/",
    }
}

/// The promise a flag of `op` makes beyond what `int_poison` tests
/// already (`nsw` of `+ - *`, shift counts): its kind and words, or None.
fn promise(op: BinOp, flags: PoisonFlags, w: u32) -> Option<(UndefinedOperation, String)> {
    let verb = shown(op);
    match op {
        BinOp::Shl if flags.nsw => Some((
            UndefinedOperation::LeftShiftOverflow,
            format!("a left shift (`<<`) of a {w}-bit signed value that is negative or whose set bits reach the sign bit"),
        )),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl if flags.nuw => Some((
            UndefinedOperation::UnsignedWrap,
            format!("a {w}-bit `{verb}` the compiler marked `nuw` (it cannot wrap by C's rules) wraps around"),
        )),
        BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr if flags.exact => Some((
            UndefinedOperation::InexactDivision,
            format!("a {w}-bit `{verb}` the compiler marked `exact` (a pointer difference, or a division it knows leaves no remainder) leaves a remainder"),
        )),
        BinOp::Or if flags.disjoint => Some((
            UndefinedOperation::BrokenPromise,
            format!("a {w}-bit `|` the compiler marked `disjoint` (it stands for a sum or a merge of separate fields) has a bit set in both operands"),
        )),
        _ => None,
    }
}

/// Whether the flags of `op` promise something `int_poison` must test.
fn has_promise(op: BinOp, flags: PoisonFlags) -> bool {
    match op {
        BinOp::Shl => flags.nsw || flags.nuw,
        BinOp::Add | BinOp::Sub | BinOp::Mul => flags.nuw,
        BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr => flags.exact,
        BinOp::Or => flags.disjoint,
        _ => false,
    }
}

/// Whether the constants `x op y` (`w` bits) keep every promise of
/// `flags` that `promise` names (`nsw` of `+ - *` is tested apart). A
/// shift by the width or more is out of range instead, and a division
/// by zero a finding of its own: both count as kept here.
pub(crate) fn flags_kept(op: BinOp, flags: PoisonFlags, w: u32, x: u128, y: u128) -> bool {
    if !has_promise(op, flags) {
        return true;
    }
    let m = crate::expr::mask(w);
    let signed = |v: u128| crate::expr::to_signed(v, w);
    match op {
        BinOp::Shl if y >= w as u128 => true,
        BinOp::Shl => {
            let r = (x << y) & m;
            let nuw_ok = !flags.nuw || r >> y == x;
            let nsw_ok = !flags.nsw || signed(r) >> y == signed(x);
            nuw_ok && nsw_ok
        }
        BinOp::Add => x + y <= m,
        BinOp::Sub => x >= y,
        BinOp::Mul => x.checked_mul(y).is_some_and(|v| v <= m),
        BinOp::LShr | BinOp::AShr if y >= w as u128 => true,
        BinOp::LShr | BinOp::AShr => x & ((1u128 << y) - 1) == 0,
        BinOp::UDiv => y == 0 || x.is_multiple_of(y),
        BinOp::SDiv => y == 0 || signed(x).checked_rem(signed(y)).is_none_or(|v| v == 0),
        BinOp::Or => x & y == 0,
        _ => true,
    }
}

/// Whether `a op b` (wrapped result `r`) breaks the promise of `flags`
/// (`promise`); settled without a query for constants, and for `nuw`
/// sums and products whose operands' largest values cannot wrap.
fn promise_broken(p: &mut ExprPool, op: BinOp, flags: PoisonFlags, a: ExprId, b: ExprId, r: ExprId) -> ExprId {
    let w = p.width(a);
    if let (Some(x), Some(y)) = (p.as_const(a), p.as_const(b)) {
        return p.bool_const(!flags_kept(op, flags, w, x, y));
    }
    let m = crate::expr::mask(w);
    let in_range = |p: &mut ExprPool| {
        let width = p.constant(w, w as u128);
        p.cmp(CmpOp::Ult, b, width)
    };
    match op {
        BinOp::Add | BinOp::Mul => {
            let (ma, mb) = (unsigned_max(p, a), unsigned_max(p, b));
            let fits = match op {
                BinOp::Add => ma.checked_add(mb).is_some_and(|v| v <= m),
                _ => ma.checked_mul(mb).is_some_and(|v| v <= m),
            };
            if fits {
                return p.bool_const(false);
            }
            if op == BinOp::Add {
                return p.cmp(CmpOp::Ult, r, a);
            }
            if 2 * w > 128 {
                let zero = p.constant(w, 0);
                let is_zero = p.eq(a, zero);
                let q = p.bin(BinOp::UDiv, r, a);
                let back = p.eq(q, b);
                let fine = p.or(is_zero, back);
                return p.not(fine);
            }
            let (x, y) = (p.zext(a, 2 * w), p.zext(b, 2 * w));
            let exact = p.mul(x, y);
            let wrapped = p.zext(r, 2 * w);
            let same = p.eq(exact, wrapped);
            p.not(same)
        }
        BinOp::Sub => p.cmp(CmpOp::Ult, a, b),
        BinOp::Or => {
            let common = p.and(a, b);
            let zero = p.constant(w, 0);
            let none = p.eq(common, zero);
            p.not(none)
        }
        BinOp::Shl => {
            // The largest value shifted by the largest count keeps every
            // bit (and the sign bit clear): no promise can break.
            let (ma, mb) = (unsigned_max(p, a), unsigned_max(p, b));
            let top = if flags.nsw { m >> 1 } else { m };
            if mb < w as u128 && ma.checked_shl(mb as u32).is_some_and(|v| v <= top && v >> mb == ma) {
                return p.bool_const(false);
            }
            let mut broken = p.bool_const(false);
            if flags.nuw {
                let back = p.bin(BinOp::LShr, r, b);
                let same = p.eq(back, a);
                let lost = p.not(same);
                broken = p.or(broken, lost);
            }
            if flags.nsw {
                let back = p.bin(BinOp::AShr, r, b);
                let same = p.eq(back, a);
                let lost = p.not(same);
                broken = p.or(broken, lost);
            }
            let counted = in_range(p);
            p.and(counted, broken)
        }
        BinOp::LShr | BinOp::AShr => {
            let back = p.bin(BinOp::Shl, r, b);
            let same = p.eq(back, a);
            let lost = p.not(same);
            let counted = in_range(p);
            p.and(counted, lost)
        }
        _ => {
            // udiv/sdiv exact: a remainder, where the divisor is not zero
            // (a zero divisor is a finding of its own).
            let rem = if op == BinOp::UDiv { BinOp::URem } else { BinOp::SRem };
            let zero = p.constant(w, 0);
            let left = p.bin(rem, a, b);
            let is_zero = p.eq(left, zero);
            p.not(is_zero)
        }
    }
}

/// The ranges an overflow test reads: from structure alone (one memo for
/// every path), the same on the path being run, and that path's condition.
type OverflowRanges<'a> = (&'a mut RangeAnalysis, &'a mut PathRanges, &'a [ExprId]);

/// Whether the signed `a op b` (whose wrapped result is `r`) overflows;
/// false without a query when the operands are narrow enough, by their
/// structure or by the facts of the path (which hold wherever the result
/// is used: a path's condition only grows).
fn signed_overflow(p: &mut ExprPool, ranges: OverflowRanges, op: BinOp, operands: (ExprId, ExprId), r: ExprId) -> ExprId {
    let (structural, on_path, path) = ranges;
    let (a, b) = operands;
    let w = p.width(a);
    let (sa, sb) = (signed_bits(p, a), signed_bits(p, b));
    let fits = match op {
        BinOp::Add | BinOp::Sub => sa.max(sb) < w,
        _ => sa + sb <= w,
    };
    if fits || exact_result_fits(p, structural, op, a, b) {
        return p.bool_const(false);
    }
    if !path.is_empty() && Range::tracked(w) {
        let facts = on_path.on(p, path);
        if exact_result_fits(p, facts, op, a, b) {
            return p.bool_const(false);
        }
    }
    let zero = p.constant(w, 0);
    match op {
        // The sum's sign differs from both operands' signs.
        BinOp::Add => {
            let x = p.xor(a, r);
            let y = p.xor(b, r);
            let both = p.and(x, y);
            p.cmp(CmpOp::Slt, both, zero)
        }
        // The operands' signs differ and the result's differs from a's.
        BinOp::Sub => {
            let x = p.xor(a, b);
            let y = p.xor(a, r);
            let both = p.and(x, y);
            p.cmp(CmpOp::Slt, both, zero)
        }
        _ => {
            let wide = 2 * w;
            if wide > 128 {
                // Too wide to widen: compare the product divided back.
                let nonzero = p.cmp(CmpOp::Eq, a, zero);
                let nonzero = p.not(nonzero);
                let q = p.bin(BinOp::SDiv, r, a);
                let back = p.eq(q, b);
                let wrong = p.not(back);
                return p.and(nonzero, wrong);
            }
            let (x, y) = (p.sext(a, wide), p.sext(b, wide));
            let exact = p.mul(x, y);
            let wrapped = p.sext(r, wide);
            let same = p.eq(exact, wrapped);
            p.not(same)
        }
    }
}

/// Whether the exact signed result of `a op b` lies in the signed range of
/// the width on every input, by the interval ranges of the operands: a
/// weighted sum of absolute values or a difference of two such sums, which
/// the bit counts above overestimate. (Interval arithmetic on the signed
/// readings over-approximates the exact result, so "within" is sound.)
fn exact_result_fits(p: &ExprPool, ranges: &mut RangeAnalysis, op: BinOp, a: ExprId, b: ExprId) -> bool {
    let w = p.width(a);
    if !Range::tracked(w) {
        return false;
    }
    let (x, y) = (ranges.range(p, a).signed, ranges.range(p, b).signed);
    let exact = match op {
        BinOp::Add => x.plus(y),
        BinOp::Sub => y.scale(-1).and_then(|ny| x.plus(ny)),
        _ => x.times(y),
    };
    exact.is_some_and(|e| e.within(Interval::signed_full(w)))
}

/// A float `x` of format `f` whose conversion to a `w`-bit integer is
/// undefined: NaN, or an integer part outside the integer's range.
fn float_cast_out_of_range(p: &mut ExprPool, f: FpFormat, signed: bool, x: ExprId, w: u32) -> ExprId {
    // Every half is a double: test halves as doubles.
    let (f, x) = match f {
        FpFormat::Half => (FpFormat::Double, p.fp_convert(FpFormat::Half, FpFormat::Double, x)),
        f => (f, x),
    };
    let (lo, hi) = if signed { (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1)) } else { (0.0, 2f64.powi(w as i32)) };
    // Known in range (a clamped value): no query. Integer parts from lo
    // to hi - 1 fit, so do values above lo - 1 and below hi.
    let known = float_range(p, f, x);
    if !known.nan && known.lo > lo - 1.0 && known.hi < hi {
        return p.bool_const(false);
    }
    let hi_c = float_of(p, f, hi);
    let above = p.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), f, x, hi_c);
    // Below: at or under lo - 1 when that is a float of the format; else no
    // float lies strictly between lo - 1 and lo, and below lo is the test.
    let below_one = lo - 1.0;
    let exact = match f {
        FpFormat::Single => (below_one as f32) as f64 == below_one,
        _ => below_one > -(2f64.powi(53)),
    };
    let below = if exact {
        let c = float_of(p, f, below_one);
        p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), f, x, c)
    } else {
        let c = float_of(p, f, lo);
        p.fcmp(Outcomes(Outcomes::LT), f, x, c)
    };
    let nan = p.is_nan(f, x);
    let out = p.or(above, below);
    p.or(out, nan)
}

/// The float `v` in format `f` (single or double).
fn float_of(p: &mut ExprPool, f: FpFormat, v: f64) -> ExprId {
    let bits = match f {
        FpFormat::Single => (v as f32).to_bits() as u128,
        _ => v.to_bits() as u128,
    };
    p.constant(f.width(), bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overflow test on structure alone (no path facts).
    fn overflow(p: &mut ExprPool, ranges: &mut RangeAnalysis, op: BinOp, a: ExprId, b: ExprId, r: ExprId) -> ExprId {
        signed_overflow(p, (ranges, &mut PathRanges::default(), &[]), op, (a, b), r)
    }

    /// A 12-bit coefficient (a 16-bit input bounded by the path) times a
    /// 17-bit constant cannot overflow 32 bits on that path; the same
    /// product without the bound can.
    #[test]
    fn path_bounds_settle_overflow() {
        let mut p = ExprPool::new();
        let arr = p.new_array("in", 2);
        let x = p.input_word(arr, 0, 16);
        let x = p.sext(x, 32);
        let k = p.constant(32, 85627);
        let product = p.mul(x, k);
        let (lo, hi) = (p.constant(32, (-2048i128) as u128), p.constant(32, 2048));
        let below = p.cmp(CmpOp::Slt, x, lo);
        let at_least = p.not(below);
        let under = p.cmp(CmpOp::Slt, x, hi);
        let bounded = p.and(at_least, under);
        let mut on_path = PathRanges::default();
        let mut structural = RangeAnalysis::new();
        let c = signed_overflow(&mut p, (&mut structural, &mut on_path, &[bounded]), BinOp::Mul, (x, k), product);
        assert_eq!(p.as_const(c), Some(0), "bounded by the path");
        let c = signed_overflow(&mut p, (&mut structural, &mut on_path, &[]), BinOp::Mul, (x, k), product);
        assert_eq!(p.as_const(c), None, "no bound on this path");
        let c = signed_overflow(&mut p, (&mut structural, &mut on_path, &[under]), BinOp::Mul, (x, k), product);
        assert_eq!(p.as_const(c), None, "bounded above only");
    }

    #[test]
    fn narrow_operands_cannot_overflow() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let a = p.input_word(arr, 0, 8);
        let b = p.input_word(arr, 1, 8);
        let (wa, wb) = (p.sext(a, 32), p.zext(b, 32));
        let sum = p.add(wa, wb);
        let c = overflow(&mut p, &mut RangeAnalysis::new(), BinOp::Add, wa, wb, sum);
        assert_eq!(p.as_const(c), Some(0));
        let product = p.mul(wa, wb);
        let c = overflow(&mut p, &mut RangeAnalysis::new(), BinOp::Mul, wa, wb, product);
        assert_eq!(p.as_const(c), Some(0));
        let full = p.input_word(arr, 0, 32);
        let sum = p.add(full, wb);
        let c = overflow(&mut p, &mut RangeAnalysis::new(), BinOp::Add, full, wb, sum);
        assert_eq!(p.as_const(c), None, "a full-width operand can overflow");
    }

    /// A long weighted sum of absolute differences of bytes: the bit
    /// counts say 36 bits, the intervals say it fits 32, so no query.
    #[test]
    fn weighted_absolute_sums_cannot_overflow() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 32);
        let (zero, weight) = (p.constant(32, 0), p.constant(32, 1000));
        let mut sum = zero;
        let mut ranges = RangeAnalysis::new();
        for i in 0..16 {
            let a = p.input_word(arr, i, 8);
            let b = p.input_word(arr, 16 + i, 8);
            let (a, b) = (p.zext(a, 32), p.zext(b, 32));
            let d = p.sub(a, b);
            let negative = p.cmp(CmpOp::Slt, d, zero);
            let minus_d = p.sub(zero, d);
            let magnitude = p.ite(negative, minus_d, d);
            let term = p.mul(weight, magnitude);
            let c = overflow(&mut p, &mut ranges, BinOp::Mul, weight, magnitude, term);
            assert_eq!(p.as_const(c), Some(0));
            let next = p.add(sum, term);
            let c = overflow(&mut p, &mut ranges, BinOp::Add, sum, term, next);
            assert_eq!(p.as_const(c), Some(0), "term {i}");
            sum = next;
        }
        // 2^31 / 1000 / 255 terms would not fit: the range is no blanket yes.
        let big = p.constant(32, 0x7fff_ffff);
        let over = p.add(sum, big);
        let c = overflow(&mut p, &mut ranges, BinOp::Add, sum, big, over);
        assert_eq!(p.as_const(c), None);
    }

    #[test]
    fn constant_operations_fold() {
        let mut p = ExprPool::new();
        let max = p.constant(32, 0x7fff_ffff);
        let one = p.constant(32, 1);
        let sum = p.add(max, one);
        let c = overflow(&mut p, &mut RangeAnalysis::new(), BinOp::Add, max, one, sum);
        assert_eq!(p.as_const(c), Some(1));
        let zero = p.constant(32, 0);
        let diff = p.sub(zero, max);
        let c = overflow(&mut p, &mut RangeAnalysis::new(), BinOp::Sub, zero, max, diff);
        assert_eq!(p.as_const(c), Some(0));
        let thirty_two = p.constant(32, 32);
        let c = shift_out_of_range(&mut p, thirty_two);
        assert_eq!(p.as_const(c), Some(1));
        let thirty_one = p.constant(32, 31);
        let c = shift_out_of_range(&mut p, thirty_one);
        assert_eq!(p.as_const(c), Some(0));
    }

    #[test]
    fn float_casts_out_of_range_fold() {
        let mut p = ExprPool::new();
        let cases: [(f32, bool, u32, bool); 8] = [
            (2147483520.0, true, 32, false),
            (2147483648.0, true, 32, true),
            (-2147483648.0, true, 32, false),
            (-2147483904.0, true, 32, true),
            (f32::NAN, true, 32, true),
            (-0.9, false, 32, false),
            (-1.0, false, 32, true),
            (4294967040.0, false, 32, false),
        ];
        for (x, signed, w, undefined) in cases {
            let c = p.constant(32, x.to_bits() as u128);
            let cond = float_cast_out_of_range(&mut p, FpFormat::Single, signed, c, w);
            assert_eq!(p.as_const(cond), Some(undefined as u128), "{x} to {w} bits, signed {signed}");
        }
    }
}
