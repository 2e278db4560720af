//! Setting up an NDRange in a state: the buffers behind kernel arguments,
//! the `__local` objects each work-group starts afresh, and the `Gpu`
//! record the work-item scheduler runs. Shared by the two ways a kernel
//! runs: alone (`symcross race`, through `driver::run_kernel`) and
//! launched by a host program (launch.rs), so that both lay a kernel out
//! the same way.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::opencl::buffer_inputs::{BufferContents, HostAccess};
use crate::exec::opencl::workitems::{Gpu, NdRange, RaceMode};
use crate::expr::value::Value;
use crate::ir::FuncId;
use crate::memory::{Memory, ObjectId, ObjectKind};

/// Everything an NDRange needs besides its argument values.
#[derive(Clone, Debug)]
pub struct NdRangeSetup {
    /// The kernel function to run.
    pub kernel: FuncId,
    /// The sizes and offset of the launch.
    pub ndrange: NdRange,
    /// Enumerate every work-item, or run two with symbolic ids.
    pub mode: RaceMode,
    /// Races on which every writer stores the same value are not reported.
    pub allow_benign: bool,
    /// Enumerate mode: the flat indices of the groups to run, in that
    /// order (`None`: every group). `[0]` when every group behaves as the
    /// first one (race/group_symmetry.rs); the groups of a pair-mode
    /// finding when it is re-checked (driver/group_recheck.rs).
    pub only_groups: Option<Vec<u64>>,
}

/// What a kernel run alone passes for one parameter, as the driver read it
/// from `--arg` (a kernel alone has no host to give the values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandaloneArg {
    /// A struct passed by value: `size` bytes of symbolic contents, but
    /// for the pointers it holds, each to an unsized buffer of its own
    /// (as a pointer argument).
    SymbolicByval {
        /// The struct's size in bytes.
        size: u64,
        /// Its alignment in bytes.
        align: u64,
        /// The pointers it holds: byte offset, and the address space
        /// pointed to (numbered as for `Unsized`).
        pointers: Vec<(u64, u32)>,
    },
    /// A pointer without a size: an address-only object, unbounded.
    Unsized {
        /// The address space pointed to (OpenCL numbering:
        /// `crate::ir::GLOBAL_SPACE`, `crate::ir::LOCAL_SPACE`, ...).
        space: u32,
        /// What the host allowed the kernel to do with it.
        access: HostAccess,
    },
    /// A pointer to a buffer of `bytes` bytes in address space `space`:
    /// `contents` (symbolic unless given), except in local memory, which
    /// each group starts uninitialised.
    Buffer {
        /// The buffer's size in bytes.
        bytes: u64,
        /// The address space pointed to, numbered as for `Unsized`.
        space: u32,
        /// What the host wrote into it (global and constant buffers).
        contents: BufferContents,
        /// What the host allowed the kernel to do with it.
        access: HostAccess,
    },
    /// An image of `dims` dimensions: of the size given (width, height,
    /// depth in pixels), or of unknown size (images.rs).
    Image {
        /// 1, 2 or 3.
        dims: u8,
        /// Width, height and depth (1 past `dims`); None: unknown.
        size: Option<[u64; 3]>,
    },
    /// A scalar fixed by `--arg NAME=VALUE`: `bits` at width `width`.
    Fixed {
        /// The parameter's width in bits.
        width: u32,
        /// The value, in the low `width` bits.
        bits: u128,
    },
    /// A vector fixed by `--arg NAME=A,B,...`: each component's `bits`
    /// at width `width`.
    FixedLanes {
        /// A component's width in bits.
        width: u32,
        /// The components, first to last.
        lanes: Vec<u128>,
    },
    /// A symbolic scalar made of leaves of these widths.
    Symbolic {
        /// The leaves' widths in bits, in order; each leaf takes whole
        /// bytes of the parameter's input.
        widths: Vec<u32>,
    },
}

/// A buffer argument above the memory limit (`--max-memory`).
#[derive(Debug, PartialEq, Eq)]
pub struct BufferOverLimit {
    /// The parameter's name.
    pub name: String,
    /// The size asked for, in bytes.
    pub bytes: u64,
}

impl<'m> Executor<'m> {
    /// The initial state of a kernel run alone: globals laid out, one
    /// value per parameter of `setup.kernel` as `args` says (in order, so
    /// symbolic inputs are numbered as the parameters are), the NDRange
    /// installed and its first work-items started.
    pub fn standalone_kernel_state(&mut self, setup: NdRangeSetup, args: &[StandaloneArg]) -> Result<State, BufferOverLimit> {
        let mut state = self.memory_state();
        self.constant_memory_set_by_host(&mut state);
        let params = self.cx.module.function(setup.kernel).params.clone();
        let mut values = Vec::new();
        let mut local_objects = Vec::new();
        for (p, arg) in params.iter().zip(args) {
            let v = self.standalone_argument(&mut state, &p.name, arg, &mut local_objects)?;
            values.push(v);
        }
        self.install_ndrange(&mut state, setup, values, local_objects);
        self.start_kernel(&mut state);
        Ok(state)
    }

    fn standalone_argument(
        &mut self,
        state: &mut State,
        name: &str,
        arg: &StandaloneArg,
        locals: &mut Vec<ObjectId>,
    ) -> Result<Value, BufferOverLimit> {
        let memory = &mut state.memory;
        match arg {
            StandaloneArg::SymbolicByval { size, align, pointers } => {
                // A host passes valid pointers in a struct as it does
                // as arguments: not null, not into each other's buffers.
                let mut targets = Vec::new();
                for &(at, space) in pointers {
                    // Named as the source names the field (`p.dst.out`).
                    let types = &self.cx.module.debug_types;
                    let field = crate::report::dwarf_witness::element_label(types, name, *size, at).unwrap_or(format!("{name}@{at}"));
                    let obj = memory.allocate_address_only(&mut self.cx.pool, field, space);
                    mark_constant_read_only(memory, obj);
                    targets.push((at, memory.object(obj).base));
                }
                let base = self.symbolic_byval_argument(memory, name, *size, *align, &targets);
                Ok(smallvec::smallvec![self.cx.pool.constant(64, base as u128)])
            }
            StandaloneArg::Unsized { space, access } => {
                let obj = memory.allocate_address_only(&mut self.cx.pool, name.to_string(), *space);
                mark_constant_read_only(memory, obj);
                mark_host_access(memory, obj, *access);
                Ok(smallvec::smallvec![self.cx.pool.constant(64, memory.object(obj).base as u128)])
            }
            StandaloneArg::Buffer { bytes, space, contents, access } => {
                let Some(obj) = self.argument_buffer(memory, *bytes, *space, name.to_string()) else {
                    return Err(BufferOverLimit { name: name.to_string(), bytes: *bytes });
                };
                mark_host_access(memory, obj, *access);
                let base = memory.object(obj).base;
                if *space == crate::ir::LOCAL_SPACE {
                    locals.push(obj);
                } else {
                    self.fill_buffer(state, obj, name, *bytes, contents);
                }
                Ok(smallvec::smallvec![self.cx.pool.constant(64, base as u128)])
            }
            StandaloneArg::Image { dims, size } => {
                let Some(base) = self.image_argument(memory, name, *dims, *size) else {
                    let bytes = size.map_or(0, |s| s.iter().product::<u64>() * crate::exec::opencl::images::PIXEL_BYTES);
                    return Err(BufferOverLimit { name: name.to_string(), bytes });
                };
                Ok(smallvec::smallvec![self.cx.pool.constant(64, base as u128)])
            }
            StandaloneArg::Fixed { width, bits } => Ok(smallvec::smallvec![self.cx.pool.constant(*width, *bits)]),
            StandaloneArg::FixedLanes { width, lanes } => Ok(lanes.iter().map(|bits| self.cx.pool.constant(*width, *bits)).collect()),
            StandaloneArg::Symbolic { widths } => {
                let total: u32 = widths.iter().map(|w| w.div_ceil(8)).sum();
                let array = self.cx.pool.new_array(name, total);
                let mut out = Value::new();
                let mut byte = 0;
                for &w in widths {
                    out.push(self.cx.pool.input_word(array, byte, w));
                    byte += w.div_ceil(8);
                }
                Ok(out)
            }
        }
    }

    /// The object behind a pointer argument of `bytes` bytes in address
    /// space `space`; None if the memory limit does not admit it.
    pub(in crate::exec) fn argument_buffer(&mut self, memory: &mut Memory, bytes: u64, space: u32, name: String) -> Option<ObjectId> {
        self.admit_allocation(bytes).ok()?;
        let obj = memory.allocate(&mut self.cx.pool, bytes, 16, ObjectKind::Buffer, name);
        memory.object_mut(obj).addr_space = space;
        mark_constant_read_only(memory, obj);
        Some(obj)
    }

    /// Installs the NDRange in `state`: `local_objects` (the `__local`
    /// arguments) and the module's `__local` globals are what each group
    /// starts afresh.
    pub(in crate::exec) fn install_ndrange(
        &self,
        state: &mut State,
        setup: NdRangeSetup,
        args: Vec<Value>,
        mut local_objects: Vec<ObjectId>,
    ) {
        for (g, base) in self.cx.module.globals.iter().zip(&self.global_addr) {
            if g.addr_space == crate::ir::LOCAL_SPACE {
                if let Some(obj) = state.memory.object_near(*base) {
                    local_objects.push(obj);
                }
            }
        }
        let every_group = setup.only_groups.is_none();
        state.gpu = Some(Box::new(Gpu {
            ndrange: setup.ndrange,
            mode: setup.mode,
            items: Vec::new(),
            current: 0,
            group: 0,
            kernel: setup.kernel,
            args,
            log: Default::default(),
            allow_benign: setup.allow_benign,
            local_objects,
            item_started: 0,
            only_groups: setup.only_groups,
            summaries: Default::default(),
            // Pair mode runs two threads, not warps (cuda_lockstep.rs).
            lockstep: self
                .cx
                .config
                .warp_sync
                .filter(|_| setup.mode == RaceMode::Enumerate)
                .map(crate::exec::opencl::cuda_lockstep::Lockstep::new),
            grid: (setup.mode == RaceMode::Enumerate
                && every_group
                && self.cx.module.find_function(crate::exec::opencl::cuda_grid_sync::GRID_SYNC).is_some())
            .then(Default::default),
            activemask: Default::default(),
            local_gaps: Default::default(),
            entry_frame: None,
            unsized_locals: Default::default(),
            warp_calls: false,
        }));
    }
}

/// The host's access flags on a buffer (buffer_inputs.rs): a read-only
/// one is read-only as `__constant` memory is, a write-only one is
/// flagged for the reads.
fn mark_host_access(memory: &mut Memory, obj: ObjectId, access: HostAccess) {
    let o = memory.object_mut(obj);
    o.read_only |= access == HostAccess::ReadOnly;
    o.write_only = access == HostAccess::WriteOnly;
}

/// A kernel may only read what a `__constant` pointer points to: an
/// argument object in that address space is read-only (read_only.rs).
fn mark_constant_read_only(memory: &mut Memory, obj: ObjectId) {
    let o = memory.object_mut(obj);
    o.read_only = o.addr_space == crate::ir::CONSTANT_SPACE;
}
