//! The layers of src/ run one way (README, Layout): read from the `crate::`
//! paths of every source file, a top-level module uses only modules of
//! its own layer or below, no two top-level modules use each other, the
//! data types under the executor do not name it, the engine and the memory
//! code reach the models only through their seams, and the root of src/
//! holds only the crate's entry points and the few files every layer
//! shares.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may use the modules of its own
/// layer and of the layers below; `check_layers_are_exhaustive` makes sure
/// every top-level module has a place here.
const LAYERS: &[&[&str]] = &[
    // What every stage may use: the process (interrupts, the memory
    // ceiling, temporary files), the assumption set, the one mixing
    // function of seeded and hashed choices.
    &["process", "assumptions", "splitmix"],
    // The expression language.
    &["expr"],
    // The IR and the configuration, over expressions.
    &["ir", "config", "ranges"],
    // Data and analyses over the IR and expressions, which know nothing of
    // execution: memory model, intrinsic semantics, passes, the e-graph,
    // solvers, clang, reports.
    &["memory", "simd", "passes", "canon", "solver", "frontend", "report"],
    // What builds on those: NEON over the x86 helpers, the race analysis
    // over the memory model, the decision ladder, rule proofs, replay and
    // suites.
    &["neon", "race", "check", "rule_proof", "replay", "suite"],
    // Symbolic execution.
    &["exec"],
    // The stages run in order for a command.
    &["driver"],
    // The command line, and the one error its commands return, which
    // wraps each layer's typed error.
    &["cli", "error"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of src/ belongs to: its first folder, or
/// its own name for a file at the root (`lib` and `main` included).
fn top_module(path: &Path) -> String {
    let rel = path.strip_prefix(src()).expect("a file under src/");
    let first = rel.components().next().expect("a path").as_os_str().to_string_lossy().to_string();
    first.trim_end_matches(".rs").to_string()
}

/// The code of each line of `text` (line and doc comments left out), with
/// its 1-based line number.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(n, line)| (n + 1, line.split("//").next().unwrap_or("")))
}

/// The top-level modules `text` names through `crate::` in code, with the
/// first line naming each.
fn used_modules(text: &str) -> BTreeMap<String, usize> {
    let mut used = BTreeMap::new();
    for (n, code) in code_lines(text) {
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `crate::Error` is the root's re-export of error::Error.
            let name = if name == "Error" { "error".to_string() } else { name };
            if !name.is_empty() {
                used.entry(name).or_insert(n);
            }
            rest = after;
        }
    }
    used
}

/// Every arrow between top-level modules: (from, to) -> where it is first seen.
fn module_graph() -> BTreeMap<(String, String), String> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut arrows = BTreeMap::new();
    for path in files {
        let from = top_module(&path);
        if from == "lib" || from == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source is readable");
        for (to, line) in used_modules(&text) {
            if to != from {
                arrows.entry((from.clone(), to)).or_insert_with(|| format!("{}:{line}", path.display()));
            }
        }
    }
    arrows
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[test]
fn check_layers_are_exhaustive() {
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(src()).expect("src/ is readable") {
        let name = top_module(&entry.expect("directory entry").path());
        if name != "lib" && name != "main" {
            modules.insert(name);
        }
    }
    let missing: Vec<_> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(missing.is_empty(), "top-level modules without a layer in tests/layers.rs: {missing:?}");
}

#[test]
fn imports_point_down_the_layers() {
    let mut offences = Vec::new();
    for ((from, to), at) in module_graph() {
        let (Some(f), Some(t)) = (layer_of(&from), layer_of(&to)) else {
            offences.push(format!("{at}: `{from}` uses `{to}`, which has no layer"));
            continue;
        };
        if t > f {
            offences.push(format!("{at}: `{from}` (layer {f}) uses `{to}` (layer {t}), above it"));
        }
    }
    assert!(offences.is_empty(), "imports that run up the layers:\n{}", offences.join("\n"));
}

#[test]
fn no_two_top_level_modules_use_each_other() {
    let arrows = module_graph();
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        graph.entry(from).or_default().insert(to);
    }
    // A cycle exists when some module reaches itself.
    let mut cycles = Vec::new();
    for start in graph.keys() {
        let mut stack: Vec<Vec<&str>> = vec![vec![start]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = *path.last().expect("non-empty");
            for next in graph.get(last).into_iter().flatten() {
                if next == start {
                    let mut cycle = path.clone();
                    cycle.push(next);
                    cycles.push(cycle.join(" -> "));
                } else if seen.insert(*next) {
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push(longer);
                }
            }
        }
    }
    let detail: Vec<String> = cycles
        .iter()
        .map(|c| {
            let parts: Vec<&str> = c.split(" -> ").collect();
            let first = arrows.get(&(parts[0].to_string(), parts[1].to_string())).cloned().unwrap_or_default();
            format!("{c} (first arrow at {first})")
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles between top-level modules:\n{}", detail.join("\n"));
}

#[test]
fn the_data_layers_do_not_name_the_executor() {
    let mut offences = Vec::new();
    for ((from, to), at) in module_graph() {
        if to == "exec" && ["simd", "neon", "race", "memory", "config", "expr", "ir"].contains(&from.as_str()) {
            offences.push(format!("{at}: `{from}` uses the executor"));
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

/// The seam holds only while no file of the engine or of the memory code
/// (exec/engine/, exec/memory/, src/memory/) names a model: a `use` or a
/// path into exec/opencl, exec/env or the race analysis would let them
/// depend on the models again without anyone noticing. What they need of
/// the models is a method of `ModelHooks` or `DeviceState`.
#[test]
fn the_engine_and_the_memory_code_name_no_model() {
    // Joined at run time so that this test's own text does not match.
    let forbidden: Vec<String> = [["exec", "opencl"], ["exec", "env"], ["crate", "race"], ["super", "opencl"], ["super", "env"]]
        .iter()
        .map(|p| p.join("::"))
        .collect();
    let mut offences = Vec::new();
    let mut scanned = 0;
    for dir in ["exec/engine", "exec/memory", "memory"] {
        let mut files = Vec::new();
        rust_files(&src().join(dir), &mut files);
        for path in files {
            scanned += 1;
            let text = std::fs::read_to_string(&path).expect("source is readable");
            for (n, code) in code_lines(&text) {
                if forbidden.iter().any(|f| code.contains(f)) {
                    offences.push(format!("{}:{n}: {}", path.display(), code.trim()));
                }
            }
        }
    }
    assert!(scanned > 20, "only {scanned} files scanned: the folders moved?");
    assert!(offences.is_empty(), "the engine or the memory code names a model:\n{}", offences.join("\n"));
}

#[test]
fn the_root_of_src_holds_at_most_five_files_besides_lib_and_main() {
    let mut loose: Vec<String> = std::fs::read_dir(src())
        .expect("src/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_name().expect("a file name").to_string_lossy().to_string())
        .filter(|n| n != "lib.rs" && n != "main.rs")
        .collect();
    loose.sort();
    assert!(loose.len() <= 5, "loose files at the root of src/: {loose:?}");
}

#[test]
fn the_scanner_sees_crate_paths_in_code_only() {
    let text = "use crate::expr::ExprId; // crate::exec\n/// see crate::driver\nlet e = crate::Error::Usage(x);";
    let used: Vec<String> = used_modules(text).into_keys().collect();
    assert_eq!(used, ["error", "expr"]);
}
