//! The engine: the executor (`executor.rs`) with its shared context
//! (`run_context.rs`: module, pool, configuration, decision ladder) and its
//! run log (`run_log.rs`: findings, counters, limits, notes); the run loop,
//! execution states, the initial state, forking, limits, the searchers,
//! path merging and sharding, call dispatch and the reporting of findings.
//! It names no model: what it and the memory instructions need of the C
//! environment, OpenCL and the race analysis goes through the seams it
//! declares (`device::DeviceState`, `model_hooks::ModelHooks`), which the
//! composition root (exec/models.rs) fills.

pub(in crate::exec) mod arity;
pub(in crate::exec) mod branching;
pub(in crate::exec) mod byval_args;
pub(in crate::exec) mod calls;
pub(in crate::exec) mod control;
pub(in crate::exec) mod coverage;
pub mod device;
pub mod executor;
pub(in crate::exec) mod findings;
pub(in crate::exec) mod implied;
pub(in crate::exec) mod initial_state;
pub(in crate::exec) mod limits;
pub(in crate::exec) mod merge;
pub(in crate::exec) mod model_hooks;
pub mod outcome;
pub(in crate::exec) mod path_budget;
pub(in crate::exec) mod postdom;
pub mod run_context;
pub mod run_log;
pub(in crate::exec) mod searcher;
pub mod shard;
pub mod state;
pub mod step;

#[cfg(test)]
mod tests {
    /// The seam holds only while no file of the engine or of the memory
    /// code (exec/memory/, src/memory/) names a model: a `use` or a path
    /// into exec/opencl, exec/env or the race analysis would let them
    /// depend on the models again without anyone noticing.
    #[test]
    fn the_engine_and_the_memory_code_name_no_model() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        // Joined at run time so that this test's own text does not match.
        let forbidden: Vec<String> = [["exec", "opencl"], ["exec", "env"], ["crate", "race"], ["super", "opencl"], ["super", "env"]]
            .iter()
            .map(|p| p.join("::"))
            .collect();
        let mut offences = Vec::new();
        let mut scanned = 0;
        for dir in ["exec/engine", "exec/memory", "memory"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("the folder is readable") {
                let path = entry.expect("directory entry").path();
                let text = std::fs::read_to_string(&path).expect("source is readable");
                scanned += 1;
                for (n, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    if forbidden.iter().any(|f| code.contains(f)) {
                        offences.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
        assert!(scanned > 20, "only {scanned} files scanned: the folders moved?");
        assert!(offences.is_empty(), "the engine or the memory code names a model:\n{}", offences.join("\n"));
    }
}
