//! The `symcross` command: parses arguments, builds the `Config`, runs the
//! requested command and maps the outcome to the exit status of README, "Exit status".

mod args;
pub mod bench;
pub mod check_cmd;
mod device_launch;
mod html_out;
pub mod race_cmd;
mod race_ndrange;
pub mod replay_cmd;
pub mod rules_cmd;
pub mod suite_cmd;

pub use args::*;
use clap::Parser;

/// Exit status for bad usage or input.
pub const EXIT_USAGE: i32 = 2;

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    if let Err(e) = init_logging(cli.log.as_deref()) {
        eprintln!("symcross: error: {e}");
        return EXIT_USAGE;
    }
    let style = cli.color.style();
    crate::config::fast_concrete::set_enabled(!cli.no_fast_concrete);
    // Temporary directories of runs that were killed.
    crate::process::tempdirs::clean_stale(&crate::process::tempdirs::root());
    if matches!(cli.command, Command::Check(_) | Command::Race(_) | Command::Run(_)) {
        // These end with a report when interrupted (crate::process::interrupt).
        crate::process::interrupt::install();
    }
    let result = match cli.command {
        Command::Check(a) => check_cmd::check(a, &style),
        Command::Run(a) => check_cmd::run(a),
        Command::Race(a) => race_cmd::race(a, &style),
        Command::Replay(a) => replay_cmd::replay(a),
        Command::Rules(a) => rules_cmd::rules(a),
        Command::Bench(a) => bench::bench(a),
        Command::Suite(a) => suite_cmd::suite(a),
        Command::Merge(a) => suite_cmd::merge(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("symcross: error: {e}");
            EXIT_USAGE
        }
    }
}

/// `--log LEVEL`: symcross's own events at LEVEL and above, on stderr.
fn init_logging(level: Option<&str>) -> Result<(), String> {
    let Some(level) = level else { return Ok(()) };
    const LEVELS: [&str; 5] = ["error", "warn", "info", "debug", "trace"];
    let level = level.to_ascii_lowercase();
    if !LEVELS.contains(&level.as_str()) {
        return Err(format!("--log must be one of {}, not `{level}`", LEVELS.join(", ")));
    }
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(format!("symcross={level}")))
        .with_writer(std::io::stderr)
        // Escape codes only on a terminal: a log sent to a file stays plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
    Ok(())
}

/// Writes the SARIF and JUnit reports where `--sarif` and `--junit` asked
/// for them; `classname` is the JUnit class (`symcross.check`, ...).
pub fn write_ci_reports(ci: &CiReportArgs, report: &crate::report::Report, classname: &str) -> Result<(), crate::Error> {
    use crate::report::{junit, sarif};
    write_json(&ci.sarif, &sarif::render(&[report]))?;
    write_json(&ci.junit, &junit::render("symcross", &[junit::case_of(report, classname)]))
}

/// Whether any report goes to standard output (the text report then does
/// not); `html` is `--html` of `check` and `race`.
pub fn stdout_taken(json: &Option<String>, ci: &CiReportArgs, html: &Option<String>) -> bool {
    [json, &ci.sarif, &ci.junit, html].iter().any(|t| t.as_deref() == Some("-"))
}

/// Refuses two reports on standard output (`--json - --sarif -`): their
/// texts would run together and neither could be read back.
pub fn one_report_on_stdout(outputs: &[(&str, &Option<String>)]) -> Result<(), crate::Error> {
    let on_stdout: Vec<&str> = outputs.iter().filter(|(_, t)| t.as_deref() == Some("-")).map(|(flag, _)| *flag).collect();
    match on_stdout.as_slice() {
        [first, second, ..] => {
            Err(crate::Error::Usage(format!("{first} - and {second} - both ask for standard output; give one of them a file name")))
        }
        _ => Ok(()),
    }
}

/// Writes a JSON report where `--json` asked for it.
/// Fails before a run, not after it, when an output file cannot be
/// written: each path given (not `-`) is opened for writing (and left
/// empty until the report replaces it).
pub fn ensure_writable(targets: &[&Option<String>]) -> Result<(), crate::Error> {
    for path in targets.iter().filter_map(|t| t.as_deref()).filter(|p| *p != "-") {
        std::fs::OpenOptions::new().write(true).create(true).truncate(false).open(path).map_err(|e| crate::Error::Io(path.into(), e))?;
    }
    Ok(())
}

/// Writes a JSON report where `--json` asked: nowhere when it was not
/// given, standard output for `-`, else the file named.
pub fn write_json(target: &Option<String>, json: &str) -> Result<(), crate::Error> {
    match target.as_deref() {
        None => Ok(()),
        Some("-") => {
            println!("{json}");
            Ok(())
        }
        Some(path) => std::fs::write(path, json).map_err(|e| crate::Error::Io(path.into(), e)),
    }
}
