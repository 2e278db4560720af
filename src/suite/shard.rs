//! Shards: `--shard K/N` runs the K-th of N disjoint, balanced subsets of a
//! suite's entries (K counts from 1). Entry i (in manifest order) belongs
//! to shard i mod N + 1, so the split is the same on every machine and the
//! shards differ in size by at most one entry. Without `--shard`, the job
//! scheduler's own variables are read.

/// Parses `K/N` (1 <= K <= N).
pub fn parse(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard takes K/N with 1 <= K <= N (the K-th of N shards), not `{s}`");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A shard `(k, n)` (shard k of n, counted from 1) and the environment
/// variable scheme that gave it (`SLURM_ARRAY_TASK_ID`...).
pub type EnvShard = ((usize, usize), &'static str);

/// The shard given by the environment, if any, and where it came from:
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`
///   (counted from `SLURM_ARRAY_TASK_MIN`, so `--array=0-3` and `1-4` both work);
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (from 0) of
///   `SYMCROSS_SHARDS` (Kubernetes does not export the count: set it to
///   the Job's `completions`);
/// - GitLab `parallel:`: `CI_NODE_INDEX` (from 1) of `CI_NODE_TOTAL`.
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<EnvShard>, String> {
    let num = |name: &str| -> Result<Option<usize>, String> {
        match var(name).filter(|v| !v.trim().is_empty()) {
            None => Ok(None),
            Some(v) => v.trim().parse().map(Some).map_err(|_| format!("{name}={v} is not a number")),
        }
    };
    let check = |k: usize, n: usize, from: &'static str| -> Result<Option<EnvShard>, String> {
        if n == 0 || k == 0 || k > n {
            return Err(format!("{from}: shard {k} of {n} is out of range"));
        }
        Ok(Some(((k, n), from)))
    };
    if let (Some(id), Some(count)) = (num("SLURM_ARRAY_TASK_ID")?, num("SLURM_ARRAY_TASK_COUNT")?) {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        return check((id + 1).saturating_sub(min), count, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
    }
    if let (Some(i), Some(n)) = (num("JOB_COMPLETION_INDEX")?, num("SYMCROSS_SHARDS")?) {
        return check(i + 1, n, "JOB_COMPLETION_INDEX/SYMCROSS_SHARDS");
    }
    if let (Some(i), Some(n)) = (num("CI_NODE_INDEX")?, num("CI_NODE_TOTAL")?) {
        return check(i, n, "CI_NODE_INDEX/CI_NODE_TOTAL");
    }
    Ok(None)
}

/// The entry indices of shard K of N among `total` entries.
pub fn select(total: usize, (k, n): (usize, usize)) -> Vec<usize> {
    (0..total).filter(|i| i % n == k - 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_entries() {
        let all: Vec<usize> = {
            let mut v: Vec<usize> = (1..=3).flat_map(|k| select(10, (k, 3))).collect();
            v.sort();
            v
        };
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(select(10, (1, 3)), [0, 3, 6, 9]);
        assert!(parse("0/3").is_err() && parse("4/3").is_err() && parse("2").is_err());
        assert_eq!(parse("2/3"), Ok((2, 3)));
    }

    #[test]
    fn scheduler_variables() {
        let env =
            |pairs: &'static [(&'static str, &'static str)]| move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        assert_eq!(from_env(env(&[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")])).unwrap().unwrap().0, (1, 4));
        assert_eq!(
            from_env(env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_COUNT", "4"), ("SLURM_ARRAY_TASK_MIN", "1")]))
                .unwrap()
                .unwrap()
                .0,
            (4, 4)
        );
        assert_eq!(from_env(env(&[("JOB_COMPLETION_INDEX", "2"), ("SYMCROSS_SHARDS", "3")])).unwrap().unwrap().0, (3, 3));
        assert_eq!(from_env(env(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "5")])).unwrap().unwrap().0, (2, 5));
        assert_eq!(from_env(env(&[])).unwrap(), None);
        assert!(from_env(env(&[("CI_NODE_INDEX", "6"), ("CI_NODE_TOTAL", "5")])).is_err());
    }
}
