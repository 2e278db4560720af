//! How `symcross race` ran the work-items: the `mode` of a race report.
//! Kept as a value (which strategy, how many work-items, what shortened
//! the run) and written as the one line of text reports have always
//! carried, so the JSON field keeps its spelling.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How the work-items of an NDRange are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceMode {
    /// Every work-item runs, to the next barrier in a canonical order.
    Enumerate,
    /// Two symbolic work-items stand for every pair (GPUVerify's method).
    Pair,
}

/// The `mode` of a race report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceModeRecord {
    /// How work-items were checked.
    pub mode: RaceMode,
    /// Work-items in the NDRange.
    pub work_items: u64,
    /// Set when one work-group was run for all this many, because the
    /// kernel uses no group-dependent id and no global memory.
    pub one_group_for: Option<u64>,
    /// The run ended at its first confirmed finding (no `--all-findings`).
    pub stopped_at_first_finding: bool,
}

const ONE_GROUP: &str = "one work-group stands for all ";
const ONE_GROUP_WHY: &str = ": the kernel uses no group-dependent id and no global memory";
const STOPPED: &str = "stopped at the first confirmed finding (--all-findings goes on)";

impl std::fmt::Display for RaceModeRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mode {
            RaceMode::Enumerate => write!(f, "enumerate ({} work-items)", self.work_items)?,
            RaceMode::Pair => write!(f, "pair (two symbolic work-items cover all {} work-items)", self.work_items)?,
        }
        if let Some(groups) = self.one_group_for {
            write!(f, "; {ONE_GROUP}{groups}{ONE_GROUP_WHY}")?;
        }
        if self.stopped_at_first_finding {
            write!(f, "; {STOPPED}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for RaceModeRecord {
    type Err = String;

    /// Reads what `Display` writes (reports read back by `suite`, `merge`
    /// and the result cache).
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("not a race mode: `{text}`");
        let mut parts = text.split("; ");
        let head = parts.next().ok_or_else(bad)?;
        let number = |s: &str| s.split(|c: char| !c.is_ascii_digit()).find(|w| !w.is_empty()).and_then(|w| w.parse::<u64>().ok());
        let mode = if head.starts_with("enumerate (") {
            RaceMode::Enumerate
        } else if head.starts_with("pair (") {
            RaceMode::Pair
        } else {
            return Err(bad());
        };
        let mut record =
            RaceModeRecord { mode, work_items: number(head).ok_or_else(bad)?, one_group_for: None, stopped_at_first_finding: false };
        for part in parts {
            if let Some(rest) = part.strip_prefix(ONE_GROUP) {
                record.one_group_for = Some(number(rest).ok_or_else(bad)?);
            } else if part == STOPPED {
                record.stopped_at_first_finding = true;
            } else {
                return Err(bad());
            }
        }
        Ok(record)
    }
}

impl Serialize for RaceModeRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RaceModeRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::{RaceMode, RaceModeRecord};

    fn record(mode: RaceMode, one_group_for: Option<u64>, stopped: bool) -> RaceModeRecord {
        RaceModeRecord { mode, work_items: 256, one_group_for, stopped_at_first_finding: stopped }
    }

    /// The text is what reports carried before the mode was a value.
    #[test]
    fn written_as_before() {
        assert_eq!(record(RaceMode::Enumerate, None, false).to_string(), "enumerate (256 work-items)");
        assert_eq!(record(RaceMode::Pair, None, false).to_string(), "pair (two symbolic work-items cover all 256 work-items)");
        assert_eq!(
            record(RaceMode::Enumerate, Some(4), true).to_string(),
            "enumerate (256 work-items); one work-group stands for all 4: the kernel uses no group-dependent id and no global memory; \
             stopped at the first confirmed finding (--all-findings goes on)"
        );
    }

    #[test]
    fn read_back_from_json() {
        for r in [
            record(RaceMode::Enumerate, None, false),
            record(RaceMode::Pair, None, true),
            record(RaceMode::Enumerate, Some(8), false),
            record(RaceMode::Enumerate, Some(8), true),
        ] {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<RaceModeRecord>(&json).unwrap(), r, "{json}");
        }
    }

    #[test]
    fn other_text_is_refused() {
        for text in [
            "\"serial (4 work-items)\"",
            "\"enumerate (many work-items)\"",
            "\"pair (two symbolic work-items cover all 4 work-items); later\"",
        ] {
            assert!(serde_json::from_str::<RaceModeRecord>(text).is_err(), "{text}");
        }
    }
}
