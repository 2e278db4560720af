//! Temporary directories that do not pile up. Each one (`symcross-XXXXXX`
//! in the system temporary directory) holds a `.lock` file that its run
//! keeps locked (flock) while it lives; the kernel releases the lock when
//! the process dies, however it dies. At start-up every command removes
//! the `symcross-*` directories whose lock it can take: their runs were
//! killed (a second signal, SIGKILL, an outside timeout).

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

const PREFIX: &str = "symcross-";
const LOCK: &str = ".lock";

/// A temporary directory removed on drop, marked as alive by its lock.
#[derive(Debug)]
pub struct RunDir {
    dir: tempfile::TempDir,
    _lock: File,
}

impl RunDir {
    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Creates `symcross-<what>XXXXXX` and locks it.
pub fn create(what: &str) -> io::Result<RunDir> {
    let dir = tempfile::Builder::new().prefix(&format!("{PREFIX}{what}")).tempdir()?;
    // The lock is taken under another name and then renamed, so that a
    // `.lock` another run sees is always already held by its owner.
    let pending = dir.path().join(".lock-pending");
    let lock = File::create(&pending)?;
    // SAFETY: flock on a file descriptor we own.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(io::Error::last_os_error());
    }
    std::fs::rename(&pending, dir.path().join(LOCK))?;
    Ok(RunDir { dir, _lock: lock })
}

/// Directories without a lock (left by versions before the lock, or
/// caught between creation and locking) are removed only past this age.
const UNLOCKED_AGE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Removes the `symcross-*` directories of runs that are gone from `root`
/// (the system temporary directory by default); returns how many.
pub fn clean_stale(root: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(root) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let is_ours = name.to_str().is_some_and(|n| n.starts_with(PREFIX));
        // symlink_metadata: never follow a link out of the temp directory.
        let is_dir = entry.path().symlink_metadata().is_ok_and(|m| m.is_dir());
        if is_ours && is_dir && is_stale(&entry.path()) && std::fs::remove_dir_all(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn is_stale(dir: &Path) -> bool {
    match File::open(dir.join(LOCK)) {
        // SAFETY: flock on a file descriptor we own. Taking the lock means
        // its owner is gone; it is released on return, and nobody else
        // takes it but another cleaner.
        Ok(f) => unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 },
        Err(_) => {
            dir.symlink_metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok()).is_some_and(|age| age > UNLOCKED_AGE)
        }
    }
}

/// The system temporary directory, where `create` makes directories.
pub fn root() -> PathBuf {
    std::env::temp_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_directory_is_kept_and_a_dead_one_removed() {
        let live = create("test-").unwrap();
        // A directory whose lock nobody holds: its run is gone.
        let dead = tempfile::Builder::new().prefix("symcross-test-dead-").tempdir().unwrap().keep();
        File::create(dead.join(LOCK)).unwrap();
        clean_stale(&root());
        assert!(live.path().exists());
        assert!(!dead.exists());
        let path = live.path().to_path_buf();
        drop(live);
        assert!(!path.exists());
    }
}
