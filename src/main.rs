//! The `symcross` command; everything but the SIGPIPE set-up is in the
//! library (`symcross::cli::main`).

fn main() {
    // Output piped into `head` and friends: a closed pipe ends the process
    // quietly, as for any Unix tool, instead of a panic on the next write.
    // SAFETY: restoring the default disposition of SIGPIPE before any
    // thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(symcross::cli::main());
}
