//! `symcross merge` of the reports of `suite --shard K/N`: the suite
//! report of the whole manifest, as the unsharded run would give. A merge
//! short of a shard would pass a suite whose entries never ran, so every
//! report must be a shard of the same manifest (the same entries, by the
//! digest each shard records), of the same N, each K exactly once.

use super::outcome::{EntryResult, SuiteReport};

/// Merges the reports of all N shards of one suite (each named by the file
/// it came from, for errors).
pub fn merge(reports: Vec<(String, SuiteReport)>) -> Result<SuiteReport, String> {
    let Some((first_name, first)) = reports.first() else { return Err("no report to merge".into()) };
    let shard_of = |name: &str, r: &SuiteReport| -> Result<(usize, usize), String> {
        let text = r.shard.as_deref().ok_or_else(|| format!("{name}: not a `suite --shard` report (it holds a whole suite run)"))?;
        crate::suite::shard::parse(text).map_err(|_| format!("{name}: `shard` is `{text}`, not K/N"))
    };
    let (_, count) = shard_of(first_name, first)?;
    let mut shards: Vec<(usize, &str)> = Vec::new();
    for (name, r) in &reports {
        let (k, n) = shard_of(name, r)?;
        if n != count {
            return Err(format!("{name}: shard {k}/{n}, but {first_name} is of {count} shards"));
        }
        if r.manifest != first.manifest || r.manifest_digest != first.manifest_digest || r.manifest_entries != first.manifest_entries {
            return Err(format!(
                "{name}: a report of another suite ({}) than {first_name} ({}): its manifest or its entries differ",
                describe(r),
                describe(first)
            ));
        }
        if let Some((_, other)) = shards.iter().find(|(j, _)| *j == k) {
            return Err(format!("{other} and {name}: both are shard {k}/{count} (shards overlap)"));
        }
        shards.push((k, name));
    }
    let missing: Vec<String> = (1..=count).filter(|k| !shards.iter().any(|(j, _)| j == k)).map(|k| format!("{k}/{count}")).collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard(s) {} missing: every shard's report is needed, or entries that never ran would pass",
            missing.join(", ")
        ));
    }
    let (manifest, digest, total) = (first.manifest.clone(), first.manifest_digest.clone(), first.manifest_entries);
    let mut entries: Vec<EntryResult> = Vec::new();
    let mut seconds: f64 = 0.0;
    for (name, r) in reports {
        seconds = seconds.max(r.summary.seconds);
        for e in r.entries {
            if let Some(prev) = entries.iter().find(|x| x.index == e.index) {
                return Err(format!("{name}: entry `{}` is also in another report (shards overlap)", prev.name));
            }
            entries.push(e);
        }
    }
    if let Some(total) = total {
        if entries.len() != total {
            return Err(format!("the shards hold {} of the manifest's {total} entries: a shard report was cut short", entries.len()));
        }
    }
    let mut merged = SuiteReport::new(manifest, None, entries, seconds);
    merged.manifest_digest = digest;
    merged.manifest_entries = total;
    Ok(merged)
}

fn describe(r: &SuiteReport) -> String {
    match (&r.manifest_digest, r.manifest_entries) {
        (Some(d), Some(n)) => format!("{}, {n} entries, digest {d}", r.manifest),
        _ => r.manifest.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(k: usize, n: usize, digest: &str) -> SuiteReport {
        let mut r = SuiteReport::new("symcross.toml".into(), Some(format!("{k}/{n}")), Vec::new(), 0.0);
        r.manifest_digest = Some(digest.into());
        r.manifest_entries = Some(0);
        r
    }

    #[test]
    fn a_missing_duplicated_or_foreign_shard_is_refused() {
        let named = |v: Vec<SuiteReport>| v.into_iter().enumerate().map(|(i, r)| (format!("s{i}.json"), r)).collect::<Vec<_>>();
        assert!(merge(named(vec![shard(1, 2, "a"), shard(2, 2, "a")])).is_ok());
        let missing = merge(named(vec![shard(1, 2, "a")])).unwrap_err();
        assert!(missing.contains("shard(s) 2/2 missing"), "{missing}");
        let twice = merge(named(vec![shard(1, 2, "a"), shard(1, 2, "a")])).unwrap_err();
        assert!(twice.contains("both are shard 1/2"), "{twice}");
        let foreign = merge(named(vec![shard(1, 2, "a"), shard(2, 2, "b")])).unwrap_err();
        assert!(foreign.contains("another suite"), "{foreign}");
        let counts = merge(named(vec![shard(1, 2, "a"), shard(2, 3, "a")])).unwrap_err();
        assert!(counts.contains("of 2 shards"), "{counts}");
        let whole = SuiteReport::new("symcross.toml".into(), None, Vec::new(), 0.0);
        let not_shard = merge(vec![("w.json".into(), whole)]).unwrap_err();
        assert!(not_shard.contains("not a `suite --shard` report"), "{not_shard}");
    }
}
