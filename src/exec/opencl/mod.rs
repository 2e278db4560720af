//! OpenCL: the host API, kernel launch, work-items and their scheduling,
//! device built-ins, `__local`/`__global` memory and race detection.

pub(in crate::exec) mod access_site;
pub mod buffer_inputs;
pub mod builtins;
pub(in crate::exec) mod byval;
pub(in crate::exec) mod compare_exchange;
pub mod cuda_activemask;
pub(in crate::exec) mod cuda_async_copies;
pub(in crate::exec) mod cuda_constant_memory;
pub(in crate::exec) mod cuda_declared_functions;
pub(in crate::exec) mod cuda_effect_free_loops;
pub mod cuda_grid_sync;
pub mod cuda_lockstep;
pub(in crate::exec) mod cuda_managed;
pub(in crate::exec) mod cuda_only_warp;
pub(in crate::exec) mod cuda_runtime;
pub(in crate::exec) mod cuda_static_shared;
pub(in crate::exec) mod cuda_streams;
pub(in crate::exec) mod cuda_texture_objects;
pub(in crate::exec) mod cuda_textures;
pub(in crate::exec) mod cuda_warps;
pub(in crate::exec) mod device_state;
pub(in crate::exec) mod events;
pub mod group_calls;
pub(in crate::exec) mod havoc;
pub(in crate::exec) mod host;
pub(in crate::exec) mod host_access;
pub mod images;
pub(in crate::exec) mod item_budget;
pub(in crate::exec) mod kernel_memory;
pub(in crate::exec) mod lane_writes;
pub(in crate::exec) mod launch;
pub(in crate::exec) mod loop_summary;
pub mod ndrange_setup;
pub mod nontermination;
pub(in crate::exec) mod perf_checks;
pub(in crate::exec) mod races;
pub(in crate::exec) mod source_map;
pub(in crate::exec) mod summary_marks;
pub(in crate::exec) mod unchecked_local;
pub(in crate::exec) mod undefined_call_havoc;
pub(in crate::exec) mod undefined_functions;
pub(in crate::exec) mod unwritten_buffers;
pub(in crate::exec) mod unwritten_locals;
pub mod warp_meeting;
pub(in crate::exec) mod work_item_ids;
pub mod workitems;

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::Handler;
use crate::exec::engine::executor::Executor;

impl<'m> Executor<'m> {
    /// The OpenCL host API's built-in functions by exact name (the
    /// runtime model in cl-runtime-model/ calls them), with their arity.
    pub(in crate::exec) fn host_api_row(name: &str) -> Option<(Handler<'m>, Arity)> {
        use Arity::Exact;
        Some(match name {
            "__symcross_cl_build" => (Self::cl_build, Exact(5)),
            "__symcross_cl_build_units" => (Self::cl_build_units, Exact(10)),
            "__symcross_cl_kernel" => (Self::cl_kernel, Exact(3)),
            "__symcross_cl_kernel_arg" => (Self::cl_kernel_arg, Exact(5)),
            "__symcross_cl_kernel_names" => (Self::cl_kernel_names, Exact(4)),
            "__symcross_cl_run" => (Self::cl_run, Exact(8)),
            "__symcross_cl_alloc" => (Self::cl_alloc, Exact(1)),
            "__symcross_cl_free" => (Self::cl_free, Exact(1)),
            "__symcross_cl_site" => (Self::cl_site, Exact(0)),
            "__symcross_unsupported" => (Self::cl_unsupported, Exact(1)),
            "__symcross_cuda_alloc" => (Self::cuda_alloc, Exact(1)),
            "__symcross_cuda_free" => (Self::cuda_free, Exact(1)),
            "__symcross_cuda_launch" => (Self::cuda_launch, Exact(9)),
            "__symcross_cuda_symbol" => (Self::cuda_symbol, Exact(1)),
            "__symcross_cuda_symbol_size" => (Self::cuda_symbol_size, Exact(1)),
            "__symcross_cuda_copy_to_symbol" => (Self::cuda_copy_to_symbol, Exact(3)),
            "__symcross_cuda_alloc_shared" => (Self::cuda_alloc_shared, Exact(2)),
            "__symcross_cuda_limit" => (Self::cuda_limit, Exact(1)),
            "__symcross_cuda_unsupported" => (Self::cuda_unsupported, Exact(1)),
            "__symcross_cuda_op_begin" => (Self::cuda_op_begin, Exact(4)),
            "__symcross_cuda_op_end" => (Self::cuda_op_end, Exact(0)),
            "__symcross_cuda_stream_created" => (Self::cuda_stream_created, Exact(1)),
            "__symcross_cuda_assert_fail" => (Self::cuda_assert_fail, Exact(4)),
            "__symcross_cuda_trap" => (Self::cuda_trap, Exact(0)),
            "__symcross_cuda_static_shared" => (Self::cuda_static_shared, Exact(1)),
            _ => return None,
        })
    }
}
