//! The deciding budget of a query, in work units rather than seconds: a
//! verdict near the limit then does not depend on how busy the machine is
//! (a wall-clock limit of 10 s left a proof undecided on a machine running
//! twenty builds, and decided on an idle one).
//!
//! The unit is Z3's `rlimit`. Each backend spends the budget in the units
//! it counts: Z3 (in process or as a program) directly; cvc5 in its own
//! `--rlimit-per` units, converted at the measured rate; Bitwuzla counts
//! no work units, so it gets the CPU time the budget takes Z3 (CPU time
//! hardly moves with load, unlike the wall clock, but it is not the same on
//! every machine: such an answer is labelled [`UnknownKind::CpuBudget`]).
//! cvc5 does not count all its work, so it has a CPU backstop too.
//!
//! Calibration (README, "Solver budgets"), on this project's 2-core
//! machine: the factoring branch of tests/fixtures/signals/hard_z3_query.c
//! used 2,000,000 Z3 units in 0.71 s of CPU and 20,000,000 in 10.4 s; the
//! double product of tests/fixtures/confidence/solver_timeout_only.c used
//! 400,000 cvc5 units in 4.7 s of cvc5's CPU, and the README's SIMDe
//! `_mm_dp_pd` check about 250,000 a second (it needs about 1,000,000). So
//! the default, 20,000,000 units, is about the old 10 s limit on an idle
//! machine; in cvc5's units it is 2,500,000 (10 s at the faster rate: the
//! conversion leans toward deciding).
//!
//! [`UnknownKind::CpuBudget`]: super::UnknownKind::CpuBudget

use std::time::Duration;

/// The default deciding budget of one query (`--query-budget`): about ten
/// seconds of Z3 on the calibration machine.
pub use crate::config::DEFAULT_QUERY_BUDGET;

/// Z3 units one second of CPU stands for, for a solver that counts no work
/// units (Bitwuzla): Z3's rate on its first two million units, where the
/// portfolio hands a query on.
pub const Z3_UNITS_PER_CPU_SECOND: u32 = 2_000_000;

/// Z3 units per cvc5 `--rlimit-per` unit (20,000,000 Z3 units and
/// 2,500,000 cvc5 units are each some ten seconds of CPU).
pub const Z3_UNITS_PER_CVC5_UNIT: u32 = 8;

/// How many times the CPU time a budget stands for a solver that counts
/// work units of its own (cvc5, z3 as a program) may use before it is
/// stopped anyway: cvc5 does not count every step (a query of
/// solver_timeout_only.c ran 3.5 minutes of CPU within 1,000,000 units).
pub const CPU_BACKSTOP_FACTOR: u32 = 3;

/// The CPU backstop of a solver that counts work units of its own: at
/// least a second, so that a small budget runs out in the solver's units,
/// the same every time, before the backstop can.
pub fn cpu_backstop(units: u32) -> Duration {
    (cpu_time(units) * CPU_BACKSTOP_FACTOR).max(Duration::from_secs(1))
}

/// The CPU time `units` stand for with a solver that counts none.
pub fn cpu_time(units: u32) -> Duration {
    Duration::from_micros(u64::from(units) * 1_000_000 / u64::from(Z3_UNITS_PER_CPU_SECOND))
}

/// `units` in cvc5's own units (at least one).
pub fn cvc5_units(units: u32) -> u32 {
    (units / Z3_UNITS_PER_CVC5_UNIT).max(1)
}

/// The wall-clock backstop of a budgeted query given to a solver program
/// when the user set no time limit: only a solver that stops spending CPU
/// (blocked, never answering) can reach it, so it is generous.
pub const PROCESS_BACKSTOP: Duration = Duration::from_secs(600);

/// The report's words for a deciding budget that ran out.
pub fn ran_out(units: u32, how: &str) -> String {
    format!("the deciding budget of {units} work units (--query-budget) ran out{how}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_stands_for_about_the_old_ten_seconds() {
        assert_eq!(cpu_time(DEFAULT_QUERY_BUDGET), Duration::from_secs(10));
        assert_eq!(cvc5_units(DEFAULT_QUERY_BUDGET), 2_500_000);
        assert_eq!(cpu_backstop(DEFAULT_QUERY_BUDGET), Duration::from_secs(30));
        assert_eq!(cpu_backstop(1_000), Duration::from_secs(1));
    }

    #[test]
    fn tiny_budgets_stay_positive_and_name_themselves() {
        assert_eq!(cvc5_units(1), 1);
        assert_eq!(cpu_time(2), Duration::from_micros(1));
        assert_eq!(ran_out(7, ""), "the deciding budget of 7 work units (--query-budget) ran out");
    }
}
