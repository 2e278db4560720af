fn main() {
    std::process::exit(symcross::cli::main());
}
