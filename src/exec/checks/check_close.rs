//! `symcross_check_close`, and `symcross_check_equal` of float elements
//! under `--tolerance`: each element pair is decided for the tolerance's
//! bound (check/tolerance.rs), and its result (verdict, worst input, the
//! samples of the error plot) goes to the report's `tolerance` list. An
//! element that can exceed the bound is a `mismatch` finding with the
//! witness; one the solver leaves undecided is an unconfirmed one giving
//! the largest error found.

use crate::check::close_encoding::CloseQuestion;
use crate::check::worst_input::{plotted_slot, Measured};
use crate::check::CloseVerdict;
use crate::config::{Tolerance, ToleranceKind};
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{ElementType, ExprId, FpFormat};
use crate::ir::{Loc, Type};
use crate::report::{DecidedBy, FindingKind, ToleranceResult, ToleranceVerdict, WorstInput};

/// The buffers of one tolerance check.
pub(in crate::exec) struct CloseBuffers {
    /// What the code under test computed.
    pub got: ExprId,
    /// The reference values.
    pub want: ExprId,
    /// The magnitudes of a `rel-to` tolerance.
    pub magnitude: Option<ExprId>,
    /// The elements' format.
    pub format: FpFormat,
    /// Number of elements.
    pub count: u64,
}

impl<'m> Executor<'m> {
    pub(in crate::exec) fn builtin_check_close(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let elem = self.concrete_size(state, c.args[2][0], loc, "the element size of symcross_check_close")?;
        let count = self.concrete_size(state, c.args[3][0], loc, "the element count of symcross_check_close")?;
        self.note_checks(state, count);
        let what = match c.args.get(5) {
            Some(p) if self.cx.pool.as_const(p[0]) != Some(0) => self.read_c_string(state, p[0], loc)?,
            _ => "values".to_string(),
        };
        let format = match elem {
            4 => FpFormat::Single,
            8 => FpFormat::Double,
            _ => {
                let msg = format!("symcross_check_close `{what}`: element size {elem} is neither a float (4) nor a double (8)");
                return Err(self.unsupported(state, loc, msg));
            }
        };
        let (tolerance, magnitude) = self.read_tolerance(state, c.args[4][0], loc, &what)?;
        let used = format!("the comparison `{what}` (symcross_check_close)");
        for side in [Some(c.args[0][0]), Some(c.args[1][0]), magnitude].into_iter().flatten() {
            self.use_bytes(state, side, elem * count, loc, &used)?;
        }
        let buffers = CloseBuffers { got: c.args[0][0], want: c.args[1][0], magnitude, format, count };
        self.check_close_elements(state, loc, &what, buffers, tolerance)
    }

    /// Reads a `symcross_tolerance` (symcross.h: kind at 0, bound at 8,
    /// magnitude pointer at 16), which every ABI passes by reference.
    fn read_tolerance(&mut self, state: &mut State, ptr: ExprId, loc: Loc, what: &str) -> Result<(Tolerance, Option<ExprId>), Step> {
        let field = |this: &mut Self, state: &mut State, offset: u64, bits: u32| -> Result<ExprId, Step> {
            let off = this.cx.pool.constant(64, offset as u128);
            let at = this.cx.pool.add(ptr, off);
            Ok(this.load_value(state, at, &Type::Int(bits), loc)?[0])
        };
        let kind = field(self, state, 0, 32)?;
        let bound = field(self, state, 8, 64)?;
        let (Some(kind), Some(bound)) = (self.cx.pool.as_const(kind), self.cx.pool.as_const(bound)) else {
            let msg = format!("symcross_check_close `{what}`: the tolerance depends on the input (it must be a constant)");
            return Err(self.unsupported(state, loc, msg));
        };
        let bound = f64::from_bits(bound as u64);
        let Some(kind) = ToleranceKind::from_code(kind as u64) else {
            let msg = format!("symcross_check_close `{what}`: tolerance kind {kind} is not one of SYMCROSS_ULP, _REL, _ABS, _REL_TO");
            return Err(self.unsupported(state, loc, msg));
        };
        let tolerance = match Tolerance::new(kind, bound) {
            Ok(t) => t,
            Err(why) => return Err(self.unsupported(state, loc, format!("symcross_check_close `{what}`: {why}"))),
        };
        let magnitude = if kind == ToleranceKind::RelativeTo { Some(field(self, state, 16, 64)?) } else { None };
        Ok((tolerance, magnitude))
    }

    /// Decides every element of a tolerance check, records its result, and
    /// reports the first element that can exceed the bound (or that was not
    /// decided).
    pub(in crate::exec) fn check_close_elements(
        &mut self,
        state: &mut State,
        loc: Loc,
        what: &str,
        b: CloseBuffers,
        tolerance: Tolerance,
    ) -> Result<Option<Value>, Step> {
        let elem = (b.format.width() / 8) as u64;
        let t = Type::Int(b.format.width());
        let show = |v: u128| ElementType::Float(b.format).show_bits(v);
        let mut failure: Option<(String, Option<crate::expr::Assignment>, DecidedBy, bool)> = None;
        let mut decided = Vec::new();
        for i in 0..b.count {
            let off = self.cx.pool.constant(64, (i * elem) as u128);
            let pg = self.cx.pool.add(b.got, off);
            let pw = self.cx.pool.add(b.want, off);
            let got = self.load_value(state, pg, &t, loc)?[0];
            let want = self.load_value(state, pw, &t, loc)?[0];
            let reference = match b.magnitude {
                Some(m) => {
                    let pm = self.cx.pool.add(m, off);
                    self.load_value(state, pm, &t, loc)?[0]
                }
                None => want,
            };
            let q = CloseQuestion { format: b.format, got, want, reference, tolerance };
            let answer = self.cx.decider.decide_close(&mut self.cx.pool, &state.path, &q);
            tracing::debug!(check = %what, element = i, verdict = ?answer.verdict, "check_close");
            let worst = answer.worst.as_ref().map(|m| self.worst_input(m, show));
            let largest = match &answer.worst {
                Some(m) => describe_error(m),
                None => "no input satisfying the path was tried".to_string(),
            };
            let (verdict, by) = match &answer.verdict {
                CloseVerdict::Within(by) => (ToleranceVerdict::WithinBound, *by),
                CloseVerdict::Exceeds(_, by) => (ToleranceVerdict::Exceeds, *by),
                CloseVerdict::Suspected(_, _, by) => (ToleranceVerdict::MayExceed, *by),
                CloseVerdict::Unknown(why) => {
                    (ToleranceVerdict::WithinBoundOnInputsTried, crate::exec::checks::check_equal::undecided_by(why.kind))
                }
            };
            if !matches!(answer.verdict, CloseVerdict::Unknown(_)) {
                decided.push(by);
            }
            let plotted = plotted_slot(&self.cx.pool, &q).map(|(name, ..)| name);
            self.log.tolerance.push(ToleranceResult {
                what: what.to_string(),
                location: self.cx.location(loc),
                element: i,
                tolerance: tolerance.to_string(),
                verdict,
                decided_by: by,
                worst,
                proved_max: answer.proved_max,
                plotted_input: plotted,
                samples: answer.samples,
                search_note: answer.search_note,
                proof: answer.proof.clone(),
            });
            if failure.is_some() {
                continue;
            }
            let head = format!("{what}: element {i} of {} ", b.count);
            match answer.verdict {
                CloseVerdict::Within(_) => {}
                CloseVerdict::Exceeds(m, by) => {
                    let values = crate::check::libm_model::evaluate_with_host_libm(&self.cx.pool, &[got, want, reference], &m);
                    let at = crate::check::close_encoding::distance(&q, values[&got], values[&want], values[&reference]);
                    let msg = format!(
                        "{head}exceeds {tolerance}: got {}, want {} ({}); largest error found {largest}",
                        show(values[&got]),
                        show(values[&want]),
                        describe_distance(&at)
                    );
                    failure = Some((msg, Some(m), by, true));
                    // One confirmed excess decides the check.
                    break;
                }
                CloseVerdict::Suspected(m, why, by) => {
                    let msg = format!("{head}may exceed {tolerance}; not confirmed: {why}; largest error found {largest}");
                    failure = Some((msg, Some(m), by, false));
                }
                CloseVerdict::Unknown(why) => {
                    let msg = format!(
                        "{head}is within {tolerance} on every input tried; largest error found {largest}; not proved: the solver did not decide the bound ({})",
                        why.detail
                    );
                    failure = Some((msg, None, by, false));
                }
            }
        }
        self.log.check_stats.record(&decided);
        let Some((msg, witness, by, confirmed)) = failure else { return Ok(None) };
        if let Some(f) = self.report(state, FindingKind::Mismatch, loc, msg, witness.as_ref(), Some(by)) {
            if !confirmed {
                f.status = crate::report::Status::Unconfirmed;
                if witness.is_none() {
                    f.witness = None;
                }
            }
        }
        Err(Step::Terminated)
    }

    fn worst_input(&self, m: &Measured, show: impl Fn(u128) -> String) -> WorstInput {
        WorstInput {
            inputs: self.cx.witness(&m.witness),
            input: m.input,
            got: show(m.got),
            want: show(m.want),
            ulps: m.distance.ulps,
            relative: m.distance.relative,
            absolute: m.distance.absolute,
            error: m.distance.measure,
        }
    }
}

/// A distance in words: ulps and relative error.
fn describe_distance(d: &crate::check::close_encoding::Distance) -> String {
    match d.ulps {
        Some(u) => format!("{u} ulp apart, relative error {:.3e}", d.relative),
        None => "a NaN or infinity against a different value".to_string(),
    }
}

/// The largest error found, in words, with where it was found.
fn describe_error(m: &Measured) -> String {
    let at = m.input.map(|x| format!(" at input {x:e}")).unwrap_or_default();
    format!("{}{at}", describe_distance(&m.distance))
}
