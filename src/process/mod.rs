//! What belongs to the symcross process as a whole rather than to one
//! stage: the interrupt flag Ctrl-C sets (`interrupt`), the `--max-memory`
//! ceiling the solvers watch while a query runs (`memory_ceiling`), and the
//! temporary directories removed on every exit (`tempdirs`). Every stage
//! may use them; they use no other module.

pub mod interrupt;
pub mod memory_ceiling;
pub mod tempdirs;
