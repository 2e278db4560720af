//! Runs the entries of a suite in parallel, each as a child
//! `symcross check|race ... --json -` process, so that a crash, a limit or
//! a runaway entry cannot take the others down. Progress goes to stderr:
//! one updating line (done/total, running entries, ETA) on a terminal,
//! one plain line per finished entry otherwise.

use super::cache;
use super::manifest::{Entry, Manifest};
use super::outcome::{got, meets, EntryResult};
use crate::report::Report;
use std::io::{IsTerminal, Write};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How a suite's entries are run.
pub struct RunOptions {
    /// Entries run at once (at least one).
    pub jobs: usize,
    /// Reuse cached reports and store new reusable ones.
    pub use_cache: bool,
    /// Print progress to stderr.
    pub progress: bool,
}

/// Runs `entries` (indices into the manifest) and returns their results.
pub fn run_entries(manifest: &Manifest, entries: &[usize], opts: &RunOptions) -> Vec<EntryResult> {
    let queue = Arc::new(Mutex::new(entries.iter().copied().rev().collect::<Vec<_>>()));
    let progress = Arc::new(Mutex::new(Progress::new(entries.len(), opts.progress)));
    let results = Arc::new(Mutex::new(Vec::new()));
    let exe = if opts.use_cache { cache::executable_identity() } else { String::new() };
    let exe = exe.as_str();
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1).min(entries.len().max(1)) {
            let (queue, progress, results) = (queue.clone(), progress.clone(), results.clone());
            s.spawn(move || loop {
                let Some(i) = queue.lock().unwrap().pop() else { break };
                let entry = &manifest.entries[i];
                progress.lock().unwrap().started(&entry.name);
                let r = run_one(manifest, i, opts.use_cache.then_some(exe));
                progress.lock().unwrap().finished(&r);
                results.lock().unwrap().push(r);
            });
        }
    });
    progress.lock().unwrap().clear();
    let mut out = std::mem::take(&mut *results.lock().unwrap());
    out.sort_by_key(|r| r.index);
    out
}

/// Runs one entry, or takes its report from the cache (`exe`: the
/// executable's identity when the cache is used).
fn run_one(manifest: &Manifest, index: usize, exe: Option<&str>) -> EntryResult {
    let entry = &manifest.entries[index];
    let key = exe.map(|exe| cache::key(entry, &manifest.root, exe));
    if let Some(report) = key.as_deref().and_then(cache::lookup) {
        return result(entry, index, Ok((report, None)), true);
    }
    let start = Instant::now();
    let ran = spawn(entry, manifest);
    let seconds = start.elapsed().as_secs_f64();
    let mut r = result(entry, index, ran, false);
    if let (Some(key), Some(report)) = (key, &r.report) {
        if cache::reusable(report) {
            cache::store(&key, report);
        }
    }
    if !r.cached {
        r.seconds = seconds;
    }
    r
}

/// Runs the entry as a child process; its report, or what went wrong.
fn spawn(entry: &Entry, manifest: &Manifest) -> Result<(Report, Option<i32>), (String, Option<i32>)> {
    let exe = std::env::current_exe().map_err(|e| (format!("cannot find the symcross executable: {e}"), None))?;
    let out = Command::new(exe)
        .current_dir(&manifest.root)
        .arg(entry.command)
        .args(&entry.files)
        .args(&entry.options)
        .args(["--json", "-"])
        .output()
        .map_err(|e| (format!("cannot start symcross: {e}"), None))?;
    let code = out.status.code();
    let stdout = String::from_utf8_lossy(&out.stdout);
    match Report::from_json(&stdout) {
        Ok(report) => Ok((report, code)),
        Err(_) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let how = match code {
                Some(c) => format!("exit status {c}"),
                None => format!("killed ({})", out.status),
            };
            let tail: Vec<&str> = stderr.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect();
            Err((format!("{how}: {}", tail.join("\n")).trim_end().to_string(), code))
        }
    }
}

fn result(entry: &Entry, index: usize, ran: Result<(Report, Option<i32>), (String, Option<i32>)>, cached: bool) -> EntryResult {
    let mut r = EntryResult {
        name: entry.name.clone(),
        command: entry.command.to_string(),
        index,
        expect: entry.expect.clone(),
        outcome: String::new(),
        summary: String::new(),
        cached,
        seconds: 0.0,
        exit_code: None,
        report: None,
        error: None,
    };
    match ran {
        Ok((report, code)) => {
            let ok = meets(&entry.expect, &report);
            r.outcome = if ok { "met" } else { "unmet" }.into();
            r.summary = format!("expected {}, got {}", entry.expect.describe(), got(&report));
            r.seconds = report.stats.seconds;
            r.exit_code = code.or(Some(report.verdict.exit_code()));
            r.report = Some(report);
        }
        Err((message, code)) => {
            r.outcome = "error".into();
            r.summary =
                format!("expected {}, but the run gave no report: {}", entry.expect.describe(), message.lines().next().unwrap_or(""));
            r.exit_code = code;
            r.error = Some(message);
        }
    }
    r
}

/// The progress display.
struct Progress {
    total: usize,
    done: usize,
    running: Vec<String>,
    start: Instant,
    enabled: bool,
    terminal: bool,
}

impl Progress {
    fn new(total: usize, enabled: bool) -> Progress {
        Progress { total, done: 0, running: Vec::new(), start: Instant::now(), enabled, terminal: std::io::stderr().is_terminal() }
    }

    fn started(&mut self, name: &str) {
        self.running.push(name.to_string());
        self.draw();
    }

    fn finished(&mut self, r: &EntryResult) {
        self.done += 1;
        if let Some(p) = self.running.iter().position(|n| *n == r.name) {
            self.running.remove(p);
        }
        if !self.enabled {
            return;
        }
        let tag = match r.outcome.as_str() {
            "met" => "ok",
            "unmet" => "FAIL",
            _ => "ERROR",
        };
        let time = if r.cached { "cached".to_string() } else { format!("{:.2} s", r.seconds) };
        let line = format!("[{}/{}] {tag} {}: {} ({time})", self.done, self.total, r.name, r.summary);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[K");
        }
        let _ = writeln!(err, "{line}");
        drop(err);
        self.draw();
    }

    /// The updating status line (terminals only).
    fn draw(&self) {
        if !self.enabled || !self.terminal {
            return;
        }
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if self.done > 0 {
            format!(", ETA {:.0} s", elapsed / self.done as f64 * (self.total - self.done) as f64)
        } else {
            String::new()
        };
        let mut running = self.running.join(", ");
        if running.chars().count() > 60 {
            running = running.chars().take(57).collect::<String>() + "...";
        }
        let _ = write!(std::io::stderr(), "\r\x1b[K[{}/{}] {:.0} s{eta}; running: {running}", self.done, self.total, elapsed);
        let _ = std::io::stderr().flush();
    }

    fn clear(&self) {
        if self.enabled && self.terminal {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}
