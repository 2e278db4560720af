//! Building the harness natively, with AddressSanitizer and
//! UndefinedBehaviorSanitizer, against the replay runtime
//! (cl-runtime-model/replay/), and running it on one witness.

use super::exe_cache::ExeCache;
use crate::frontend::CompileOptions;
use crate::replay::ReplayError;
use crate::report::BuildRecord;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Exit status of the replay runtime when a witness input's size differs
/// from what the harness asks for (replay_runtime.c).
pub const EXIT_WITNESS_MISFIT: i32 = 86;

/// A native run that has not ended after this long is stopped (a safety
/// net against a harness that loops forever natively, not a budget).
const RUN_LIMIT: Duration = Duration::from_secs(600);

/// The fixed flags: what `check` compiles with, for this CPU.
const BASE_FLAGS: &[&str] = &["-O0", "-g", "-march=native", "-ffp-contract=off", "-fno-omit-frame-pointer"];

/// Sanitizers: memory errors (ASan) and undefined behaviour (UBSan). Only
/// integer division by zero stops the run; the other UB checks report and
/// go on, since symcross gives those operations their x86 result (signed
/// overflow wraps, out-of-range float conversions give the indefinite
/// value) and stopping there would hide the finding being replayed.
const SANITIZER_FLAGS: &[&str] = &["-fsanitize=address,undefined", "-fno-sanitize-recover=integer-divide-by-zero"];

/// What to build: inputs and compile options after merging the report's
/// record with the command line.
#[derive(Clone, Debug, Default)]
pub struct BuildPlan {
    /// Sources to compile and link.
    pub inputs: Vec<PathBuf>,
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions.
    pub defines: Vec<String>,
    /// Further flags for clang.
    pub cflags: Vec<String>,
    /// The target triple (`--target`); `None` for this CPU.
    pub target: Option<String>,
    /// `--nan` of the checked run: under `equal`, the runtime's
    /// symcross_check_equal counts two NaNs as equal (SYMCROSS_NAN).
    pub nan: String,
}

impl BuildPlan {
    /// The options in command-line form, for messages.
    pub fn describe(&self) -> String {
        // Paths under the working directory read as the user would type
        // them there (the plan holds them resolved against the report's).
        let cwd = std::env::current_dir().ok();
        let shown = |p: &PathBuf| cwd.as_deref().and_then(|c| p.strip_prefix(c).ok()).unwrap_or(p).display().to_string();
        let mut parts: Vec<String> = self.inputs.iter().map(shown).collect();
        parts.extend(self.include_dirs.iter().map(|d| format!("-I {}", shown(d))));
        parts.extend(self.defines.iter().map(|d| format!("-D {d}")));
        if !self.cflags.is_empty() {
            parts.push(format!("--cflags \"{}\"", self.cflags.join(" ")));
        }
        if let Some(t) = &self.target {
            parts.push(format!("--target {t}"));
        }
        parts.join(" ")
    }
}

/// A path the report recorded, resolved against the directory of the run
/// that wrote it when it is relative.
fn resolve(p: &str, dir: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(p);
    match dir {
        Some(d) if path.is_relative() && d.join(&path).exists() => d.join(path),
        _ => path,
    }
}

fn define_name(d: &str) -> &str {
    d.split('=').next().unwrap_or(d)
}

/// Merges the report's build record with the command line: harness files
/// given on the command line replace the recorded inputs, -I directories
/// given are searched first, -D NAME replaces the recorded definition of
/// NAME, and --cflags replaces the recorded flags.
pub fn plan(
    recorded: Option<&BuildRecord>,
    harness: &[PathBuf],
    cli: &CompileOptions,
    cli_cflags_given: bool,
) -> Result<BuildPlan, ReplayError> {
    let dir = recorded.and_then(|r| r.run_directory());
    let inputs = if !harness.is_empty() {
        harness.to_vec()
    } else if let Some(r) = recorded.filter(|r| !r.inputs.is_empty()) {
        r.inputs.iter().map(|i| resolve(i, dir)).collect()
    } else {
        return Err(ReplayError::InputsNotRecorded);
    };
    for input in &inputs {
        if !input.is_file() {
            return Err(ReplayError::HarnessMissing(input.clone()));
        }
        let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext.eq_ignore_ascii_case("cl") {
            return Err(ReplayError::KernelAlone(input.clone()));
        }
    }
    let mut p = BuildPlan {
        inputs,
        include_dirs: cli.include_dirs.clone(),
        defines: cli.defines.clone(),
        cflags: cli.cflags.clone(),
        target: cli.target.clone(),
        nan: "equal".to_string(),
    };
    if let Some(r) = recorded {
        p.nan = r.nan.clone().unwrap_or_else(|| "equal".to_string());
        if p.target.is_none() {
            p.target = r.target.clone();
        }
        if r.entry != "main" {
            return Err(ReplayError::NotFromMain(r.entry.clone()));
        }
        p.include_dirs.extend(r.include_dirs.iter().map(|i| resolve(i, dir)));
        let overridden: Vec<String> = cli.defines.iter().map(|d| define_name(d).to_string()).collect();
        p.defines.extend(r.defines.iter().filter(|d| !overridden.iter().any(|o| o == define_name(d))).cloned());
        if !cli_cflags_given {
            p.cflags = r.cflags.clone();
        }
    }
    if p.target.is_none() {
        // IR compiled for AArch64 and checked without --target was checked
        // with AArch64's semantics (its triple says so): replay it there.
        p.target = p.inputs.iter().find_map(|i| textual_ir_triple(i)).filter(|t| crate::frontend::target::is_aarch64(t));
    }
    if let Some(t) = p.target.as_deref() {
        crate::frontend::target::normalize(t).map_err(ReplayError::Target)?;
    }
    Ok(p)
}

/// The target triple a textual IR input names (`target triple = "..."`).
fn textual_ir_triple(input: &Path) -> Option<String> {
    if !input.extension().is_some_and(|e| e.eq_ignore_ascii_case("ll")) {
        return None;
    }
    let text = std::fs::read_to_string(input).ok()?;
    text.lines().find_map(|l| l.strip_prefix("target triple = \"")?.strip_suffix('"').map(str::to_string))
}

/// A native build of the harness; the directory is removed on drop.
pub struct NativeProgram {
    dir: crate::process::tempdirs::RunDir,
    exe: PathBuf,
    /// The emulator the program runs under (qemu-aarch64 for AArch64).
    emulator: Option<Emulator>,
    /// The executable came from the cache: no clang or linker ran.
    from_cache: bool,
}

/// A user-mode emulator for a program of another instruction set, with the
/// directory holding that target's C library (its `-L`).
#[derive(Clone, Debug)]
pub struct Emulator {
    pub program: PathBuf,
    pub sysroot: PathBuf,
}

/// Debian's qemu-user and libc6-dev-arm64-cross.
pub fn aarch64_emulator() -> Emulator {
    Emulator { program: PathBuf::from("qemu-aarch64"), sysroot: PathBuf::from("/usr/aarch64-linux-gnu") }
}

/// AArch64 builds: no sanitizers (Debian ships no AArch64 sanitizer
/// runtimes for clang), no -march=native; the cross C library's headers.
const AARCH64_FLAGS: &[&str] = &["-O0", "-g", "-ffp-contract=off", "-fno-omit-frame-pointer"];

/// The harness's heap functions, linked to the guard-page allocator of
/// the replay runtime where no sanitizer exists.
const GUARD_PAGE_LINKING: &[&str] =
    &["-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=posix_memalign,--wrap=aligned_alloc"];

fn is_cxx(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("cc" | "cpp" | "cxx" | "C"))
}

/// Compiles the plan's inputs and the replay runtime with the sanitizers.
pub fn build(plan: &BuildPlan) -> Result<NativeProgram, ReplayError> {
    // A locked run directory: removed on drop, and by the next run if this
    // one is killed.
    let dir = crate::process::tempdirs::create("replay-").map_err(ReplayError::TempDir)?;
    let runtime = crate::frontend::runtime_dir().ok_or(ReplayError::NoRuntime)?;
    let exe = dir.path().join("replay");
    let cxx = plan.inputs.iter().any(|p| is_cxx(p));
    let mut cmd = Command::new(crate::frontend::Tools::locate().clang);
    if cxx {
        cmd.arg("--driver-mode=g++");
    }
    let emulator = match plan.target.as_deref() {
        Some(t) if crate::frontend::target::is_aarch64(t) => {
            cmd.arg(format!("--target={t}")).args(AARCH64_FLAGS);
            Some(aarch64_emulator())
        }
        Some(t) => {
            cmd.arg(format!("--target={t}")).args(BASE_FLAGS).args(SANITIZER_FLAGS);
            None
        }
        None => {
            cmd.args(BASE_FLAGS).args(SANITIZER_FLAGS);
            None
        }
    };
    // The runtime's own files take the build's flags but none of the
    // user's -I and -D (they are for the harness): compiled once per set of
    // flags and kept (`runtime_object`), or with the harness when that fails.
    let mut runtime_flags: Vec<std::ffi::OsString> = cmd.get_args().map(|a| a.to_os_string()).collect();
    runtime_flags.push("-I".into());
    runtime_flags.push(runtime.clone().into_os_string());
    runtime_flags.extend(plan.cflags.iter().map(Into::into));
    cmd.arg("-I").arg(&runtime);
    for i in &plan.include_dirs {
        cmd.arg("-I").arg(i);
    }
    for d in &plan.defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.args(&plan.cflags);
    // What a dependency listing needs: the compile flags, without inputs.
    let compile_args: Vec<std::ffi::OsString> = cmd.get_args().map(|a| a.to_os_string()).collect();
    cmd.args(&plan.inputs);
    let mut runtime_files = vec![runtime.join("replay/replay_runtime.c")];
    if emulator.is_some() {
        // No sanitizer there: heap blocks end on a guard page instead, so
        // that running past one faults (guard_pages.c).
        runtime_files.push(runtime.join("replay/guard_pages.c"));
        cmd.args(GUARD_PAGE_LINKING);
    }
    let clang = crate::frontend::Tools::locate().clang;
    let mut compiled_here = plan.inputs.len();
    for src in &runtime_files {
        match (!cxx).then(|| runtime_object(&clang, &runtime_flags, src)).flatten() {
            Some(object) => cmd.arg(object),
            None => {
                compiled_here += 1;
                cmd.arg("-x").arg("c").arg(src).arg("-x").arg("none")
            }
        };
    }
    if emulator.is_none() && plan.target.as_deref().is_none_or(|t| t.starts_with("x86_64")) {
        if let Some(dir) = shared_sanitizer_dir(&clang) {
            // The sanitizers' shared runtime: linking it takes a fraction
            // of the time the static archive does.
            cmd.arg("-shared-libsan").arg(format!("-Wl,-rpath,{}", dir.display()));
        }
    }
    cmd.arg("-lm");
    let all_inputs: Vec<PathBuf> = plan.inputs.iter().chain(&runtime_files).cloned().collect();
    let args: Vec<std::ffi::OsString> = cmd.get_args().map(|a| a.to_os_string()).collect();
    let cache = ExeCache::for_build(&clang, &args, &all_inputs);
    if cache.as_ref().is_some_and(|c| c.lookup(&exe)) {
        return Ok(NativeProgram { dir, exe, emulator, from_cache: true });
    }
    // One compiled file writes its own dependency file (-MD); several
    // would overwrite one another's, so they are listed apart (-M).
    let depfile = dir.path().join("replay.d");
    if cache.is_some() && compiled_here == 1 {
        cmd.arg("-MD").arg("-MF").arg(&depfile);
    }
    cmd.arg("-o").arg(&exe);
    let mut built = cmd.output().map_err(|source| ReplayError::CannotRun { what: "clang", source })?;
    // An OpenCL host program runs against the real OpenCL implementation
    // installed (the ICD loader, e.g. with pocl).
    if !built.status.success() && String::from_utf8_lossy(&built.stderr).contains("undefined reference to `cl") {
        built = cmd.arg("-lOpenCL").output().map_err(|source| ReplayError::CannotRun { what: "clang", source })?;
    }
    if !built.status.success() {
        return Err(ReplayError::BuildFailed { plan: plan.describe(), stderr: String::from_utf8_lossy(&built.stderr).into_owned() });
    }
    if let Some(cache) = cache {
        let deps = if compiled_here == 1 {
            std::fs::read_to_string(&depfile).ok()
        } else {
            let listed =
                Command::new(&clang).args(&compile_args).arg("-M").args(&plan.inputs).stdin(Stdio::null()).stderr(Stdio::null()).output();
            listed.ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        };
        if let Some(deps) = deps {
            cache.store(&exe, &deps);
        }
    }
    Ok(NativeProgram { dir, exe, emulator, from_cache: false })
}

/// The replay runtime file `src` compiled with `flags` into an object in
/// the cache directory (frontend's `cache_dir`), under a key of the
/// compiler, the flags and the file's text, so that a run compiles only
/// the harness. None when caching is off or the compile fails.
fn runtime_object(clang: &Path, flags: &[std::ffi::OsString], src: &Path) -> Option<PathBuf> {
    let dir = crate::frontend::cache_dir()?;
    let mut d = crate::frontend::Digest::new();
    d.add(env!("CARGO_PKG_VERSION").as_bytes());
    d.add(clang.as_os_str().as_encoded_bytes());
    if let Ok(m) = std::fs::metadata(clang) {
        let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |t| t.as_nanos());
        d.add(&m.len().to_le_bytes());
        d.add(&mtime.to_le_bytes());
    }
    for f in flags {
        d.add(f.as_encoded_bytes());
    }
    d.add(src.as_os_str().as_encoded_bytes());
    d.add(&std::fs::read(src).ok()?);
    let stem = src.file_stem()?.to_str()?;
    let target = dir.join(format!("replay-{stem}-{}.o", d.hex()));
    if target.is_file() {
        return Some(target);
    }
    std::fs::create_dir_all(&dir).ok()?;
    let tmp = tempfile::Builder::new().suffix(".o").tempfile_in(&dir).ok()?;
    let built = Command::new(clang)
        .args(flags)
        .arg("-c")
        .arg("-x")
        .arg("c")
        .arg(src)
        .arg("-o")
        .arg(tmp.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    if !built.success() {
        return None;
    }
    tmp.persist(&target).ok()?;
    prune_objects(&dir, &target, stem);
    Some(target)
}

/// Runtime objects of one file kept in the cache: enough for the flag
/// sets a user alternates between.
const KEEP_OBJECTS: usize = 16;

/// Deletes the oldest `replay-STEM-*.o` beyond KEEP_OBJECTS.
fn prune_objects(dir: &Path, newest: &Path, stem: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let prefix = format!("replay-{stem}-");
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".o")))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (_, old) in files.into_iter().skip(KEEP_OBJECTS).filter(|(_, p)| p != newest) {
        let _ = std::fs::remove_file(old);
    }
}

/// The directory of clang's shared sanitizer runtime for x86-64
/// (`lib/clang/VERSION/lib/linux` beside clang's real binary), if there.
fn shared_sanitizer_dir(clang: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(clang).ok().or_else(|| {
        let on_path = std::env::var_os("PATH")?;
        std::env::split_paths(&on_path).map(|d| d.join(clang)).find(|p| p.is_file()).and_then(|p| std::fs::canonicalize(p).ok())
    })?;
    let root = real.parent()?.parent()?.join("lib/clang");
    std::fs::read_dir(root).ok()?.flatten().map(|v| v.path().join("lib/linux")).find(|d| d.join("libclang_rt.asan-x86_64.so").is_file())
}

/// The signal the replay runtime stops a run with after `RUN_LIMIT`.
const SIGALRM: i32 = 14;

/// One witness to run: the finding's number (names its files), its inputs
/// (name, hex bytes), and whether the runtime compares with all NaNs equal.
pub struct WitnessRun<'a> {
    pub index: usize,
    pub witness: &'a [(String, String)],
    pub nans_equal: bool,
    /// The `--tolerance` a `symcross_check_equal` finding exceeded
    /// (`ulp:2`, `rel:1e-6`): the runtime's check_equal then compares float
    /// elements within it, so the finding reproduces only if the CPU's
    /// values exceed it too.
    pub tolerance: Option<&'a str>,
}

/// What one native run did.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// The exit status, when the program exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// What it printed on standard output.
    pub stdout: String,
    /// What it printed on standard error.
    pub stderr: String,
    /// The replay runtime's event log, one line per event.
    pub events: Vec<String>,
    /// The run was stopped after `RUN_LIMIT`.
    pub stopped: bool,
}

/// llvm-symbolizer for the sanitizers' reports and the runtime's call
/// sites: beside clang, on PATH, or in LLVM 19's bin directory.
fn symbolizer() -> Option<PathBuf> {
    let clang = crate::frontend::Tools::locate().clang;
    let mut candidates: Vec<PathBuf> =
        clang.parent().map(|d| vec![d.join("llvm-symbolizer-19"), d.join("llvm-symbolizer")]).unwrap_or_default();
    candidates.push(PathBuf::from("/usr/lib/llvm-19/bin/llvm-symbolizer"));
    candidates.into_iter().find(|p| p.is_file())
}

impl NativeProgram {
    /// Whether the executable came from the cache (exe_cache.rs):
    /// no clang or linker ran for it.
    pub fn built_from_cache(&self) -> bool {
        self.from_cache
    }

    /// Where the program runs, for messages and reports: `qemu-aarch64`
    /// for an emulated build, else `this CPU`.
    pub fn runs_on(&self) -> &'static str {
        if self.emulator.is_some() {
            "qemu-aarch64"
        } else {
            "this CPU"
        }
    }

    /// Runs every witness (input name, hex bytes; the runtime compares
    /// with all NaNs equal when `nans_equal`, as the check compared the
    /// finding's element, else bit for bit) with one process of the build: the replay
    /// runtime forks a child per witness before `main` (its batch mode),
    /// so the sanitizer runtime or the emulator starts once, and each
    /// witness still runs in a process of its own. One result per run, in
    /// order.
    pub fn run_all(&self, runs: &[WitnessRun<'_>]) -> Result<Vec<Result<RunResult, ReplayError>>, ReplayError> {
        let dir = self.dir.path();
        let file = |name: &str, index: usize, ext: &str| dir.join(format!("{name}-{index}.{ext}"));
        let mut list = String::new();
        for r in runs {
            let wfile = file("witness", r.index, "txt");
            let lines: String = r.witness.iter().map(|(k, v)| format!("{k} {}\n", if v.is_empty() { "-" } else { v })).collect();
            std::fs::write(&wfile, lines).map_err(|source| ReplayError::Write { path: wfile.clone(), source })?;
            for stale in [file("events", r.index, "log"), file("status", r.index, "txt")] {
                let _ = std::fs::remove_file(stale);
            }
            let nan = if r.nans_equal { "equal" } else { "exact" };
            list.push_str(&format!("{} {nan} {}\n", r.index, r.tolerance.unwrap_or("-")));
        }
        let batch = dir.join("batch.txt");
        std::fs::write(&batch, list).map_err(|source| ReplayError::Write { path: batch.clone(), source })?;
        let mut cmd = match &self.emulator {
            Some(e) => {
                let mut c = Command::new(&e.program);
                c.arg("-L").arg(&e.sysroot).arg(&self.exe);
                c
            }
            None => Command::new(&self.exe),
        };
        let parent_err = dir.join("batch-stderr.txt");
        let create = |p: &Path| std::fs::File::create(p).map_err(|source| ReplayError::Write { path: p.to_path_buf(), source });
        cmd.env("SYMCROSS_BATCH_DIR", dir)
            .env("SYMCROSS_BATCH", &batch)
            .env("SYMCROSS_RUN_LIMIT", RUN_LIMIT.as_secs().to_string())
            .env("ASAN_OPTIONS", "detect_leaks=0:halt_on_error=1:abort_on_error=0:symbolize=1:allocator_may_return_null=1")
            .env("UBSAN_OPTIONS", "print_stacktrace=1:symbolize=1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(create(&parent_err)?);
        if let Some(s) = symbolizer() {
            cmd.env("ASAN_SYMBOLIZER_PATH", &s).env("UBSAN_SYMBOLIZER_PATH", s);
        }
        let mut child = cmd.spawn().map_err(|source| ReplayError::CannotRun { what: "the replay binary", source })?;
        // Each run stops itself after RUN_LIMIT (an alarm in the child);
        // the whole batch is a safety net past all of them.
        let whole = RUN_LIMIT * (runs.len() as u32 + 1);
        let start = Instant::now();
        loop {
            if child.try_wait().map_err(ReplayError::Wait)?.is_some() {
                break;
            }
            if start.elapsed() > whole {
                let _ = child.kill();
                child.wait().map_err(ReplayError::Wait)?;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let read = |p: &Path| std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        let batch_said = read(&parent_err);
        let batch_said = batch_said.trim();
        let detail =
            if batch_said.is_empty() { String::new() } else { format!(": {}", batch_said.lines().take(3).collect::<Vec<_>>().join(" ")) };
        Ok(runs
            .iter()
            .map(|r| {
                let status = read(&file("status", r.index, "txt"));
                let (code, signal) = match status.split_whitespace().collect::<Vec<_>>()[..] {
                    ["exit", c] => (c.parse().ok(), None),
                    ["signal", s] => (None, s.parse().ok()),
                    _ => return Err(ReplayError::BatchEnded { index: r.index, detail: detail.clone() }),
                };
                Ok(RunResult {
                    code,
                    signal,
                    stdout: read(&file("stdout", r.index, "txt")),
                    stderr: read(&file("stderr", r.index, "txt")),
                    events: read(&file("events", r.index, "log")).lines().map(str::to_string).collect(),
                    stopped: signal == Some(SIGALRM),
                })
            })
            .collect())
    }
}
