//! The runtime model compiled once, not on every run: the linked bitcode of
//! cl-runtime-model/host or /device is kept in a cache directory under a
//! key made of everything that goes into it (the tools, every clang
//! argument, the text of every runtime file and header). Any change gives a
//! new key, so a stale library is never used.
//!
//! The cache directory is `$SYMCROSS_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/symcross`, else `~/.cache/symcross`. Setting
//! `SYMCROSS_CACHE_DIR` to an empty string turns caching off; a directory
//! that cannot be written also just means compiling every time.

use super::clang::{self, Language};
use super::error::FrontendError;
use super::link;
use super::{CompileOptions, Tools};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// The cache directory, if caching is on.
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os("SYMCROSS_CACHE_DIR") {
        Some(d) if d.is_empty() => return None,
        Some(d) => return Some(PathBuf::from(d)),
        None => {}
    }
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("symcross"));
    }
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache/symcross"))
}

/// A 128-bit digest (two independently seeded 64-bit hashes), used as a
/// cache key.
pub struct Digest(rustc_hash::FxHasher, std::collections::hash_map::DefaultHasher);

impl Default for Digest {
    fn default() -> Self {
        Digest::new()
    }
}

impl Digest {
    /// An empty digest.
    pub fn new() -> Self {
        Digest(rustc_hash::FxHasher::default(), std::collections::hash_map::DefaultHasher::new())
    }
    /// Adds `bytes`, preceded by their length.
    pub fn add(&mut self, bytes: &[u8]) {
        // Length first, so that concatenations cannot collide.
        self.0.write_usize(bytes.len());
        self.1.write_usize(bytes.len());
        self.0.write(bytes);
        self.1.write(bytes);
    }
    pub(super) fn add_file(&mut self, path: &Path) {
        self.add(path.as_os_str().as_encoded_bytes());
        self.add(&std::fs::read(path).unwrap_or_default());
    }
    /// A tool is identified by its path, size and modification time (an
    /// upgrade of clang changes them).
    pub(super) fn add_tool(&mut self, path: &Path) {
        self.add(path.as_os_str().as_encoded_bytes());
        if let Ok(m) = std::fs::metadata(path) {
            self.add(&m.len().to_le_bytes());
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_nanos()).unwrap_or(0);
            self.add(&mtime.to_le_bytes());
        }
    }
    /// The digest as 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.0.finish(), self.1.finish())
    }
}

/// Every file under `root` (headers included), sorted, so
/// that an edit to any of them changes the key.
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Compiles `files` (all in `lang`) and links them into one library in
/// `dir`, or returns the cached library built from the same inputs.
pub fn runtime_library(
    files: &[PathBuf],
    lang: Language,
    name: &str,
    dir: &Path,
    opts: &CompileOptions,
    tools: &Tools,
    runtime: Option<&Path>,
) -> Result<PathBuf, FrontendError> {
    // The runtime is the implementation's library: the user's -D and -I
    // are for the user's code (a `-D T=float` or a header shadowing one the
    // runtime includes must not change it), and so are -std, -O and the
    // like (flags.rs); only OpenCL semantics flags, such as
    // -cl-fp32-correctly-rounded-divide-sqrt, apply. The target does.
    let cflags = opts.cflags.iter().filter(|f| super::flags::reaches_runtime(f)).cloned().collect();
    let opts = &CompileOptions {
        include_dirs: Vec::new(),
        defines: Vec::new(),
        cflags,
        opencl: opts.opencl,
        cuda_host: false,
        target: opts.target.clone(),
        scratch: None,
    };
    let cached = cache_dir().map(|d| d.join(format!("{name}-{}.bc", key(files, lang, opts, tools, runtime))));
    if let Some(here) = cached.as_deref().and_then(|c| take_cached(c, dir, name)) {
        return Ok(here);
    }
    if let Some(c) = &cached {
        // A few seconds the first time: say why this run is slower.
        eprintln!(
            "symcross: compiling the runtime model ({name}) for these flags, once; it is kept in {}",
            c.parent().unwrap_or(c).display()
        );
    }
    tracing::debug!(library = name, "compiling the runtime model");
    let mut objects = Vec::with_capacity(files.len());
    for (i, src) in files.iter().enumerate() {
        let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("runtime");
        let out = dir.join(format!("{name}-{i}-{stem}.bc"));
        objects.push(clang::compile(&tools.clang, lang, clang::Role::Runtime, src, &out, opts, runtime)?);
    }
    let library = dir.join(format!("{name}.bc"));
    link::link(&tools.llvm_link, &objects, &library)?;
    if let Some(c) = cached {
        store(&library, &c);
        prune(&c, name);
    }
    Ok(library)
}

/// This run's own name for the cached library `cached`: a hard link (or a
/// copy) in the run's directory `dir`. Returning the cache's path itself let
/// another run's `prune` delete it before this run linked it in (seen as
/// llvm-link not finding the file when runs with many flag sets, or
/// several checkouts, share one cache); the run's name outlives a prune.
/// `None` when there is no cached library (or it went away meanwhile).
fn take_cached(cached: &Path, dir: &Path, name: &str) -> Option<PathBuf> {
    let here = dir.join(format!("{name}-cached.bc"));
    let _ = std::fs::remove_file(&here);
    if std::fs::hard_link(cached, &here).is_ok() || std::fs::copy(cached, &here).is_ok() {
        Some(here)
    } else {
        None
    }
}

/// The cache key of a runtime library.
fn key(files: &[PathBuf], lang: Language, opts: &CompileOptions, tools: &Tools, runtime: Option<&Path>) -> String {
    let mut d = Digest::new();
    d.add(env!("CARGO_PKG_VERSION").as_bytes());
    d.add_tool(&tools.clang);
    d.add_tool(&tools.llvm_link);
    for f in files {
        // The output path is not part of the key (it is always fresh).
        for a in clang::clang_args(lang, clang::Role::Runtime, f, Path::new("out.bc"), opts, runtime) {
            d.add(a.as_bytes());
        }
    }
    if let Some(root) = runtime {
        for f in files_under(root) {
            d.add_file(&f);
        }
    }
    // The Khronos headers the host runtime includes.
    for f in files_under(Path::new("/usr/include/CL")) {
        d.add_file(&f);
    }
    d.hex()
}

/// Copies `library` into the cache as `target`, atomically: a reader sees
/// either no file or the whole file. Failures only cost a recompile later.
fn store(library: &Path, target: &Path) {
    let Some(parent) = target.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let Ok(tmp) = tempfile::NamedTempFile::new_in(parent) else { return };
    if std::fs::copy(library, tmp.path()).is_ok() {
        let _ = tmp.persist(target);
    }
}

/// Libraries of one kind kept in the cache: enough for the flag sets a
/// user alternates between, without growing forever as the runtime changes.
const KEEP_PER_KIND: usize = 16;

/// Deletes the oldest libraries named `name-*.bc` beyond KEEP_PER_KIND.
fn prune(newest: &Path, name: &str) {
    let Some(dir) = newest.parent() else { return };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let prefix = format!("{name}-");
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".bc")))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    // The library just stored stays whatever the clock's granularity.
    for (_, old) in files.into_iter().skip(KEEP_PER_KIND).filter(|(_, p)| p != newest) {
        let _ = std::fs::remove_file(old);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_keeps_the_newest_of_one_kind_only() {
        let dir = tempfile::tempdir().unwrap();
        for k in 0..20 {
            std::fs::write(dir.path().join(format!("device-builtins-{k:02}.bc")), b"x").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(15));
        }
        std::fs::write(dir.path().join("host-runtime-00.bc"), b"x").unwrap();
        prune(&dir.path().join("device-builtins-19.bc"), "device-builtins");
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        left.sort();
        assert_eq!(left.len(), 17, "{left:?}");
        assert!(left.contains(&"host-runtime-00.bc".to_string()));
        assert!(left.contains(&"device-builtins-19.bc".to_string()) && !left.contains(&"device-builtins-03.bc".to_string()));
    }

    #[test]
    fn a_cached_library_taken_by_a_run_outlives_a_prune_of_the_cache() {
        let cache = tempfile::tempdir().unwrap();
        let run = tempfile::tempdir().unwrap();
        let cached = cache.path().join("device-builtins-00.bc");
        std::fs::write(&cached, b"bitcode").unwrap();
        let here = take_cached(&cached, run.path(), "device-builtins").expect("taken");
        assert!(here.starts_with(run.path()), "{}", here.display());
        // Another run prunes it before this one links it in.
        std::fs::remove_file(&cached).unwrap();
        assert_eq!(std::fs::read(&here).unwrap(), b"bitcode");
        // Taken again into the same directory: replaced, not an error.
        std::fs::write(&cached, b"bitcode 2").unwrap();
        assert_eq!(std::fs::read(take_cached(&cached, run.path(), "device-builtins").unwrap()).unwrap(), b"bitcode 2");
        assert!(take_cached(&cache.path().join("none.bc"), run.path(), "host-runtime").is_none());
    }

    #[test]
    fn the_key_changes_with_the_flags() {
        let tools = Tools::locate();
        let runtime = crate::frontend::runtime_dir();
        let files = vec![PathBuf::from("a.cl")];
        let plain = CompileOptions::default();
        let fp32 = CompileOptions { cflags: vec!["-cl-fp32-correctly-rounded-divide-sqrt".into()], ..Default::default() };
        let a = key(&files, Language::OpenCl, &plain, &tools, runtime.as_deref());
        let b = key(&files, Language::OpenCl, &fp32, &tools, runtime.as_deref());
        assert_ne!(a, b);
        assert_eq!(a, key(&files, Language::OpenCl, &plain, &tools, runtime.as_deref()));
    }
}
