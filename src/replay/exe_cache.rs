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

use crate::frontend::{Digest, ListedCache};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Executables kept: enough for the harnesses a user alternates between
/// (each is a few megabytes with the sanitizers).
const KEEP: usize = 32;

/// One build's place in the cache.
pub(super) struct ExeCache {
    shelf: ListedCache,
    key: String,
}

impl ExeCache {
    /// The entry of the build `clang args` (the whole command but `-o`)
    /// from `inputs` (whose text is in the key); None when the cache is off.
    pub(super) fn for_build(clang: &Path, args: &[OsString], inputs: &[PathBuf]) -> Option<Self> {
        if crate::frontend::build_cache_off() {
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
        Some(ExeCache { shelf: executables(dir), key: d.hex() })
    }

    /// Copies the cached executable to `out` when there is one and every
    /// file it was built from still has the text it had.
    pub(super) fn lookup(&self, out: &Path) -> bool {
        self.shelf.lookup(&self.key, out)
    }

    /// Stores `exe` with the files named by clang's dependency output
    /// `deps` (Make rules, one per compiled input).
    pub(super) fn store(&self, exe: &Path, deps: &str) {
        self.shelf.store(&self.key, exe, crate::frontend::parse_depfile(deps));
    }
}

/// The executables' shelf in `dir`.
fn executables(dir: PathBuf) -> ListedCache {
    ListedCache::new(dir, "exe", "deps", KEEP)
}

/// The first `flags` line of /proc/cpuinfo (the instruction set
/// extensions `-march=native` picks from), or "" where there is none.
fn cpu_identity() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let line = |key: &str| info.lines().find(|l| l.starts_with(key)).unwrap_or("").to_string();
    format!("{}\n{}", line("model name"), line("flags"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_a_dependency_text_is_read() {
        let text = "a.o: a.c /usr/include/stdio.h \\\n  inc/my\\ header.h\nb.o: b.c inc/b.h\n";
        assert_eq!(
            crate::frontend::parse_depfile(text),
            ["a.c", "/usr/include/stdio.h", "inc/my header.h", "b.c", "inc/b.h"].map(PathBuf::from).to_vec()
        );
    }

    #[test]
    fn an_executable_is_used_only_while_its_files_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let (source, header) = (dir.path().join("x.c"), dir.path().join("h.h"));
        std::fs::write(&source, "#include \"h.h\"\n").unwrap();
        std::fs::write(&header, "#define N 1\n").unwrap();
        let exe = dir.path().join("built");
        std::fs::write(&exe, b"ELF").unwrap();
        let cache = ExeCache { shelf: executables(dir.path().join("cache")), key: "k1".into() };
        let out = dir.path().join("out");
        assert!(!cache.lookup(&out), "nothing stored yet");
        cache.store(&exe, &format!("x.o: {} {}\n", source.display(), header.display()));
        assert!(cache.lookup(&out));
        assert_eq!(std::fs::read(&out).unwrap(), b"ELF");
        std::fs::write(&header, "#define N 2\n").unwrap();
        assert!(!cache.lookup(&out), "a changed header is a miss");
        let unreadable = ExeCache { shelf: executables(dir.path().join("cache")), key: "k2".into() };
        unreadable.store(&exe, "y.o: no-such-file.c\n");
        assert!(!unreadable.lookup(&out), "a file that cannot be read leaves no entry");
    }
}
