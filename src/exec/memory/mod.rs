//! The executor's memory instructions, on the memory model of src/memory/:
//!
//! - `mem_ops.rs`: alloca, load, store, GEP, atomics and the pointer
//!   resolution they share;
//! - `constant_address.rs`: an access at a constant address inside an
//!   object, placed by numbers (an enumerated work-item's);
//! - `alignment.rs`: accesses whose address is not naturally aligned;
//! - `element_names.rs`: the element of an object a finding names;
//! - `pointer_select.rs`: an address that selects between objects;
//! - `read_only.rs`: writes into `const` objects;
//! - `subobject_bounds.rs`: indices past an array's declared length;
//! - `symbolic_size.rs`: allocations and copies of a symbolic size;
//! - `single_offset.rs`: whether a symbolic offset has one possible value;
//! - `shadow.rs`, `shadow_mem.rs`: the uninitialised-bits analysis, in
//!   registers and in memory.

pub(in crate::exec) mod alignment;
mod constant_address;
pub(in crate::exec) mod element_names;
pub mod mem_ops;
pub(in crate::exec) mod pointer_select;
pub(in crate::exec) mod read_only;
pub(in crate::exec) mod shadow;
pub(in crate::exec) mod shadow_mem;
mod single_offset;
pub(in crate::exec) mod subobject_bounds;
pub(in crate::exec) mod symbolic_size;
pub(in crate::exec) mod vec3_padding;
