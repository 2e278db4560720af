//! The first stages of a run (README, "Layout"): compile the inputs,
//! translate them to the internal IR and apply the IR passes the config
//! asks for.

use crate::config::Config;
use crate::driver::DriverError;
use crate::frontend::{compile_inputs, CompileOptions};
use crate::ir::Module;
use std::path::PathBuf;

/// A translated module, ready to run once `prepare`d; holds the temporary
/// build directory alive.
pub struct Loaded {
    /// The translated module; `prepare` applies the IR passes to it in
    /// place.
    pub module: Module,
    /// Branches the if-conversion pass folded (`prepare`): the runs'
    /// reports count them as merged paths.
    pub(super) folded: u64,
    /// The device side of the `.cu` inputs of a host program
    /// (`CompileOptions::cuda_host`): where its `<<<...>>>` launches find
    /// their kernels.
    pub(super) cuda_device: Option<Module>,
    _build: crate::frontend::CompiledModule,
}

/// Compiles `inputs` (C or OpenCL C, or LLVM IR) into one module and
/// translates it.
pub fn load(inputs: &[PathBuf], opts: &CompileOptions) -> Result<Loaded, DriverError> {
    let started = std::time::Instant::now();
    let build = compile_inputs(inputs, opts)?;
    tracing::info!(inputs = inputs.len(), seconds = started.elapsed().as_secs_f64(), "stage: compiled and linked (clang, llvm-link, opt)");
    let started = std::time::Instant::now();
    let module = crate::ir::load_module(build.path()).map_err(|e| match e {
        // The linked module's layout is the inputs' (the runtime model
        // follows them): name the inputs, not the temporary file.
        crate::ir::IrError::UnsupportedLayout { layout, triple, why, .. } => {
            let path = PathBuf::from(inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "));
            crate::ir::IrError::UnsupportedLayout { path, layout, triple, why }
        }
        e => e,
    })?;
    tracing::info!(
        functions = module.functions.len(),
        globals = module.globals.len(),
        seconds = started.elapsed().as_secs_f64(),
        "stage: translated to the internal IR"
    );
    let mut module = module;
    name_files_as_given(&mut module, inputs);
    let cuda_device = if opts.cuda_host { load_cuda_device(inputs, opts)? } else { None };
    Ok(Loaded { module, folded: 0, cuda_device, _build: build })
}

/// The device side of the `.cu` inputs, compiled on their own (the host
/// side has only the kernels' launch stubs); None without `.cu` inputs.
fn load_cuda_device(inputs: &[PathBuf], opts: &CompileOptions) -> Result<Option<Module>, DriverError> {
    let cu: Vec<PathBuf> = inputs.iter().filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("cu"))).cloned().collect();
    if cu.is_empty() {
        return Ok(None);
    }
    let started = std::time::Instant::now();
    let build = compile_inputs(&cu, &CompileOptions { cuda_host: false, ..opts.clone() })?;
    let mut module = crate::ir::load_module(build.path())?;
    name_files_as_given(&mut module, &cu);
    tracing::info!(inputs = cu.len(), seconds = started.elapsed().as_secs_f64(), "stage: compiled the CUDA device side");
    Ok(Some(module))
}

/// Debug info names a file relative to the directory clang ran in, which
/// is not how the user wrote it when the input is given by an absolute
/// path or from elsewhere (`/src/x.c` recorded as `x.c`): findings in an
/// input name it exactly as the command line did. Other files (headers)
/// keep clang's name, relative to the same directory.
fn name_files_as_given(module: &mut Module, inputs: &[PathBuf]) {
    let given: Vec<(PathBuf, String)> =
        inputs.iter().filter_map(|p| Some((std::fs::canonicalize(p).ok()?, p.display().to_string()))).collect();
    for file in module.files.iter_mut() {
        let Ok(real) = std::fs::canonicalize(&*file) else { continue };
        if let Some((_, shown)) = given.iter().find(|(p, _)| *p == real) {
            *file = shown.clone();
        }
    }
}

impl Loaded {
    /// Applies the IR passes `config` asks for before a run: with `merge`
    /// on, if-conversion of branches whose sides hold at most
    /// `fold_threshold` instructions. The reports of runs of this module
    /// add the branches folded to their `merged` count.
    pub fn prepare(&mut self, config: &Config) {
        if config.merge {
            let stats = crate::passes::if_convert(&mut self.module, config.fold_threshold);
            tracing::info!(folded = stats.folded(), "stage: if-conversion");
            self.folded += stats.folded();
        }
    }
}
