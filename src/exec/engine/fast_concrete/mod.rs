//! The fast tier for concrete code. Most instructions of a program that
//! computes on numbers (a harness's set-up loops, a table it fills, the
//! scalar reference run on constants) need none of the engine's
//! machinery: no fork, no solver, no finding. The general step
//! (step.rs) still pays for it on each of them: the instruction decoded
//! from its IR form, every operand copied into a fresh value, the run
//! loop's bookkeeping. This tier runs stretches of such instructions on a
//! pre-decoded form of each function (decode.rs: operands as register
//! numbers or ready constants, phi moves listed per edge, calls and
//! branch targets resolved) inside one turn of the run loop (run.rs).
//!
//! It changes nothing of what a run computes: every value is the handle
//! the general step builds, on the same frame registers and memory, and
//! every expression node is made by the same pool calls in the same
//! order. Only constants may be made fewer (vectors of numbers are held as
//! plain bits while a stretch runs, raw_lanes.rs and raw_ops.rs, and
//! become constants when they outlive it); the pool keeps those apart
//! from its nodes, so no node's number depends on them (the handles of
//! wide constants, numbered among themselves, may differ). An instruction
//! it cannot run exactly as the general step would (a symbolic operand
//! where that matters, an access
//! that may leave its object or read indeterminate bytes, an operation
//! that may be undefined, a call to anything but a plain module function,
//! a kernel or a state with open merge regions or indeterminate bits) ends
//! the stretch before it changes anything, and the general step runs it
//! from the very same state. `--no-fast-concrete` turns the tier off
//! (config/fast_concrete.rs), for comparing the two.

mod decode;
mod device_access;
mod raw_lanes;
mod raw_ops;
mod run;
mod work_item_ids;

pub(in crate::exec) use decode::FastCode;
