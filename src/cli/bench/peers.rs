//! `symcross bench --peers`: the tools a user would pick instead, run on
//! the same work as symcross, side by side. The concrete loop runs under
//! `lli -force-interpreter` on the same mem2reg'd bitcode symcross reads;
//! the race kernels run under `oclgrind-kernel --data-races` on one input
//! (a `.sim` file written here), while symcross covers every input; the
//! host program is built natively against the OpenCL library and run under
//! `oclgrind`. Each row is the whole command (compiling included, with
//! symcross's caches warm: one untimed run first for both tools), then
//! RUNS paired runs, alternating the two tools so that a change in the
//! machine's load hits both; the figures are the medians, of wall-clock
//! time and of CPU time (user + system of the command and the processes
//! it waited for: what a loaded machine changes least).

use crate::frontend::Tools;
use crate::Error;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Timed runs per tool and row (after the untimed one).
const RUNS: usize = 3;

/// How a peer is run on one row's work.
enum Peer {
    /// `lli -force-interpreter` on this bitcode.
    Lli(PathBuf),
    /// `oclgrind-kernel --data-races` on this simulation file.
    OclgrindKernel(PathBuf),
    /// `oclgrind` running this native host program.
    Oclgrind(PathBuf),
}

/// One line of the table.
struct Work {
    /// What is run, as the table says it.
    what: String,
    /// symcross's arguments.
    symcross: Vec<String>,
    /// The peer and its work, or why it is not run.
    peer: Result<Peer, String>,
}

/// One command's answer, its wall-clock seconds and its CPU seconds.
struct Timed {
    answer: String,
    seconds: f64,
    cpu: f64,
}

/// CPU seconds (user + system) of the children this process has waited
/// for so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `name` on PATH, else in LLVM 19's bin directory.
fn program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names
        .iter()
        .find_map(|n| std::env::split_paths(&path).chain([PathBuf::from("/usr/lib/llvm-19/bin")]).map(|d| d.join(n)).find(|p| p.is_file()))
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io(path.to_path_buf(), e)
}

/// Runs `cmd`, failing with its stderr when it fails to build something.
fn build(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what} failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("")));
    }
    Ok(())
}

/// bench/NAME.c as symcross reads it: clang -O0 without optnone, then
/// mem2reg.
fn concrete_bitcode(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let tools = Tools::locate();
    let raw = dir.join(format!("{name}.bc"));
    let promoted = dir.join(format!("{name}.mem2reg.bc"));
    let src = root().join(format!("bench/{name}.c"));
    build(
        Command::new(&tools.clang).args(["-O0", "-Xclang", "-disable-O0-optnone", "-emit-llvm", "-c"]).arg(&src).arg("-o").arg(&raw),
        "clang",
    )?;
    build(Command::new(&tools.opt).arg("-passes=mem2reg").arg(&raw).arg("-o").arg(&promoted), "opt")?;
    Ok(promoted)
}

/// A `.sim` file for `oclgrind-kernel`: the kernel, the NDRange, and one
/// line per argument (`<size=BYTES fill=V>` for a buffer, `<size=BYTES>`
/// for a `__local` one).
fn sim_file(dir: &Path, kernel: &str, name: &str, global: u64, local: u64, args: &[String]) -> Result<PathBuf, String> {
    let mut text = format!("{}\n{name}\n{global} 1 1\n{local} 1 1\n", root().join("bench/kernels").join(kernel).display());
    for a in args {
        let _ = writeln!(text, "{a}");
    }
    let path = dir.join(format!("{name}-{global}.sim"));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The host program of the last row, built natively against the system's
/// OpenCL library (Oclgrind's is put in its place by `oclgrind`).
fn native_host(dir: &Path) -> Result<PathBuf, String> {
    let exe = dir.join("vector_add_host");
    build(
        Command::new(Tools::locate().clang).args(["-O2"]).arg(root().join("bench/vector_add_host.c")).arg("-lOpenCL").arg("-o").arg(&exe),
        "clang (native host program)",
    )?;
    Ok(exe)
}

fn works(dir: &Path) -> Vec<Work> {
    let lli = program(&["lli-19", "lli"]);
    let kernel_sim = program(&["oclgrind-kernel"]);
    let oclgrind = program(&["oclgrind"]);
    let missing = |tool: &str| Err(format!("{tool} is not installed"));
    let mut out = Vec::new();
    for (name, what) in [("concrete_loop", "9.2 M LLVM instructions"), ("concrete_sse2", "SSE2, 0.7 M LLVM instructions")] {
        out.push(Work {
            what: format!("`run bench/{name}.c` ({what}) / `lli -force-interpreter` on its mem2reg bitcode"),
            symcross: vec!["run".into(), root().join(format!("bench/{name}.c")).display().to_string()],
            peer: match lli {
                Some(_) => concrete_bitcode(dir, name).map(Peer::Lli),
                None => missing("lli"),
            },
        });
    }
    // (kernel, function, work-groups, work-items per group, the argument
    // lines of the .sim file for a global size of G work-items)
    type SimArgs = fn(u64, u64) -> Vec<String>;
    let races: [(&str, &str, &str, u64, u64, SimArgs); 3] = [
        ("local write-write race", "local_write_write.cl", "pairs", 1024, 1024, |g, l| {
            vec![format!("<size={} fill=0>", g * 4), format!("<size={}>", l * 2)]
        }),
        ("neighbour race", "neighbour_race.cl", "avg", 512, 256, |g, l| {
            vec![format!("<size={} fill=1>", g * 4), format!("<size={} fill=0>", g * 4), format!("<size={}>", l * 4)]
        }),
        ("strided, race-free", "strided.cl", "scatter", 512, 256, |g, _| {
            vec![format!("<size={} fill=1>", g * 4), format!("<size={} fill=0>", g * 4)]
        }),
    ];
    for (what, kernel, name, groups, local, sim_args) in races {
        let global = groups * local;
        out.push(Work {
            what: format!("`race bench/kernels/{kernel}`, {groups} x {local} work-items ({what}) / Oclgrind `--data-races`, one input"),
            symcross: vec![
                "race".into(),
                root().join("bench/kernels").join(kernel).display().to_string(),
                "--local-size".into(),
                local.to_string(),
                "--num-groups".into(),
                groups.to_string(),
            ],
            peer: match kernel_sim {
                Some(_) => sim_file(dir, kernel, name, global, local, &sim_args(global, local)).map(Peer::OclgrindKernel),
                None => missing("oclgrind-kernel"),
            },
        });
    }
    out.push(Work {
        what: "host program `check bench/vector_add_host.c`, 2^20 work-items enumerated / the native program under `oclgrind`".into(),
        symcross: vec!["check".into(), root().join("bench/vector_add_host.c").display().to_string()],
        peer: match oclgrind {
            Some(_) => native_host(dir).map(Peer::Oclgrind),
            None => missing("oclgrind"),
        },
    });
    out
}

/// Runs `cmd` once, timing it; `answer` reads the outcome.
fn timed(cmd: &mut Command, answer: impl Fn(&std::process::Output) -> String) -> Result<Timed, Error> {
    let (started, cpu) = (std::time::Instant::now(), children_cpu());
    let out = cmd.output().map_err(|e| Error::Usage(format!("cannot run {:?}: {e}", cmd.get_program())))?;
    Ok(Timed { answer: answer(&out), seconds: started.elapsed().as_secs_f64(), cpu: children_cpu() - cpu })
}

fn run_symcross(args: &[String]) -> Result<Timed, Error> {
    let exe = std::env::current_exe().map_err(io(Path::new("symcross")))?;
    timed(Command::new(exe).args(args), |o| match o.status.code() {
        Some(0) => "no findings".into(),
        Some(1) => "findings".into(),
        Some(3) => "inconclusive".into(),
        c => format!("exit {c:?}"),
    })
}

fn run_peer(peer: &Peer) -> Result<Timed, Error> {
    let exit = |o: &std::process::Output| format!("exit {}", o.status.code().map_or("signal".into(), |c| c.to_string()));
    let races = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stderr) + String::from_utf8_lossy(&o.stdout);
        if text.contains("data race") {
            "race".into()
        } else if o.status.success() {
            "no race".into()
        } else {
            exit(o)
        }
    };
    match peer {
        Peer::Lli(bc) => timed(Command::new(program(&["lli-19", "lli"]).unwrap_or_default()).arg("-force-interpreter").arg(bc), exit),
        Peer::OclgrindKernel(sim) => timed(Command::new("oclgrind-kernel").arg("--data-races").arg(sim), races),
        Peer::Oclgrind(exe) => timed(Command::new("oclgrind").arg(exe), exit),
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs every row: both tools, paired; prints each as it comes and returns
/// the Markdown table.
pub fn peers_section() -> Result<String, Error> {
    let dir = tempfile::tempdir().map_err(io(&std::env::temp_dir()))?;
    let mut md = format!(
        "## Peers side by side (`symcross bench --peers`)\n\n\
         Whole commands, wall clock and CPU time (user + system), medians of {RUNS} paired runs after one \
         untimed run of each (symcross's runtime and build caches warm). symcross covers every input; the \
         peers run one.\n\n\
         | work / peer | symcross | answer | peer | answer | peer / symcross (wall) | symcross CPU | peer CPU | peer / symcross (CPU) |\n\
         |---|---|---|---|---|---|---|---|---|\n"
    );
    for work in works(dir.path()) {
        let peer = match &work.peer {
            Ok(p) => p,
            Err(why) => {
                let ours = run_symcross(&work.symcross)?;
                println!("{}: symcross {:.2} s ({}); peer not run: {why}", work.what, ours.seconds, ours.answer);
                let _ = writeln!(
                    md,
                    "| {} | {:.2} s | {} | not run: {why} | - | - | {:.2} s | - | - |",
                    work.what, ours.seconds, ours.answer, ours.cpu
                );
                continue;
            }
        };
        run_symcross(&work.symcross)?;
        run_peer(peer)?;
        let (mut ours, mut theirs, mut our_cpu, mut their_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut our_answer, mut their_answer) = (String::new(), String::new());
        for _ in 0..RUNS {
            let a = run_symcross(&work.symcross)?;
            let b = run_peer(peer)?;
            ours.push(a.seconds);
            theirs.push(b.seconds);
            our_cpu.push(a.cpu);
            their_cpu.push(b.cpu);
            (our_answer, their_answer) = (a.answer, b.answer);
        }
        let (a, b) = (median(ours), median(theirs));
        let (ca, cb) = (median(our_cpu), median(their_cpu));
        let (ratio, cpu_ratio) = (b / a.max(1e-6), cb / ca.max(1e-6));
        println!(
            "{}: symcross {a:.2} s ({our_answer}), peer {b:.2} s ({their_answer}), peer/symcross {ratio:.2}; \
             CPU: symcross {ca:.3} s, peer {cb:.3} s, peer/symcross {cpu_ratio:.2}",
            work.what
        );
        let _ = writeln!(
            md,
            "| {} | {a:.2} s | {our_answer} | {b:.2} s | {their_answer} | {ratio:.2}x | {ca:.3} s | {cb:.3} s | {cpu_ratio:.2}x |",
            work.what
        );
    }
    md.push('\n');
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sim_file_names_the_kernel_ndrange_and_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let sim = sim_file(dir.path(), "strided.cl", "scatter", 1024, 256, &["<size=4096 fill=1>".into()]).unwrap();
        let text = std::fs::read_to_string(sim).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with("bench/kernels/strided.cl"), "{text}");
        assert_eq!(&lines[1..], ["scatter", "1024 1 1", "256 1 1", "<size=4096 fill=1>"]);
    }

    #[test]
    fn the_median_of_three_is_the_middle_one() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
    }
}
