//! Casts. Bit casts re-slice the lanes of a value without ever building an
//! expression wider than one lane: each destination lane is the
//! concatenation of the pieces of source lanes it covers. A float-to-integer
//! conversion of NaN or of an out-of-range value is undefined (undefined.rs),
//! and so is breaking a promise of the cast's flags (cast_promises.rs).

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::ops::int_ops::Exec;
use crate::expr::value::{map1, relane, resize, Value};
use crate::expr::{FpFormat, IntRounding};
use crate::ir::{CastOp, Function, Inst, Operand, PoisonFlags};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn exec_cast(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        op: CastOp,
        value: &Operand,
        flags: PoisonFlags,
    ) -> Exec {
        let src_t = self.operand_type(func, value);
        let v = self.operand(state, func, value);
        let to_bits = inst.ty.scalar_bits();
        let p = &mut self.cx.pool;
        let out: Value = match op {
            CastOp::Trunc => map1(&v, |x| p.trunc(x, to_bits)),
            CastOp::ZExt => map1(&v, |x| p.zext(x, to_bits)),
            CastOp::SExt => map1(&v, |x| p.sext(x, to_bits)),
            CastOp::PtrToInt | CastOp::IntToPtr => map1(&v, |x| resize(p, x, to_bits)),
            CastOp::AddrSpaceCast => v.clone(),
            CastOp::BitCast => relane(p, &v, to_bits),
            CastOp::FpTrunc | CastOp::FpExt => {
                let from = self.float_format(state, inst, &src_t)?;
                let to = self.float_format(state, inst, &inst.ty)?;
                v.iter().map(|x| self.cx.pool.fp_convert(from, to, *x)).collect()
            }
            CastOp::FpToSi | CastOp::FpToUi => {
                let from = self.float_format(state, inst, &src_t)?;
                let signed = op == CastOp::FpToSi;
                // NaN and out-of-range values are undefined (undefined.rs);
                // the value assumed for them is the target's: AArch64's
                // FCVTZS/FCVTZU saturate and give 0 for NaN, x86 gives the
                // "integer indefinite" (only the sign bit set).
                let aarch64 = crate::frontend::target::is_aarch64(&self.cx.module.triple);
                let p = &mut self.cx.pool;
                let r: Value = if aarch64 {
                    v.iter()
                        .map(|x| match from {
                            // Every half is a double.
                            FpFormat::Half => {
                                let d = p.fp_convert(FpFormat::Half, FpFormat::Double, *x);
                                crate::neon::saturating_to_int(p, FpFormat::Double, signed, d, to_bits)
                            }
                            f => crate::neon::saturating_to_int(p, f, signed, *x, to_bits),
                        })
                        .collect()
                } else {
                    v.iter().map(|x| p.fp_to_int(signed, IntRounding::TowardZero, from, *x, to_bits)).collect()
                };
                if state.gpu.is_none() {
                    self.cast_poison(inst, signed, from, &v, &r);
                }
                r
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let to = self.float_format(state, inst, &inst.ty)?;
                let signed = op == CastOp::SiToFp;
                v.iter().map(|x| self.cx.pool.int_to_fp(signed, to, *x)).collect()
            }
        };
        // Kernels keep their casts' results, as their other promises
        // (int_ops.rs): only signed overflow is undefined there.
        if flags != PoisonFlags::default() && state.gpu.is_none() {
            self.cast_promise_poison(inst, op, flags, &v, &out);
        }
        Ok(out)
    }
}
