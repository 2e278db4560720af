//! Why exploration stopped early: the `limit` of a report. The engine
//! records the same value when it stops (`exec::LimitHit` names this
//! type), so the report cannot name a limit the engine does not have.

use serde::{Deserialize, Serialize};

/// A limit that stopped exploration, or ended some paths, before every
/// path finished. Serialised as its `name()` (stable: CI scripts read it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// `--max-time`.
    Time,
    /// `--max-paths`.
    Paths,
    /// `--max-memory`, or a `malloc` that cannot fit.
    Memory,
    /// SIGINT or SIGTERM (`crate::process::interrupt`).
    Interrupted,
    /// A path unrolled a symbolic loop `Config::loop_bound` times; the
    /// other paths were explored (path_budget.rs).
    LoopBound,
    /// A work-item ran `Config::max_item_steps` instructions between two
    /// barriers; the other paths were explored.
    #[serde(rename = "work-item-steps")]
    ItemSteps,
    /// More paths were waiting to be explored than
    /// `Config::max_open_paths` (`symcross race` enumerating work-items
    /// that each branch on their own data: it then checks in pair mode).
    OpenPaths,
    /// `--max-instructions`: the instructions executed on all paths
    /// together (a budget that does not depend on the machine).
    Instructions,
    /// A race check asked `Config::max_race_queries` solver queries about
    /// candidate pairs of accesses; the pairs left were not decided.
    RaceQueries,
    /// More kernel paths of one CUDA launch faulted than the host program
    /// is followed from (`exec::opencl::launch::MAX_FAULTED_CONTINUATIONS`):
    /// each fault is reported, but the host's handling of the others'
    /// failed launch was not run.
    FaultedLaunchPaths,
    /// Kernels asked `Config::max_undefined_queries` solver questions
    /// about undefined behaviour; later uses of undefined results in
    /// kernels were not checked.
    UndefinedQueries,
}

impl Limit {
    /// The limit's name in reports (`time`, `loop-bound`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Limit::Time => "time",
            Limit::Paths => "paths",
            Limit::Memory => "memory",
            Limit::Interrupted => "interrupted",
            Limit::LoopBound => "loop-bound",
            Limit::ItemSteps => "work-item-steps",
            Limit::OpenPaths => "open-paths",
            Limit::Instructions => "instructions",
            Limit::RaceQueries => "race-queries",
            Limit::FaultedLaunchPaths => "faulted-launch-paths",
            Limit::UndefinedQueries => "undefined-queries",
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Limit;

    const ALL: [Limit; 11] = [
        Limit::Time,
        Limit::Paths,
        Limit::Memory,
        Limit::Interrupted,
        Limit::LoopBound,
        Limit::ItemSteps,
        Limit::OpenPaths,
        Limit::Instructions,
        Limit::RaceQueries,
        Limit::FaultedLaunchPaths,
        Limit::UndefinedQueries,
    ];

    /// The JSON spelling is `name()`, which the text report and older
    /// reports use: a derive rename must not drift from it.
    #[test]
    fn serialised_as_its_name_and_read_back() {
        for l in ALL {
            let json = serde_json::to_string(&l).unwrap();
            assert_eq!(json, format!("\"{}\"", l.name()));
            assert_eq!(serde_json::from_str::<Limit>(&json).unwrap(), l);
        }
    }

    #[test]
    fn an_unknown_limit_is_refused() {
        assert!(serde_json::from_str::<Limit>("\"patience\"").is_err());
    }
}
