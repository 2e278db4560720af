//! `--progress` during a long solver query: the executor's progress line
//! stops while it waits, so a ticker thread prints what it is waiting on,
//! and for how long, every few seconds until the query returns.
//!
//! `SYMCROSS_PROGRESS_TICK_MS` (undocumented, for tests) sets the interval;
//! 0 prints one line as each query starts, so that a test can see the
//! line without depending on how long a query takes.

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Time between two lines while a query runs.
const DEFAULT_TICK: Duration = Duration::from_secs(3);

/// What a query is, for the progress line.
#[derive(Clone, Debug)]
pub struct QueryDescription {
    /// The number of the query in the run (1 for the first).
    pub number: u64,
    /// Constraints of the path it is asked under.
    pub path_constraints: usize,
    /// The query's wall-clock limit, if any.
    pub timeout: Option<Duration>,
    /// The query's deciding budget in work units, if any.
    pub budget: Option<u32>,
}

/// The line printed after `waited` on `q`.
pub fn tick_line(q: &QueryDescription, waited: Duration) -> String {
    let timeout = q.timeout.map_or(String::new(), |t| format!(" of its {:.0} s timeout", t.as_secs_f64()));
    let budget = q.budget.map_or(String::new(), |b| format!(" (budget {b} work units)"));
    format!(
        "symcross: waiting on the solver: query {} ({} path constraints) has run {:.1} s{timeout}{budget}",
        q.number,
        q.path_constraints,
        waited.as_secs_f64()
    )
}

/// The tick interval: the environment's, else the default.
fn interval() -> Duration {
    std::env::var("SYMCROSS_PROGRESS_TICK_MS").ok().and_then(|v| v.parse().ok()).map(Duration::from_millis).unwrap_or(DEFAULT_TICK)
}

/// Prints `tick_line` on stderr every interval until dropped.
pub struct QueryTicker {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl QueryTicker {
    /// Starts printing `q`'s line every interval; with a zero interval,
    /// prints it once now instead.
    pub fn start(q: QueryDescription) -> QueryTicker {
        let every = interval();
        let started = Instant::now();
        if every.is_zero() {
            eprintln!("{}", tick_line(&q, Duration::ZERO));
            return QueryTicker { stop: None, thread: None };
        }
        let (stop, stopped) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("symcross-query-ticker".into())
            .spawn(move || loop {
                match stopped.recv_timeout(every) {
                    Err(RecvTimeoutError::Timeout) => eprintln!("{}", tick_line(&q, started.elapsed())),
                    _ => return,
                }
            })
            .ok();
        QueryTicker { stop: Some(stop), thread }
    }
}

impl Drop for QueryTicker {
    fn drop(&mut self) {
        // Closing the channel wakes the thread at once.
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_which_query_and_how_long() {
        let q = QueryDescription { number: 7, path_constraints: 3, timeout: Some(Duration::from_secs(10)), budget: None };
        assert_eq!(
            tick_line(&q, Duration::from_millis(4500)),
            "symcross: waiting on the solver: query 7 (3 path constraints) has run 4.5 s of its 10 s timeout"
        );
        let q = QueryDescription { timeout: None, budget: Some(20_000_000), ..q };
        assert_eq!(
            tick_line(&q, Duration::from_millis(4500)),
            "symcross: waiting on the solver: query 7 (3 path constraints) has run 4.5 s (budget 20000000 work units)"
        );
    }
}
