//! The pipeline of DESIGN.md section 4 for one run: compile the inputs,
//! translate them to the internal IR, execute from the entry function,
//! and turn the findings into a report.

use crate::check::Decider;
use crate::config::Config;
use crate::exec::Executor;
use crate::frontend::{compile_inputs, CompileOptions};
use crate::ir::Module;
use crate::report::Report;
use crate::Error;
use std::path::PathBuf;

/// A translated module; holds the temporary build directory alive.
pub struct Loaded {
    pub module: Module,
    _build: crate::frontend::CompiledModule,
}

pub fn load(inputs: &[PathBuf], opts: &CompileOptions) -> Result<Loaded, Error> {
    let started = std::time::Instant::now();
    let build = compile_inputs(inputs, opts)?;
    tracing::info!(inputs = inputs.len(), seconds = started.elapsed().as_secs_f64(), "stage: compiled and linked (clang, llvm-link, opt)");
    let started = std::time::Instant::now();
    let module = crate::ir::load_module(build.path()).map_err(|e| match e {
        // The linked module's layout is the inputs' (the runtime model
        // follows them): name the inputs, not the temporary file.
        crate::ir::IrError::UnsupportedLayout { layout, triple, why, .. } => {
            let path = PathBuf::from(inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "));
            crate::ir::IrError::UnsupportedLayout { path, layout, triple, why }
        }
        e => e,
    })?;
    tracing::info!(
        functions = module.functions.len(),
        globals = module.globals.len(),
        seconds = started.elapsed().as_secs_f64(),
        "stage: translated to the internal IR"
    );
    let mut module = module;
    name_files_as_given(&mut module, inputs);
    Ok(Loaded { module, _build: build })
}

/// Debug info names a file relative to the directory clang ran in, which
/// is not how the user wrote it when the input is given by an absolute
/// path or from elsewhere (`/src/x.c` recorded as `x.c`): findings in an
/// input name it exactly as the command line did. Other files (headers)
/// keep clang's name, relative to the same directory.
fn name_files_as_given(module: &mut Module, inputs: &[PathBuf]) {
    let given: Vec<(PathBuf, String)> =
        inputs.iter().filter_map(|p| Some((std::fs::canonicalize(p).ok()?, p.display().to_string()))).collect();
    for file in module.files.iter_mut() {
        let Ok(real) = std::fs::canonicalize(&*file) else { continue };
        if let Some((_, shown)) = given.iter().find(|(p, _)| *p == real) {
            *file = shown.clone();
        }
    }
}

/// Applies the IR passes `config` asks for before a run: with `merge` on,
/// if-conversion of branches whose sides hold at most `fold_threshold`
/// instructions. The caller adds `folded()` to the report's `merged` count.
pub fn prepare(module: &mut Module, config: &Config) -> crate::passes::IfConvertStats {
    if config.merge {
        let stats = crate::passes::if_convert(module, config.fold_threshold);
        tracing::info!(folded = stats.folded(), "stage: if-conversion");
        stats
    } else {
        crate::passes::IfConvertStats::default()
    }
}

/// Builds the decision ladder (solver stack and e-graph) for a config. A
/// malformed rule file is an error naming its file and line.
pub fn decider(config: &Config) -> Result<Decider, Error> {
    let backend = crate::solver_adapter::SolverBackend::new(config);
    let canon = crate::canon_adapter::EgraphCanonicalizer::new(config).map_err(|e| Error::Usage(e.to_string()))?;
    let canon: Option<Box<dyn crate::check::Canonicalizer>> = if config.egraph { Some(Box::new(canon)) } else { None };
    // Without step 2 (`--no-egraph`, to measure what it saves) every check
    // goes straight to the solver: no normal form, no sampling either.
    let trials = if config.egraph { config.sample_trials } else { 0 };
    Ok(Decider::new(Box::new(backend), canon).with_semantics(config.assumptions, trials, config.seed))
}

/// Runs `entry` of `module` symbolically and reports.
pub fn check_module(module: &Module, input_name: &str, entry: &str, config: &Config) -> Result<(Report, Vec<u8>), Error> {
    let Some(f) = module.find_function(entry) else {
        return Err(Error::Usage(format!("{input_name}: no function `{entry}` to start from")));
    };
    if module.function(f).is_declaration() {
        return Err(Error::Usage(format!("{input_name}: `{entry}` is declared but not defined")));
    }
    let mut exec = Executor::new(module, config.clone(), decider(config)?);
    let args: Vec<_> = module
        .function(f)
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // main(argc, argv): argc = 1, argv = NULL-filled; other entry
            // parameters are zero.
            let mut v = exec.undef_value(&p.ty);
            if i == 0 && entry == "main" {
                if let crate::ir::Type::Int(w) = p.ty {
                    v[0] = exec.pool.constant(w, 1);
                }
            }
            v
        })
        .collect();
    let state = exec.initial_state(f, args);
    tracing::info!(entry, "stage: symbolic execution");
    exec.run(state);
    let outcome = exec.finish();
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
        if report.verdict == crate::report::Verdict::Equivalent {
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
    report.symbolic_inputs = outcome.symbolic_inputs;
    if let Some(shard) = config.shard {
        report.mark_shard(crate::report::ShardRecord { index: shard.index + 1, count: shard.count }, outcome.shard_uncertain);
    }
    Ok((report, outcome.output))
}
