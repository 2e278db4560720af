//! The user's inputs compiled once, not on every run: the finished module
//! (compiled, linked with the runtime model, mem2reg'd) is kept in the
//! cache directory of the runtime model (`modules/`), under a key made of
//! everything that goes into it: symcross's version, the tools, the
//! working directory (relative paths and debug info depend on it), every
//! input's path, kind and text, every clang argument, and the runtime
//! model's files. Headers are found by clang, so each entry also records
//! the headers the compile read (clang's dependency list) with a digest of
//! their text: an entry is used only while every one of them is unchanged.
//! A warm run therefore starts no clang, llvm-link or opt at all.
//!
//! `SYMCROSS_BUILD_CACHE=off` (or an empty `SYMCROSS_CACHE_DIR`, which
//! turns every cache off) compiles every time; a cache that cannot be
//! written also just means compiling every time.

use super::runtime_cache::{cache_dir, files_under, Digest};
use super::Tools;
use std::path::{Path, PathBuf};

/// Whether `SYMCROSS_BUILD_CACHE` turns the build caches off.
pub fn build_cache_off() -> bool {
    std::env::var("SYMCROSS_BUILD_CACHE").is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "off" | "0" | "no" | "false"))
}

/// The folder of cached modules, if this cache is on.
pub fn modules_dir() -> Option<PathBuf> {
    if build_cache_off() {
        return None;
    }
    cache_dir().map(|d| d.join("modules"))
}

/// The parts of a key, fed in by the front end as it classifies the inputs.
pub struct KeyBuilder(Digest);

impl KeyBuilder {
    /// A key for `tools` in the current directory, with the runtime model
    /// under `runtime` (and the Khronos headers its host side includes),
    /// and the text of every file in `scratch` (CompileOptions::scratch)
    /// by its name there.
    pub fn new(tools: &Tools, runtime: Option<&Path>, scratch: Option<&Path>) -> Self {
        let mut d = Digest::new();
        d.add(env!("CARGO_PKG_VERSION").as_bytes());
        for tool in [&tools.clang, &tools.llvm_link, &tools.opt] {
            d.add_tool(tool);
        }
        let cwd = std::env::current_dir().unwrap_or_default();
        d.add(cwd.as_os_str().as_encoded_bytes());
        // Clang records $PWD as the compile directory when it names the
        // same directory by another path (a symbolic link).
        d.add(std::env::var_os("PWD").unwrap_or_default().as_encoded_bytes());
        let mut roots: Vec<PathBuf> = runtime.map(Path::to_path_buf).into_iter().collect();
        roots.push(PathBuf::from("/usr/include/CL"));
        for root in roots {
            d.add(root.as_os_str().as_encoded_bytes());
            for f in files_under(&root) {
                d.add_file(&f);
            }
        }
        if let Some(scratch) = scratch {
            for f in files_under(scratch) {
                d.add(f.strip_prefix(scratch).unwrap_or(&f).as_os_str().as_encoded_bytes());
                d.add(&std::fs::read(&f).unwrap_or_default());
            }
        }
        KeyBuilder(d)
    }

    /// Adds one input: its path as given, its text, and the clang
    /// arguments it is compiled with (none for bitcode); the name of
    /// `scratch` is left out of both.
    pub fn input(&mut self, path: &Path, args: &[String], scratch: Option<&Path>) {
        let unnamed = |s: &str| match scratch.and_then(Path::to_str) {
            Some(dir) if !dir.is_empty() => s.replace(dir, "<scratch>"),
            _ => s.to_string(),
        };
        self.0.add(unnamed(&path.display().to_string()).as_bytes());
        self.0.add(&std::fs::read(path).unwrap_or_default());
        self.0.add(&args.len().to_le_bytes());
        for a in args {
            self.0.add(unnamed(a).as_bytes());
        }
    }

    /// Adds any other choice that changes the module.
    pub fn choice(&mut self, what: &str) {
        self.0.add(what.as_bytes());
    }

    /// The finished key.
    pub fn finish(&self) -> String {
        self.0.hex()
    }
}

/// A folder of built files, each under a key, each with the list of the
/// files it was built from (with a digest of their text): an entry is
/// used only while every listed file is unchanged. The module cache and
/// the native replay's executables (replay/exe_cache.rs) are two of them.
pub struct ListedCache {
    dir: PathBuf,
    /// Extension of a built file and of its list.
    extensions: (&'static str, &'static str),
    /// Entries kept; older ones are deleted.
    keep: usize,
}

/// Modules kept: enough for the harnesses and kernels a user alternates
/// between, without growing forever.
const KEEP_MODULES: usize = 128;

impl ListedCache {
    /// Built files with extension `built` and lists with `list` in `dir`,
    /// `keep` of them kept.
    pub fn new(dir: PathBuf, built: &'static str, list: &'static str, keep: usize) -> Self {
        ListedCache { dir, extensions: (built, list), keep }
    }

    /// Where the built file and its list of `key` live.
    fn entry(&self, key: &str) -> (PathBuf, PathBuf) {
        let (built, list) = self.extensions;
        (self.dir.join(format!("{key}.{built}")), self.dir.join(format!("{key}.{list}")))
    }

    /// The built file of `key`, copied to `out`, when there is one and
    /// every file it was built from still has the text it had.
    pub fn lookup(&self, key: &str, out: &Path) -> bool {
        let (built, listed) = self.entry(key);
        let Ok(list) = std::fs::read_to_string(&listed) else { return false };
        for line in list.lines() {
            let Some((digest, path)) = line.split_once('\t') else { return false };
            if file_digest(Path::new(path)).as_deref() != Some(digest) {
                tracing::debug!(cache = %self.dir.display(), file = path, "build cache: a listed file changed, building again");
                return false;
            }
        }
        // It may have been pruned since the list was read: a miss.
        std::fs::copy(&built, out).is_ok()
    }

    /// Stores `built` under `key` with `files`, the files it was built
    /// from. The built file goes in first and the list last, each
    /// atomically, so a reader that finds a list finds the whole file.
    /// Nothing is stored when a listed file cannot be read (it could not
    /// be checked later); failures only cost a build later.
    pub fn store(&self, key: &str, built: &Path, mut files: Vec<PathBuf>) {
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
        let (built_path, list_path) = self.entry(key);
        let put = |target: &Path, write: &dyn Fn(&Path) -> std::io::Result<()>| -> bool {
            let Ok(tmp) = tempfile::NamedTempFile::new_in(&self.dir) else { return false };
            write(tmp.path()).is_ok() && tmp.persist(target).is_ok()
        };
        if put(&built_path, &|p| std::fs::copy(built, p).map(|_| ())) && put(&list_path, &|p| std::fs::write(p, &list)) {
            self.prune(&built_path);
        }
    }

    /// Deletes the oldest entries beyond `keep` (never `newest`).
    fn prune(&self, newest: &Path) {
        let (built, list) = self.extensions;
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let mut kept: Vec<(std::time::SystemTime, PathBuf)> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == built))
            .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
            .collect();
        if kept.len() <= self.keep {
            return;
        }
        kept.sort_by_key(|m| std::cmp::Reverse(m.0));
        for (_, old) in kept.into_iter().skip(self.keep).filter(|(_, p)| p != newest) {
            // The list first: an entry without its list is never read.
            let _ = std::fs::remove_file(old.with_extension(list));
            let _ = std::fs::remove_file(old);
        }
    }
}

/// The digest of one file's text, or `None` when it cannot be read.
fn file_digest(path: &Path) -> Option<String> {
    let text = std::fs::read(path).ok()?;
    let mut d = Digest::new();
    d.add(&text);
    Some(d.hex())
}

/// The module cache in `dir`.
fn modules(dir: &Path) -> ListedCache {
    ListedCache::new(dir.to_path_buf(), "bc", "headers", KEEP_MODULES)
}

/// The cached module of `key`, copied to `out`, when there is one and every
/// header it was built from still has the text it had.
pub fn lookup(dir: &Path, key: &str, out: &Path) -> bool {
    modules(dir).lookup(key, out)
}

/// Stores `module` under `key` with the headers named by clang's
/// dependency files `depfiles` (but those in `scratch`, whose text is in
/// the key).
pub fn store(dir: &Path, key: &str, module: &Path, depfiles: &[PathBuf], scratch: Option<&Path>) {
    let mut headers: Vec<PathBuf> = Vec::new();
    for d in depfiles {
        let Ok(text) = std::fs::read_to_string(d) else { return };
        headers.extend(parse_depfile(&text).into_iter().filter(|h| !scratch.is_some_and(|s| h.starts_with(s))));
    }
    modules(dir).store(key, module, headers);
}

/// The prerequisites of every rule of a Make-style dependency text (the
/// sources and every header read), with `\ ` as an escaped space.
pub fn parse_depfile(text: &str) -> Vec<PathBuf> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dependency_file_lists_every_prerequisite() {
        let text = "/tmp/x/0-k.bc: k.cl /usr/lib/clang/19/include/opencl-c-base.h \\\n  inc/my\\ header.h \\\n  inc/b.h\n";
        let files = parse_depfile(text);
        assert_eq!(files, ["k.cl", "/usr/lib/clang/19/include/opencl-c-base.h", "inc/my header.h", "inc/b.h"].map(PathBuf::from).to_vec());
    }

    #[test]
    fn an_entry_is_used_only_while_its_headers_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("h.h");
        std::fs::write(&header, "#define N 1\n").unwrap();
        let source = dir.path().join("x.c");
        std::fs::write(&source, "#include \"h.h\"\n").unwrap();
        let dep = dir.path().join("x.d");
        std::fs::write(&dep, format!("x.bc: {} {}\n", source.display(), header.display())).unwrap();
        let module = dir.path().join("m.bc");
        std::fs::write(&module, b"BC").unwrap();
        let cache = dir.path().join("cache");
        store(&cache, "k1", &module, &[dep], None);
        let out = dir.path().join("out.bc");
        assert!(lookup(&cache, "k1", &out));
        assert_eq!(std::fs::read(&out).unwrap(), b"BC");
        assert!(!lookup(&cache, "k2", &out), "another key is another entry");
        std::fs::write(&header, "#define N 2\n").unwrap();
        assert!(!lookup(&cache, "k1", &out), "a changed header invalidates the entry");
        // A prerequisite that cannot be read leaves no entry: it could not
        // be checked later.
        let missing = dir.path().join("y.d");
        std::fs::write(&missing, "y.bc: no-such-file.c\n").unwrap();
        store(&cache, "k3", &module, &[missing], None);
        assert!(!lookup(&cache, "k3", &out));
    }
}
