//! A run from an entry function (`symcross check`, `symcross run`, the
//! bench's harnesses): execute it symbolically and turn the outcome into a
//! report, with the notes on NaN semantics the verdict rests on.

use super::Loaded;
use crate::config::Config;
use crate::driver::DriverError;
use crate::exec::Executor;
use crate::report::Report;

/// Runs `entry` of `loaded` symbolically and reports; also returns what
/// the program wrote (printf, puts) on its paths.
pub fn check_module(loaded: &Loaded, input_name: &str, entry: &str, config: &Config) -> Result<(Report, Vec<u8>), DriverError> {
    let module = &loaded.module;
    let Some(f) = module.find_function(entry) else {
        return Err(DriverError::NoEntry { input: input_name.to_string(), entry: entry.to_string() });
    };
    if module.function(f).is_declaration() {
        return Err(DriverError::EntryNotDefined { input: input_name.to_string(), entry: entry.to_string() });
    }
    let mut exec = Executor::new(module, config.clone(), super::decider(config)?);
    if let Some(device) = &loaded.cuda_device {
        exec.install_cuda_device(device.clone());
    }
    let mut state = exec.entry_state(f);
    exec.lay_out_cuda_device(&mut state);
    tracing::info!(entry, "stage: symbolic execution");
    let outcome = exec.run(state);
    tracing::info!(
        paths = outcome.stats.paths,
        instructions = outcome.stats.instructions,
        queries = outcome.stats.queries,
        findings = outcome.findings.len(),
        seconds = outcome.stats.seconds,
        "stage: execution finished"
    );
    let mut report = Report::new(
        input_name.to_string(),
        config.assumptions.names(),
        outcome.findings,
        outcome.stats,
        outcome.limit,
        Some(outcome.coverage),
    );
    // Any check may compare floats; the reader must know how NaNs count.
    report.semantics.push(config.nan.note().to_string());
    if config.nan == crate::expr::NanModel::Canonical && exec.read_float_bits() {
        report.warnings.push(crate::report::Warning {
            kind: "nan-bits-read",
            message: "the program reads the bits of floating-point results with integer operations (a sign bit, a mask, a bit cast); \
                      under --nan equal a computed NaN has the canonical NaN's bits, not the CPU's, so a NaN reaching such a read \
                      is not covered by this verdict: run with --nan exact to check NaN bits"
                .to_string(),
        });
        // Proved with NaN bits the CPU does not produce: not a proof.
        if matches!(report.verdict, crate::report::Verdict::Equivalent | crate::report::Verdict::NoFindings) {
            report.verdict = crate::report::Verdict::Inconclusive;
        }
    }
    if config.nan.is_exact() && config.assumptions.has(crate::assumptions::Assumption::Associativity) {
        // The reassociation normal form also reorders operands, which
        // changes which NaN operand a sum passes on.
        report.semantics.push(
            "associativity also lets + and * reorder their operands, so which NaN a reassociated sum or product passes on is not checked"
                .to_string(),
        );
    }
    // Paths cut by a limit (a loop bound, the memory a symbolic access
    // would need): say where, as `race` does.
    for note in outcome.path_cuts {
        report.warnings.push(crate::report::Warning { kind: "path-cut", message: note });
    }
    report.symbolic_inputs = outcome.symbolic_inputs;
    report.tolerance = outcome.tolerance;
    report.stats.merged += loaded.folded;
    if let Some(shard) = config.shard {
        report.mark_shard(crate::report::ShardRecord { index: shard.index + 1, count: shard.count }, outcome.shard_uncertain);
    }
    Ok((report, outcome.output))
}
