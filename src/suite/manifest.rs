//! `symcross.toml`: the checks and kernels of a suite, each with its flags
//! and its expected outcome. `[defaults]` gives values every entry uses
//! unless it sets its own; `[[check]]` and `[[race]]` entries name files
//! (linked together) or globs (one entry per matching file). Every error
//! names the manifest and the line.

use crate::report::FindingKind;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// An error in a manifest, with its file and line.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ManifestError {
    /// The manifest's path, as given.
    pub file: String,
    /// 1-based line of the offending value; 0 when the file could not be read.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// What an entry is expected to give.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expectation {
    /// Verdict `equivalent`.
    Equivalent,
    /// Verdict `no-findings` (a program without checks, no memory error).
    NoFindings,
    /// At least one confirmed finding (verdict `findings`).
    Findings,
    /// Verdict `findings` with a confirmed finding of this kind.
    Kind(String),
    /// Verdict `inconclusive`.
    Inconclusive,
}

impl Expectation {
    /// The expectation an `expect = "..."` value names: a verdict or a finding kind; `None` for anything else.
    pub fn parse(s: &str) -> Option<Expectation> {
        match s {
            "equivalent" => Some(Expectation::Equivalent),
            "no-findings" => Some(Expectation::NoFindings),
            "findings" => Some(Expectation::Findings),
            "inconclusive" => Some(Expectation::Inconclusive),
            k if FindingKind::ALL.iter().any(|kind| kind.name() == k) => Some(Expectation::Kind(k.to_string())),
            _ => None,
        }
    }

    /// The expectation in a few words, as the suite summary prints it.
    pub fn describe(&self) -> String {
        match self {
            Expectation::Equivalent => "equivalent".into(),
            Expectation::NoFindings => "no-findings".into(),
            Expectation::Findings => "findings".into(),
            Expectation::Kind(k) => format!("findings {k}"),
            Expectation::Inconclusive => "inconclusive".into(),
        }
    }
}

/// One run of the suite: a `symcross check` or `symcross race` command.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Unique within the manifest (default: the files, and the assumptions).
    pub name: String,
    /// `check` or `race`.
    pub command: &'static str,
    /// Input files, relative to the manifest's directory when relative.
    pub files: Vec<PathBuf>,
    /// The command-line options of the run (everything but the files).
    pub options: Vec<String>,
    /// Rule directories (their files are part of the cache key).
    pub rules: Vec<PathBuf>,
    /// Include directories (searched for quoted includes of the cache key).
    pub include: Vec<PathBuf>,
    /// What the run is expected to give.
    pub expect: Expectation,
    /// Manifest line of the entry.
    pub line: usize,
}

/// A parsed manifest: its entries with the defaults applied and the globs expanded.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The manifest file.
    pub path: PathBuf,
    /// The directory paths are relative to, and where entries run.
    pub root: PathBuf,
    /// The entries, in manifest order.
    pub entries: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    defaults: Option<Spanned<RawEntry>>,
    #[serde(default)]
    check: Vec<Spanned<RawEntry>>,
    #[serde(default)]
    race: Vec<Spanned<RawEntry>>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(untagged)]
enum OneOrMany {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn list(&self) -> Vec<String> {
        match self {
            OneOrMany::None => Vec::new(),
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
    fn is_set(&self) -> bool {
        !matches!(self, OneOrMany::None)
    }
}

/// The fields of an entry and of `[defaults]`.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEntry {
    name: Option<String>,
    #[serde(default)]
    files: OneOrMany,
    #[serde(default)]
    glob: OneOrMany,
    #[serde(default)]
    exclude: OneOrMany,
    expect: Option<Spanned<String>>,
    cflags: Option<String>,
    defines: Option<Vec<String>>,
    include: Option<Vec<String>>,
    target: Option<String>,
    #[serde(default)]
    assume: OneOrMany,
    rules: Option<Vec<String>>,
    trust_rules: Option<bool>,
    max_time: Option<f64>,
    max_paths: Option<u64>,
    max_instructions: Option<u64>,
    max_memory: Option<u64>,
    query_timeout: Option<f64>,
    query_budget: Option<u32>,
    entry: Option<String>,
    extra_args: Option<Vec<String>>,
    // race only
    kernel: Option<String>,
    local_size: Option<String>,
    num_groups: Option<String>,
    global_size: Option<String>,
    args: Option<Vec<String>>,
    allow_benign_races: Option<bool>,
    mode: Option<String>,
}

/// Reads and checks a manifest.
pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| ManifestError { file: file.clone(), line: 0, message: format!("cannot read: {e}") })?;
    let root = path.parent().map(Path::to_path_buf).filter(|p| !p.as_os_str().is_empty()).unwrap_or_else(|| PathBuf::from("."));
    parse(&text, &file, &root)
}

/// Parses manifest text; `root` is the directory its paths are relative to.
pub fn parse(text: &str, file: &str, root: &Path) -> Result<Manifest, ManifestError> {
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let err = |offset: usize, message: String| ManifestError { file: file.to_string(), line: line_of(offset), message };
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let offset = e.span().map(|s| s.start).unwrap_or(0);
        err(offset, e.message().to_string())
    })?;
    let defaults = match &raw.defaults {
        Some(d) => {
            let v = d.get_ref();
            if v.name.is_some() || v.files.is_set() || v.glob.is_set() {
                return Err(err(d.span().start, "[defaults] cannot name files, globs or a name: those belong to each entry".into()));
            }
            v.clone()
        }
        None => RawEntry::default(),
    };
    let mut entries: Vec<Entry> = Vec::new();
    for (command, list) in [("check", &raw.check), ("race", &raw.race)] {
        for spanned in list {
            let at = spanned.span().start;
            let e = merge(spanned.get_ref(), &defaults);
            if let Some(x) = &e.expect {
                if Expectation::parse(x.get_ref()).is_none() {
                    return Err(err(x.span().start, bad_expect(x.get_ref())));
                }
            }
            for entry in expand(&e, command, root, line_of(at)).map_err(|m| err(at, m))? {
                if let Some(prev) = entries.iter().find(|p| p.name == entry.name) {
                    return Err(err(
                        at,
                        format!("two entries are named `{}` (the other is at line {}); give one a `name`", entry.name, prev.line),
                    ));
                }
                entries.push(entry);
            }
        }
    }
    if entries.is_empty() {
        return Err(err(0, "the manifest has no [[check]] or [[race]] entry".into()));
    }
    Ok(Manifest { path: PathBuf::from(file), root: root.to_path_buf(), entries })
}

fn bad_expect(text: &str) -> String {
    format!("`expect = \"{text}\"` is not an outcome: use equivalent, findings, inconclusive, or a finding kind (mismatch, race, out-of-bounds, ...)")
}

/// The entry's own values, else the defaults'.
fn merge(e: &RawEntry, d: &RawEntry) -> RawEntry {
    macro_rules! pick {
        ($($f:ident),*) => { RawEntry { $($f: e.$f.clone().or_else(|| d.$f.clone()),)* ..e.clone() } };
    }
    let mut out = pick!(
        expect,
        cflags,
        defines,
        include,
        target,
        rules,
        trust_rules,
        max_time,
        max_paths,
        max_instructions,
        max_memory,
        query_timeout,
        query_budget,
        entry,
        extra_args,
        kernel,
        local_size,
        num_groups,
        global_size,
        args,
        allow_benign_races,
        mode
    );
    if !out.assume.is_set() {
        out.assume = d.assume.clone();
    }
    if !out.exclude.is_set() {
        out.exclude = d.exclude.clone();
    }
    out
}

/// One entry per glob match, or one entry for the listed files.
fn expand(e: &RawEntry, command: &'static str, root: &Path, line: usize) -> Result<Vec<Entry>, String> {
    let expect_text = e
        .expect
        .as_ref()
        .ok_or("the entry has no `expect` (equivalent, findings, inconclusive, or a finding kind such as mismatch or race)")?;
    let expect = Expectation::parse(expect_text.get_ref()).ok_or_else(|| bad_expect(expect_text.get_ref()))?;
    let options = options(e, command)?;
    let files = e.files.list();
    let globs = e.glob.list();
    let groups: Vec<Vec<PathBuf>> = match (files.is_empty(), globs.is_empty()) {
        (false, true) => {
            for f in &files {
                if !root.join(f).is_file() {
                    return Err(format!("no file `{f}` (paths are relative to the manifest's directory)"));
                }
            }
            vec![files.iter().map(PathBuf::from).collect()]
        }
        (true, false) => matches(&globs, &e.exclude.list(), root)?.into_iter().map(|f| vec![f]).collect(),
        (false, false) => return Err("give `files` or `glob`, not both".into()),
        (true, true) => return Err("the entry names no input: give `files = [...]` or `glob = \"...\"`".into()),
    };
    if e.name.is_some() && groups.len() > 1 {
        return Err(format!("`name` names one entry, but the glob matched {} files", groups.len()));
    }
    let assume = e.assume.list().join(",");
    Ok(groups
        .into_iter()
        .map(|files| {
            let mut name = e.name.clone().unwrap_or_else(|| files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" "));
            if e.name.is_none() && !assume.is_empty() {
                name = format!("{name} [assume {assume}]");
            }
            Entry {
                name,
                command,
                files,
                options: options.clone(),
                rules: e.rules.clone().unwrap_or_default().into_iter().map(PathBuf::from).collect(),
                include: e.include.clone().unwrap_or_default().into_iter().map(PathBuf::from).collect(),
                expect: expect.clone(),
                line,
            }
        })
        .collect())
}

/// The files matching any of `globs` and none of `exclude` (patterns on the
/// path relative to the manifest's directory, or on the file name).
fn matches(globs: &[String], exclude: &[String], root: &Path) -> Result<Vec<PathBuf>, String> {
    let excluded: Vec<glob::Pattern> =
        exclude.iter().map(|p| glob::Pattern::new(p).map_err(|e| format!("bad exclude pattern `{p}`: {e}"))).collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for g in globs {
        let full = root.join(g);
        let paths = glob::glob(&full.to_string_lossy()).map_err(|e| format!("bad glob `{g}`: {e}"))?;
        let mut n = 0;
        for p in paths.flatten() {
            let rel = p.strip_prefix(root).unwrap_or(&p).to_path_buf();
            let file_name = rel.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if excluded.iter().any(|x| x.matches_path(&rel) || x.matches(&file_name)) || !p.is_file() {
                continue;
            }
            n += 1;
            if !out.contains(&rel) {
                out.push(rel);
            }
        }
        if n == 0 {
            return Err(format!("the glob `{g}` matches no file (paths are relative to the manifest's directory)"));
        }
    }
    out.sort();
    Ok(out)
}

/// The command-line options of an entry, checked for the command.
fn options(e: &RawEntry, command: &str) -> Result<Vec<String>, String> {
    let mut o: Vec<String> = Vec::new();
    let mut flag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            o.push(format!("--{name}"));
            o.push(v);
        }
    };
    let mut cflags = e.cflags.clone().unwrap_or_default();
    if let Some(t) = &e.target {
        cflags = format!("--target={t} {cflags}").trim().to_string();
    }
    flag("cflags", Some(cflags).filter(|c| !c.is_empty()));
    flag("max-time", e.max_time.map(|v| v.to_string()));
    flag("max-paths", e.max_paths.map(|v| v.to_string()));
    flag("max-instructions", e.max_instructions.map(|v| v.to_string()));
    flag("max-memory", e.max_memory.map(|v| v.to_string()));
    flag("query-timeout", e.query_timeout.map(|v| v.to_string()));
    flag("query-budget", e.query_budget.map(|v| v.to_string()));
    for d in e.defines.iter().flatten() {
        o.push(format!("-D{d}"));
    }
    for i in e.include.iter().flatten() {
        o.push(format!("-I{i}"));
    }
    let race_only = [
        ("kernel", e.kernel.is_some()),
        ("local-size", e.local_size.is_some()),
        ("num-groups", e.num_groups.is_some()),
        ("global-size", e.global_size.is_some()),
        ("args", e.args.is_some()),
        ("allow-benign-races", e.allow_benign_races.is_some()),
        ("mode", e.mode.is_some()),
    ];
    let check_only = [
        ("assume", e.assume.is_set()),
        ("rules", e.rules.is_some()),
        ("trust-rules", e.trust_rules.is_some()),
        ("entry", e.entry.is_some()),
    ];
    let (wrong, other) = if command == "check" { (&race_only[..], "race") } else { (&check_only[..], "check") };
    if let Some((name, _)) = wrong.iter().find(|(_, set)| *set) {
        return Err(format!("`{name}` is for [[{other}]] entries only"));
    }
    if command == "check" {
        let assume = e.assume.list().join(",");
        if !assume.is_empty() {
            o.push("--assume".into());
            o.push(assume);
        }
        for r in e.rules.iter().flatten() {
            o.push("--rules".into());
            o.push(r.clone());
        }
        if e.trust_rules == Some(true) {
            o.push("--trust-rules".into());
        }
        if let Some(en) = &e.entry {
            o.push("--entry".into());
            o.push(en.clone());
        }
    } else {
        let local = e.local_size.clone().ok_or("a [[race]] entry needs `local-size`")?;
        o.push("--local-size".into());
        o.push(local);
        match (&e.num_groups, &e.global_size) {
            (Some(g), None) => o.extend(["--num-groups".into(), g.clone()]),
            (None, Some(g)) => o.extend(["--global-size".into(), g.clone()]),
            _ => return Err("a [[race]] entry needs one of `num-groups` and `global-size`".into()),
        }
        if let Some(k) = &e.kernel {
            o.extend(["--kernel".into(), k.clone()]);
        }
        for a in e.args.iter().flatten() {
            o.extend(["--arg".into(), a.clone()]);
        }
        if e.allow_benign_races == Some(true) {
            o.push("--allow-benign-races".into());
        }
        if let Some(m) = &e.mode {
            o.extend(["--mode".into(), m.clone()]);
        }
    }
    o.extend(e.extra_args.iter().flatten().cloned());
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finding_kind_can_be_expected() {
        for kind in FindingKind::ALL {
            assert_eq!(Expectation::parse(kind.name()), Some(Expectation::Kind(kind.name().to_string())), "{kind:?}");
        }
        assert_eq!(Expectation::parse("no-findings"), Some(Expectation::NoFindings));
        assert_eq!(Expectation::parse("misaligned-ish"), None);
    }

    fn parse_err(text: &str) -> String {
        parse(text, "m.toml", Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line() {
        assert!(
            parse_err("[[check]]\nfiles = [\"harnesses/zlimit.c\"]\nexpect = \"equal\"\n").starts_with("m.toml:3: `expect = \"equal\"`")
        );
        assert!(parse_err("[[check]]\nfiles = [\"harnesses/zlimit.c\"]\nexpect = \"equivalent\"\nmax-tme = 3\n")
            .starts_with("m.toml:4: unknown field `max-tme`"));
        assert!(parse_err("[[check]]\nfiles = [\"harnesses/zlimit.c\"]\nexpect = \"equivalent\"\nkernel = \"k\"\n")
            .contains("`kernel` is for [[race]] entries only"));
        assert!(parse_err("\n[[check]]\nglob = \"nope/*.c\"\nexpect = \"findings\"\n")
            .starts_with("m.toml:2: the glob `nope/*.c` matches no file"));
    }

    #[test]
    fn defaults_apply_unless_overridden() {
        let text = "[defaults]\nexpect = \"equivalent\"\nmax-time = 5\n[[check]]\nfiles = \"harnesses/zlimit.c\"\n[[check]]\nfiles = \"harnesses/zlimit_broken.c\"\nexpect = \"mismatch\"\nmax-time = 7\n";
        let m = parse(text, "m.toml", Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(m.entries[0].expect, Expectation::Equivalent);
        assert_eq!(m.entries[0].options, ["--max-time", "5"]);
        assert_eq!(m.entries[1].expect, Expectation::Kind("mismatch".into()));
        assert_eq!(m.entries[1].options, ["--max-time", "7"]);
        assert_eq!(m.entries[1].line, 6);
    }
}
