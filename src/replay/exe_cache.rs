//! The native replay executable built once, not on every run: a harness
//! with a finding is replayed each time it is checked, and compiling and
//! linking it with the sanitizers is most of a replay's cost. The
//! executable is kept in the cache directory (`replay-exe/`), under a key
//! of everything that goes into it: symcross's version, clang (path, size,
//! modification time), this CPU (`-march=native`), the working directory,
//! every argument of the build command (flags, `-I`, `-D`, target, inputs
//! and the cached runtime objects, whose names carry their own digest) and
//! every input's text. Headers are found by clang, so each entry also lists
//! the files the compile read (clang's dependency file, `-MD`) with a
//! digest of their text: an entry is used only while all of them are
//! unchanged. A warm replay then runs neither clang nor the linker.
//!
//! `SYMCROSS_BUILD_CACHE=off` (or an empty `SYMCROSS_CACHE_DIR`) builds
//! every time; a cache that cannot be written just means building again.

use crate::frontend::Digest;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Executables kept: enough for the harnesses a user alternates between
/// (each is a few megabytes with the sanitizers).
const KEEP: usize = 32;

/// One build's place in the cache.
pub(super) struct ExeCache {
    dir: PathBuf,
    key: String,
}

impl ExeCache {
    /// The entry of the build `clang args` (the whole command but `-o`)
    /// from `inputs` (whose text is in the key); None when the cache is off.
    pub(super) fn for_build(clang: &Path, args: &[OsString], inputs: &[PathBuf]) -> Option<Self> {
        let off =
            std::env::var("SYMCROSS_BUILD_CACHE").is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "off" | "0" | "no" | "false"));
        if off {
            return None;
        }
        let dir = crate::frontend::cache_dir()?.join("replay-exe");
        let mut d = Digest::new();
        d.add(env!("CARGO_PKG_VERSION").as_bytes());
        d.add(clang.as_os_str().as_encoded_bytes());
        if let Ok(m) = std::fs::metadata(clang) {
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |t| t.as_nanos());
            d.add(&m.len().to_le_bytes());
            d.add(&mtime.to_le_bytes());
        }
        // -march=native: an executable built on another CPU (a cache
        // directory shared between machines) may not run here.
        d.add(cpu_identity().as_bytes());
        d.add(std::env::current_dir().unwrap_or_default().as_os_str().as_encoded_bytes());
        d.add(&args.len().to_le_bytes());
        for a in args {
            d.add(a.as_encoded_bytes());
        }
        for i in inputs {
            d.add(i.as_os_str().as_encoded_bytes());
            d.add(&std::fs::read(i).ok()?);
        }
        Some(ExeCache { dir, key: d.hex() })
    }

    fn entry(&self) -> (PathBuf, PathBuf) {
        (self.dir.join(format!("{}.exe", self.key)), self.dir.join(format!("{}.deps", self.key)))
    }

    /// Copies the cached executable to `out` when there is one and every
    /// file it was built from still has the text it had.
    pub(super) fn lookup(&self, out: &Path) -> bool {
        let (exe, deps) = self.entry();
        let Ok(list) = std::fs::read_to_string(&deps) else { return false };
        for line in list.lines() {
            let Some((digest, path)) = line.split_once('\t') else { return false };
            if file_digest(Path::new(path)).as_deref() != Some(digest) {
                tracing::debug!(file = path, "replay executable cache: a file changed, building again");
                return false;
            }
        }
        // It may have been pruned since the list was read: a miss.
        std::fs::copy(&exe, out).is_ok()
    }

    /// Stores `exe` with the files named by clang's dependency output
    /// `deps` (Make rules, one per compiled input). The executable goes in
    /// first and the list last, each atomically, so a reader that finds a
    /// list finds the whole executable. Nothing is stored when a listed
    /// file cannot be read (it could not be checked later).
    pub(super) fn store(&self, exe: &Path, deps: &str) {
        let mut files = prerequisites(deps);
        files.sort();
        files.dedup();
        let mut list = String::new();
        for f in &files {
            let Some(digest) = file_digest(f) else { return };
            let Some(path) = f.to_str().filter(|p| !p.contains(['\t', '\n'])) else { return };
            list.push_str(&format!("{digest}\t{path}\n"));
        }
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let (exe_path, deps_path) = self.entry();
        let put = |target: &Path, write: &dyn Fn(&Path) -> std::io::Result<()>| -> bool {
            let Ok(tmp) = tempfile::NamedTempFile::new_in(&self.dir) else { return false };
            write(tmp.path()).is_ok() && tmp.persist(target).is_ok()
        };
        if put(&exe_path, &|p| std::fs::copy(exe, p).map(|_| ())) && put(&deps_path, &|p| std::fs::write(p, &list)) {
            prune(&self.dir, &exe_path);
        }
    }
}

/// The first `flags` line of /proc/cpuinfo (the instruction set
/// extensions `-march=native` picks from), or "" where there is none.
fn cpu_identity() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let line = |key: &str| info.lines().find(|l| l.starts_with(key)).unwrap_or("").to_string();
    format!("{}\n{}", line("model name"), line("flags"))
}

/// The digest of one file's text, or None when it cannot be read.
fn file_digest(path: &Path) -> Option<String> {
    let mut d = Digest::new();
    d.add(&std::fs::read(path).ok()?);
    Some(d.hex())
}

/// The prerequisites of every rule of a Make-style dependency text (the
/// sources and every header read), with `\ ` as an escaped space.
fn prerequisites(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let mut out = Vec::new();
    for rule in joined.lines() {
        let Some(colon) = rule.find(": ") else { continue };
        let mut word = String::new();
        let mut chars = rule[colon + 2..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    word.push(' ');
                    chars.next();
                }
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        out.push(PathBuf::from(std::mem::take(&mut word)));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            out.push(PathBuf::from(word));
        }
    }
    out
}

/// Deletes the oldest executables beyond KEEP (never `newest`).
fn prune(dir: &Path, newest: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut exes: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "exe"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    if exes.len() <= KEEP {
        return;
    }
    exes.sort_by_key(|m| std::cmp::Reverse(m.0));
    for (_, old) in exes.into_iter().skip(KEEP).filter(|(_, p)| p != newest) {
        // The list first: an entry without its list is never read.
        let _ = std::fs::remove_file(old.with_extension("deps"));
        let _ = std::fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_a_dependency_text_is_read() {
        let text = "a.o: a.c /usr/include/stdio.h \\\n  inc/my\\ header.h\nb.o: b.c inc/b.h\n";
        assert_eq!(prerequisites(text), ["a.c", "/usr/include/stdio.h", "inc/my header.h", "b.c", "inc/b.h"].map(PathBuf::from).to_vec());
    }

    #[test]
    fn an_executable_is_used_only_while_its_files_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let (source, header) = (dir.path().join("x.c"), dir.path().join("h.h"));
        std::fs::write(&source, "#include \"h.h\"\n").unwrap();
        std::fs::write(&header, "#define N 1\n").unwrap();
        let exe = dir.path().join("built");
        std::fs::write(&exe, b"ELF").unwrap();
        let cache = ExeCache { dir: dir.path().join("cache"), key: "k1".into() };
        let out = dir.path().join("out");
        assert!(!cache.lookup(&out), "nothing stored yet");
        cache.store(&exe, &format!("x.o: {} {}\n", source.display(), header.display()));
        assert!(cache.lookup(&out));
        assert_eq!(std::fs::read(&out).unwrap(), b"ELF");
        std::fs::write(&header, "#define N 2\n").unwrap();
        assert!(!cache.lookup(&out), "a changed header is a miss");
        let unreadable = ExeCache { dir: dir.path().join("cache"), key: "k2".into() };
        unreadable.store(&exe, "y.o: no-such-file.c\n");
        assert!(!unreadable.lookup(&out), "a file that cannot be read leaves no entry");
    }
}
