//! The engine primitives behind the modelled OpenCL host API
//! (cl-runtime-model/host/opencl_*.c, declared in symcross_cl.h). The
//! OpenCL behaviour itself is C code; this file only does what C cannot:
//! compile a program with clang into a new module (kept in a registry owned
//! by the executor), answer questions about its kernels, allocate and free
//! buffer memory with user-facing names, and report unmodelled functions.
//! Running an NDRange is in launch.rs.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::source_map::SourceOrigin;
use crate::expr::value::{scalar, Value};
use crate::expr::ExprId;
use crate::frontend::{CompileOptions, CompiledModule, FrontendError};
use crate::ir::{FuncId, Loc, Module, Type};
use crate::memory::layout::value_to_bytes;
use crate::memory::ObjectKind;
use crate::report::FindingKind;
use std::rc::Rc;

/// One program built by `clBuildProgram`.
pub struct ClProgram {
    pub module: Rc<Module>,
    /// Index in `module.files` where the host module's file names start, so
    /// that host locations (where a buffer was released) can be shown in
    /// findings of the kernel run.
    pub host_files_at: u32,
    _build: CompiledModule,
    _source_dir: crate::process::tempdirs::RunDir,
}

/// The programs built so far; ids are indices. Programs are never removed:
/// forked host states share ids.
#[derive(Default)]
pub struct ClPrograms {
    pub programs: Vec<ClProgram>,
    /// The user's lines that created buffers (`__symcross_cl_site`), for
    /// findings about a buffer's flags (host_access.rs).
    pub sites: Vec<Loc>,
    /// A kernel run's executor: what the buffer flags of its launch allow
    /// the kernel (host_access.rs).
    pub launch: crate::exec::opencl::host_access::LaunchViews,
}

/// Build options clang understands as they are.
const PASS_THROUGH_OPTIONS: &[&str] = &[
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-single-precision-constant",
    "-cl-denorms-are-zero",
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-strict-aliasing",
    "-cl-kernel-arg-info",
    "-cl-uniform-work-group-size",
    "-w",
    "-Werror",
];

/// Parses clBuildProgram options into clang options; None if one is not
/// a valid OpenCL build option.
pub fn parse_build_options(options: &str) -> Option<CompileOptions> {
    let mut opts = CompileOptions { opencl: true, ..Default::default() };
    let mut words = options.split_whitespace();
    while let Some(w) = words.next() {
        if w == "-D" {
            opts.defines.push(words.next()?.to_string());
        } else if let Some(d) = w.strip_prefix("-D") {
            opts.defines.push(d.to_string());
        } else if w == "-I" {
            opts.include_dirs.push(words.next()?.into());
        } else if let Some(d) = w.strip_prefix("-I") {
            opts.include_dirs.push(d.into());
        } else if PASS_THROUGH_OPTIONS.contains(&w) || w.starts_with("-cl-std=CL") {
            opts.cflags.push(w.to_string());
        } else {
            return None;
        }
    }
    Some(opts)
}

impl<'m> Executor<'m> {
    /// The user's line for a call inside the runtime model: where the
    /// outermost OpenCL API function (`cl...`) on the stack was called.
    pub(in crate::exec) fn api_call_loc(&self, state: &State, fallback: Loc) -> Loc {
        state.stack.iter().find(|f| self.cx.module.function(f.func).name.starts_with("cl")).map(|f| f.call_loc).unwrap_or(fallback)
    }

    pub(super) fn loc_label(&self, loc: Loc) -> String {
        let file = self.cx.module.file_name(loc);
        format!("{}:{}", file.rsplit('/').next().unwrap_or(file), loc.line)
    }

    /// Reads `n` bytes at `ptr`, each fixed to a concrete value.
    pub(in crate::exec) fn read_concrete_bytes(&mut self, state: &mut State, ptr: ExprId, n: u64, loc: Loc) -> Result<Vec<u8>, Step> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let access = self.resolve(state, ptr, n, loc, false)?;
        let bytes = self.read_bytes(state, &access, n, loc);
        bytes.into_iter().map(|b| self.concrete_arg(state, b).map(|v| v as u8)).collect()
    }

    /// Writes an integer of `bits` bits at `ptr` (skipped when `ptr` is null).
    pub(in crate::exec) fn write_int(&mut self, state: &mut State, ptr: ExprId, bits: u32, value: u128, loc: Loc) -> Result<(), Step> {
        if self.cx.pool.as_const(ptr) == Some(0) {
            return Ok(());
        }
        let v = self.cx.pool.constant(bits, value);
        let bytes = value_to_bytes(&mut self.cx.pool, &Type::Int(bits), &[v]);
        let access = self.resolve(state, ptr, bytes.len() as u64, loc, true)?;
        self.write_bytes(state, &access, &bytes);
        Ok(())
    }

    /// Writes `text` NUL-terminated into `size` bytes at `ptr`, truncated.
    fn write_text(&mut self, state: &mut State, ptr: ExprId, size: u64, text: &str, loc: Loc) -> Result<(), Step> {
        if size == 0 || self.cx.pool.as_const(ptr) == Some(0) {
            return Ok(());
        }
        let mut bytes: Vec<u8> = text.as_bytes().iter().copied().take(size as usize - 1).collect();
        bytes.push(0);
        let exprs: Vec<Option<ExprId>> = bytes.iter().map(|b| Some(self.cx.pool.constant(8, *b as u128))).collect();
        let access = self.resolve(state, ptr, exprs.len() as u64, loc, true)?;
        self.write_bytes(state, &access, &exprs);
        Ok(())
    }

    fn int_result(&mut self, bits: u32, v: i64) -> Option<Value> {
        Some(scalar(self.cx.pool.constant(bits, (v as u128) & crate::expr::mask(bits))))
    }

    /// `int __symcross_cl_build(source, length, options, log, log_size)`.
    pub(in crate::exec) fn cl_build(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let length = self.concrete_arg(state, c.args[1][0])?;
        let source = self.read_concrete_bytes(state, c.args[0][0], length, loc)?;
        let options = self.read_c_string(state, c.args[2][0], loc)?;
        let log_size = self.concrete_arg(state, c.args[4][0])?;
        let Some(opts) = parse_build_options(&options) else {
            return Ok(self.int_result(32, -2));
        };
        let units = [ProgramUnit { source, defines: Vec::new() }];
        self.build_and_register(state, &units, &[], &opts, (c.args[3][0], log_size), loc)
    }

    /// `int __symcross_cl_build_units(n, sources, lengths, unit_options,
    /// link_options, log, log_size, num_headers, header_names,
    /// header_sources)`: clLinkProgram (and clCompileProgram, with one
    /// unit) of separately compiled units. Each unit's -D options become
    /// #define lines at its top (so they stay its own); -I and the other
    /// options apply to all; headers are files by their include names.
    pub(in crate::exec) fn cl_build_units(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let n = self.concrete_arg(state, c.args[0][0])? as usize;
        let sources = self.read_words(state, c.args[1][0], n, loc)?;
        let lengths = self.read_words(state, c.args[2][0], n, loc)?;
        let unit_options = self.read_words(state, c.args[3][0], n, loc)?;
        let link_options = self.read_c_string(state, c.args[4][0], loc)?;
        let log_size = self.concrete_arg(state, c.args[6][0])?;
        let num_headers = self.concrete_arg(state, c.args[7][0])? as usize;
        let Some(mut opts) = parse_build_options(&link_options) else { return Ok(self.int_result(32, -2)) };
        let mut units = Vec::with_capacity(n);
        for k in 0..n {
            let source_ptr = self.cx.pool.constant(64, sources[k] as u128);
            let source = self.read_concrete_bytes(state, source_ptr, lengths[k], loc)?;
            let options_ptr = self.cx.pool.constant(64, unit_options[k] as u128);
            let options = self.read_c_string(state, options_ptr, loc)?;
            let Some(unit_opts) = parse_build_options(&options) else { return Ok(self.int_result(32, -2)) };
            for d in unit_opts.include_dirs {
                if !opts.include_dirs.contains(&d) {
                    opts.include_dirs.push(d);
                }
            }
            for f in unit_opts.cflags {
                if !opts.cflags.contains(&f) {
                    opts.cflags.push(f);
                }
            }
            units.push(ProgramUnit { source, defines: unit_opts.defines });
        }
        let mut headers = Vec::with_capacity(num_headers);
        if num_headers > 0 {
            let names = self.read_words(state, c.args[8][0], num_headers, loc)?;
            let texts = self.read_words(state, c.args[9][0], num_headers, loc)?;
            for k in 0..num_headers {
                let name_ptr = self.cx.pool.constant(64, names[k] as u128);
                let text_ptr = self.cx.pool.constant(64, texts[k] as u128);
                let name = self.read_c_string(state, name_ptr, loc)?;
                let text = self.read_c_string(state, text_ptr, loc)?;
                headers.push((name, text.into_bytes()));
            }
        }
        self.build_and_register(state, &units, &headers, &opts, (c.args[5][0], log_size), loc)
    }

    /// Builds a program and returns its id, or writes the build log to
    /// `log` (pointer, size) and returns -1.
    fn build_and_register(
        &mut self,
        state: &mut State,
        units: &[ProgramUnit],
        headers: &[(String, Vec<u8>)],
        opts: &CompileOptions,
        log: (ExprId, u64),
        loc: Loc,
    ) -> Result<Option<Value>, Step> {
        let id = self.models.cl.programs.len();
        let label = format!("program {id} (built at {})", self.loc_label(self.api_call_loc(state, loc)));
        match self.build_program(units, headers, opts, &label) {
            Ok(program) => {
                self.models.cl.programs.push(program);
                Ok(self.int_result(32, id as i64))
            }
            Err(text) => {
                self.write_text(state, log.0, log.1, &text, loc)?;
                Ok(self.int_result(32, -1))
            }
        }
    }

    /// Compiles the units of one program and links them; Err carries the
    /// build log.
    fn build_program(
        &self,
        units: &[ProgramUnit],
        headers: &[(String, Vec<u8>)],
        opts: &CompileOptions,
        label: &str,
    ) -> Result<ClProgram, String> {
        let dir = crate::process::tempdirs::create("cl-").map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        for (name, text) in headers {
            let relative = std::path::Path::new(name);
            if name.is_empty() || relative.is_absolute() || relative.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
                return Err(format!("invalid header name `{name}`"));
            }
            let path = dir.path().join(relative);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("cannot write header {name}: {e}"))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("cannot write header {name}: {e}"))?;
        }
        let mut paths = Vec::with_capacity(units.len());
        for (k, unit) in units.iter().enumerate() {
            let name = if units.len() == 1 { "program.cl".to_string() } else { format!("unit{k}.cl") };
            let path = dir.path().join(name);
            std::fs::write(&path, unit.text()).map_err(|e| format!("cannot write the program source: {e}"))?;
            paths.push(path);
        }
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let opts = &CompileOptions { scratch: Some(dir.path().to_path_buf()), ..opts.clone() };
        let build = crate::frontend::compile_inputs(&paths, opts).map_err(|e| match e {
            FrontendError::Compile { stderr, .. } => shown.iter().fold(stderr, |log, s| log.replace(s, label)),
            other => other.to_string(),
        })?;
        let mut module = crate::ir::load_module(build.path()).map_err(|e| e.to_string())?;
        for (unit, shown) in units.iter().zip(&shown) {
            let text = String::from_utf8_lossy(&unit.source);
            let origin = crate::exec::opencl::source_map::locate(&text, &self.cx.module.files);
            relabel_program_file(&mut module, shown, origin.as_ref(), label);
        }
        let host_files_at = module.files.len() as u32;
        module.files.extend(self.cx.module.files.iter().cloned());
        Ok(ClProgram { module: Rc::new(module), host_files_at, _build: build, _source_dir: dir })
    }

    fn program(&mut self, state: &mut State, id: ExprId) -> Result<Option<Rc<Module>>, Step> {
        let id = self.concrete_arg(state, id)? as i32;
        Ok(usize::try_from(id).ok().and_then(|i| self.models.cl.programs.get(i)).map(|p| p.module.clone()))
    }

    fn kernels(module: &Module) -> impl Iterator<Item = (usize, &crate::ir::Function)> {
        module.functions.iter().enumerate().filter(|(_, f)| f.is_kernel && !f.is_declaration())
    }

    /// `int __symcross_cl_kernel(program, name, unsigned *num_args)`.
    pub(in crate::exec) fn cl_kernel(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let Some(module) = self.program(state, c.args[0][0])? else { return Ok(self.int_result(32, -1)) };
        let name = self.read_c_string(state, c.args[1][0], loc)?;
        let Some((i, f)) = Self::kernels(&module).find(|(_, f)| f.name == name) else {
            return Ok(self.int_result(32, -1));
        };
        self.write_int(state, c.args[2][0], 32, f.params.len() as u128, loc)?;
        Ok(self.int_result(32, i as i64))
    }

    /// `int __symcross_cl_kernel_arg(program, kernel, index, unsigned *space, size_t *size)`.
    pub(in crate::exec) fn cl_kernel_arg(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let Some(module) = self.program(state, c.args[0][0])? else { return Ok(self.int_result(32, -1)) };
        let kernel = self.concrete_arg(state, c.args[1][0])? as usize;
        let index = self.concrete_arg(state, c.args[2][0])? as usize;
        let Some(p) = module.functions.get(kernel).and_then(|f| f.params.get(index)) else {
            return Ok(self.int_result(32, -1));
        };
        // A struct passed by value is a pointer to a `byval` copy in the
        // IR; the host sets it with the struct's size, not a pointer's.
        let (space, size) = match (p.byval, &p.ty) {
            (Some((bytes, _)), _) => (0, bytes),
            (None, Type::Ptr { addr_space }) => (*addr_space, 8),
            (None, t) => (0, t.size()),
        };
        self.write_int(state, c.args[3][0], 32, space as u128, loc)?;
        self.write_int(state, c.args[4][0], 64, size as u128, loc)?;
        Ok(self.int_result(32, 0))
    }

    /// `unsigned __symcross_cl_kernel_names(program, buf, size, size_t *length)`.
    pub(in crate::exec) fn cl_kernel_names(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let Some(module) = self.program(state, c.args[0][0])? else { return Ok(self.int_result(32, 0)) };
        let names: Vec<String> = Self::kernels(&module).map(|(_, f)| f.name.clone()).collect();
        let joined = names.join(";");
        let size = self.concrete_arg(state, c.args[2][0])?;
        self.write_text(state, c.args[1][0], size, &joined, loc)?;
        self.write_int(state, c.args[3][0], 64, joined.len() as u128 + 1, loc)?;
        Ok(self.int_result(32, names.len() as i64))
    }

    /// `void *__symcross_cl_alloc(size)`: a heap block in the global address
    /// space, named after the user's clCreateBuffer line.
    pub(in crate::exec) fn cl_alloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let n = self.concrete_arg(state, c.args[0][0])?;
        let user = self.api_call_loc(state, c.inst.loc);
        let name = format!("buffer created at {}", self.loc_label(user));
        self.admit_allocation(n)?;
        let id = state.memory.allocate(&mut self.cx.pool, n, 128, ObjectKind::Heap, name);
        let o = state.memory.object_mut(id);
        o.alloc_line = Some(user);
        o.addr_space = crate::ir::GLOBAL_SPACE;
        let base = o.base;
        Ok(Some(scalar(self.cx.pool.constant(64, base as u128))))
    }

    /// `void __symcross_cl_free(p)`: frees, recording the user's release line.
    pub(in crate::exec) fn cl_free(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let user = self.api_call_loc(state, c.inst.loc);
        self.free_pointer(state, c.args[0][0], user)?;
        Ok(None)
    }

    /// `void __symcross_unsupported(what)`: an `unsupported` finding at the
    /// user's call, naming the function; the path ends.
    pub(in crate::exec) fn cl_unsupported(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let what = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        let user = self.api_call_loc(state, c.inst.loc);
        let msg = format!("OpenCL function not modelled: {what}");
        self.report(state, FindingKind::Unsupported, user, msg, None, None);
        Err(Step::Terminated)
    }

    /// The kernel function `kernel` of `module`, if it is one.
    pub(in crate::exec) fn kernel_of(module: &Module, kernel: u64) -> Option<FuncId> {
        let f = module.functions.get(kernel as usize)?;
        (f.is_kernel && !f.is_declaration()).then_some(FuncId(kernel as u32))
    }
}

/// One compilation unit of a program: its source and its own -D options.
struct ProgramUnit {
    source: Vec<u8>,
    defines: Vec<String>,
}

impl ProgramUnit {
    /// The text compiled: the defines as #define lines, then the source
    /// numbered from line 1 again.
    fn text(&self) -> Vec<u8> {
        if self.defines.is_empty() {
            return self.source.clone();
        }
        let mut out = Vec::new();
        for d in &self.defines {
            let (name, value) = d.split_once('=').unwrap_or((d, "1"));
            out.extend_from_slice(format!("#define {name} {value}\n").as_bytes());
        }
        out.extend_from_slice(b"#line 1\n");
        out.extend_from_slice(&self.source);
        out
    }
}

/// Names the program file `shown` after where its text is in the user's
/// files (see cl_source_map), or after `label`.
fn relabel_program_file(module: &mut Module, shown: &str, origin: Option<&SourceOrigin>, label: &str) {
    let mut remaps = Vec::new();
    for (index, f) in module.files.iter_mut().enumerate() {
        // Debug info may record the path relative to the directory clang
        // ran in, so compare by suffix.
        if f.is_empty() || !(*f == shown || shown.ends_with(&format!("/{f}"))) {
            continue;
        }
        match origin {
            Some(SourceOrigin::File(path)) => *f = path.clone(),
            Some(SourceOrigin::Literals { file, lines }) => {
                *f = file.clone();
                remaps.push((index as u32, lines.clone()));
            }
            None => *f = label.to_string(),
        }
    }
    for (index, lines) in remaps {
        // Program line n is host line lines[n-1]; columns shift by the
        // literal's position.
        module.map_locs(|loc| {
            if loc.file == index && loc.line >= 1 {
                if let Some(&(line, column)) = lines.get(loc.line as usize - 1) {
                    loc.line = line;
                    loc.column = if loc.column > 0 { column + loc.column - 1 } else { 0 };
                }
            }
        });
    }
}
