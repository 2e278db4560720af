//! OpenCL images and samplers in a kernel run alone (`symcross race`).
//!
//! An image argument (image1d_t, image2d_t, image3d_t) is a `__global`
//! object of pixels, so that a pixel access is a shared-memory access for
//! the race detector. Channel formats are unknown to a kernel alone, so
//! every pixel is 16 bytes (a float4, int4 or uint4), whatever the format:
//! `read_imagef` returns the 16 bytes at the pixel, `write_imagef` stores
//! its float4 there.
//!
//! - With `--arg NAME=WxH` the image is a buffer of that many pixels with
//!   arbitrary contents; its size is constant and a write (or a read with
//!   `CLK_ADDRESS_NONE`) outside it is an out-of-bounds finding.
//! - Without, it is address-only, like an unsized buffer (kernel_memory.rs:
//!   pixels read twice read the same until written), and its width, height
//!   and depth are symbolic, each in [1, 65536]. A write is assumed inside
//!   the image (as an unsized buffer's accesses are), except at a negative
//!   coordinate, which is outside every image (an out-of-bounds finding).
//!   Pixel (x, y, z) is at byte `16 * (x + 65536 y + 65536^2 z)`: a linear
//!   offset, distinct for distinct pixels of any image of that size.
//!
//! Samplers are their flags (`__translate_sampler_initializer(flags)` or
//! `--arg s=FLAGS`). Integer coordinates require an unnormalised, nearest
//! sampler with addressing NONE, CLAMP_TO_EDGE or CLAMP: a symbolic
//! sampler is assumed to be one of those three and the path forks on which.
//! CLAMP_TO_EDGE clamps the coordinate into the image; CLAMP (and NONE on
//! an image of unknown size, where a read outside cannot be told) reads
//! outside the image as an arbitrary value and touches no memory: the
//! access is recorded with the condition that it is inside. With any other
//! sampler (normalised coordinates, linear filtering, the REPEAT modes)
//! OpenCL 1.2 section 6.12.14.2 says the values returned are undefined:
//! the read gives arbitrary values, touches no pixel, and an
//! `undefined-value` warning names it. Float coordinates are
//! `unsupported` findings.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::{CmpOp, ExprId};
use crate::ir::{Loc, Type};
use crate::memory::layout::{bytes_to_value, value_to_bytes};
use crate::memory::Access;
use crate::memory::Memory;
use crate::race::AccessKind;
use crate::report::FindingKind;

/// Bytes per pixel in `race` mode, for every channel format.
pub const PIXEL_BYTES: u64 = 16;

/// The largest width, height or depth of an image of unknown size.
const MAX_UNKNOWN_DIM: u64 = 1 << 16;

/// One image argument: its dimensions and its size (32-bit values, as
/// `get_image_width` returns them).
#[derive(Clone, Copy, Debug)]
pub(in crate::exec) struct ImageShape {
    dims: u8,
    size: [ExprId; 3],
    /// The size was given (`--arg`): accesses outside are findings.
    concrete: bool,
}

/// What an image built-in does.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(in crate::exec) enum ImageOp {
    Read,
    Write,
    /// get_image_width (0), get_image_height (1), get_image_depth (2).
    Size(usize),
    Dim,
}

/// The image built-in of a plain name, with its arity.
pub(in crate::exec) fn image_row(plain: &str) -> Option<(ImageOp, crate::exec::engine::arity::Arity)> {
    use crate::exec::engine::arity::Arity::{Between, Exact};
    Some(match plain {
        "read_imagef" | "read_imagei" | "read_imageui" => (ImageOp::Read, Between(2, 3)),
        "write_imagef" | "write_imagei" | "write_imageui" => (ImageOp::Write, Exact(3)),
        "get_image_width" => (ImageOp::Size(0), Exact(1)),
        "get_image_height" => (ImageOp::Size(1), Exact(1)),
        "get_image_depth" => (ImageOp::Size(2), Exact(1)),
        "get_image_dim" => (ImageOp::Dim, Exact(1)),
        _ => return None,
    })
}

/// How a read treats a coordinate outside the image.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Addressing {
    /// The kernel promises to stay inside (CLK_ADDRESS_NONE).
    None,
    ClampToEdge,
    /// Outside reads the border colour (CLK_ADDRESS_CLAMP).
    Clamp,
}

impl<'m> Executor<'m> {
    /// The pixels of an image argument of a kernel run alone, of `size`
    /// pixels or of unknown size; returns its address. None when the memory
    /// limit does not admit it.
    pub(in crate::exec) fn image_argument(&mut self, memory: &mut Memory, name: &str, dims: u8, size: Option<[u64; 3]>) -> Option<u64> {
        let (obj, shape) = match size {
            Some(s) => {
                let bytes = s.iter().product::<u64>() * PIXEL_BYTES;
                let obj = self.argument_buffer(memory, bytes, crate::ir::GLOBAL_SPACE, name.to_string())?;
                let array = self.cx.pool.new_array(name, bytes as u32);
                memory.object_mut(obj).bytes.fill_input(&mut self.cx.pool, 0, bytes, array, 0);
                let size = s.map(|d| self.cx.pool.constant(32, d as u128));
                (obj, ImageShape { dims, size, concrete: true })
            }
            None => {
                let obj = memory.allocate_address_only(&mut self.cx.pool, name.to_string(), crate::ir::GLOBAL_SPACE);
                // Each unknown dimension is 1 + a 16-bit input: in [1, 65536].
                let array = self.cx.pool.new_array(&format!("{name}.size-1"), 2 * dims as u32);
                let one = self.cx.pool.constant(32, 1);
                let size = std::array::from_fn(|k| {
                    if k < dims as usize {
                        let raw = self.cx.pool.input_word(array, 2 * k as u32, 16);
                        let wide = self.cx.pool.zext(raw, 32);
                        self.cx.pool.add(wide, one)
                    } else {
                        one
                    }
                });
                (obj, ImageShape { dims, size, concrete: false })
            }
        };
        let base = memory.object(obj).base;
        self.models.images.insert(base, shape);
        Some(base)
    }

    /// read_image*, write_image*, get_image_*: `name` is the plain name,
    /// `params` its mangled parameter types.
    pub(in crate::exec) fn image_builtin(
        &mut self,
        state: &mut State,
        c: &CallCtx,
        op: ImageOp,
        name: &str,
        params: &str,
    ) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let base = self.cx.pool.as_const(c.args[0][0]).map(|b| b as u64);
        let Some(shape) = base.and_then(|b| self.models.images.get(&b).copied()) else {
            return Err(self.unsupported(
                state,
                loc,
                format!("OpenCL built-in {name} on an image passed by a host program (images are modelled in `symcross race` only)"),
            ));
        };
        match op {
            ImageOp::Size(k) => Ok(Some(scalar(shape.size[k]))),
            ImageOp::Dim => {
                let zero = self.cx.pool.constant(32, 0);
                let lanes = c.inst.ty.lanes() as usize;
                Ok(Some((0..lanes).map(|k| if k < shape.dims as usize { shape.size[k] } else { zero }).collect()))
            }
            ImageOp::Read => self.image_read(state, c, shape, base.unwrap_or(0), name, params).map(Some),
            ImageOp::Write => self.image_write(state, c, shape, base.unwrap_or(0), name, params).map(|_| None),
        }
    }

    fn image_read(
        &mut self,
        state: &mut State,
        c: &CallCtx,
        shape: ImageShape,
        base: u64,
        name: &str,
        params: &str,
    ) -> Result<Value, Step> {
        let loc = c.inst.loc;
        if params.ends_with('f') {
            return Err(self.unsupported(
                state,
                loc,
                format!("{name} with float coordinates (normalised coordinates, or unnormalised float ones) is not modelled"),
            ));
        }
        let mode = if c.args.len() == 3 { self.sampler_mode(state, c.args[1][0], loc, name)? } else { Ok(Addressing::None) };
        let mode = match mode {
            Ok(mode) => mode,
            Err(sampler) => {
                let line = self.cx.location(loc).line;
                let note = format!(
                    "line {line}: {name} with integer coordinates and {sampler} returns undefined values (OpenCL 1.2 section \
                     6.12.14.2): they were taken as arbitrary, and no pixel read was recorded"
                );
                self.log.note(crate::exec::engine::run_log::NoteKind::UndefinedValue, note);
                return Ok(crate::exec::engine::step::leaf_widths(&c.inst.ty).into_iter().map(|w| self.cx.pool.fresh(w)).collect());
            }
        };
        let coords = self.coordinates(&c.args[c.args.len() - 1], shape);
        let inside = self.inside(&coords, shape);
        let (coords, guard) = match mode {
            Addressing::None if shape.concrete => {
                self.require(state, inside, shape, base, loc, &format!("{name} with CLK_ADDRESS_NONE"))?;
                (coords, None)
            }
            Addressing::ClampToEdge => (self.clamped(&coords, shape), None),
            // Outside the image: the border colour, no memory read.
            Addressing::None | Addressing::Clamp => (self.clamped(&coords, shape), Some(inside)),
        };
        let access = self.pixel(state, base, &coords, shape);
        let bytes = self.read_bytes(state, &access, PIXEL_BYTES, loc);
        self.observe_pixel(state, &access, AccessKind::Read, None, guard, loc);
        let value = bytes_to_value(&mut self.cx.pool, &c.inst.ty, &bytes);
        Ok(match guard {
            None => value,
            Some(g) => value
                .iter()
                .map(|&v| {
                    let border = self.cx.pool.fresh(self.cx.pool.width(v));
                    self.cx.pool.ite(g, v, border)
                })
                .collect(),
        })
    }

    fn image_write(&mut self, state: &mut State, c: &CallCtx, shape: ImageShape, base: u64, name: &str, params: &str) -> Result<(), Step> {
        let loc = c.inst.loc;
        let coords = self.coordinates(&c.args[1], shape);
        let inside = self.inside(&coords, shape);
        if shape.concrete {
            self.require(state, inside, shape, base, loc, name)?;
        } else {
            self.assume_inside_unknown(state, &coords, inside, base, loc, name)?;
        }
        let elem = if params.ends_with('f') { Type::Float(crate::expr::FpFormat::Single) } else { Type::Int(32) };
        let t = Type::Vector { elem: Box::new(elem), len: 4 };
        let bytes = value_to_bytes(&mut self.cx.pool, &t, &c.args[2]);
        let access = self.pixel(state, base, &coords, shape);
        let value: Vec<ExprId> = bytes.iter().flatten().copied().collect();
        let value = (value.len() == bytes.len()).then_some(value);
        self.observe_pixel(state, &access, AccessKind::Write, value, None, loc);
        self.write_bytes(state, &access, &bytes);
        Ok(())
    }

    /// The addressing mode of a sampler's flags, or (inner `Err`) what
    /// makes the sampler invalid with integer coordinates; a symbolic
    /// sampler is one of the three valid ones, and the path forks on which
    /// (the other values re-run the call).
    fn sampler_mode(&mut self, state: &mut State, flags: ExprId, loc: Loc, name: &str) -> Result<Result<Addressing, &'static str>, Step> {
        let mask = self.cx.pool.constant(32, 0x3f);
        let low = self.cx.pool.and(flags, mask);
        let low = match self.cx.pool.as_const(low) {
            Some(v) => v as u32,
            None => {
                let mut valid = self.cx.pool.bool_const(false);
                for f in [0x10, 0x12, 0x14] {
                    let k = self.cx.pool.constant(32, f);
                    let is = self.cx.pool.eq(low, k);
                    valid = self.cx.pool.bool_or(valid, is);
                }
                if !self.assume(state, valid) {
                    return Err(Step::Terminated);
                }
                self.concrete_size(state, low, loc, "a sampler argument's flags")? as u32
            }
        };
        if low & 0xe > 8 {
            let what = "a sampler with an unknown addressing mode";
            return Err(self.unsupported(state, loc, format!("{name} with {what} is not modelled")));
        }
        Ok(if low & 1 != 0 {
            Err("a sampler with normalised coordinates (CLK_NORMALIZED_COORDS_TRUE)")
        } else if low & 0x30 == 0x20 {
            Err("a sampler with linear filtering (CLK_FILTER_LINEAR)")
        } else {
            match low & 0xe {
                0 => Ok(Addressing::None),
                2 => Ok(Addressing::ClampToEdge),
                4 => Ok(Addressing::Clamp),
                _ => Err("a sampler with CLK_ADDRESS_REPEAT or CLK_ADDRESS_MIRRORED_REPEAT (defined for normalised coordinates only)"),
            }
        })
    }

    /// The coordinates of the image's dimensions (32-bit, signed).
    fn coordinates(&mut self, arg: &[ExprId], shape: ImageShape) -> [ExprId; 3] {
        let zero = self.cx.pool.constant(32, 0);
        std::array::from_fn(|k| if k < shape.dims as usize { arg.get(k).copied().unwrap_or(zero) } else { zero })
    }

    /// Whether every coordinate is in [0, size).
    fn inside(&mut self, coords: &[ExprId; 3], shape: ImageShape) -> ExprId {
        let zero = self.cx.pool.constant(32, 0);
        let mut all = self.cx.pool.bool_const(true);
        for (&x, &d) in coords.iter().zip(&shape.size).take(shape.dims as usize) {
            let low = self.cx.pool.cmp(CmpOp::Sle, zero, x);
            let high = self.cx.pool.cmp(CmpOp::Slt, x, d);
            all = self.cx.pool.and(all, low);
            all = self.cx.pool.and(all, high);
        }
        all
    }

    /// Each coordinate clamped into [0, size - 1].
    fn clamped(&mut self, coords: &[ExprId; 3], shape: ImageShape) -> [ExprId; 3] {
        let zero = self.cx.pool.constant(32, 0);
        let one = self.cx.pool.constant(32, 1);
        std::array::from_fn(|k| {
            let (x, d) = (coords[k], shape.size[k]);
            let last = self.cx.pool.sub(d, one);
            let below = self.cx.pool.cmp(CmpOp::Slt, x, zero);
            let above = self.cx.pool.cmp(CmpOp::Slt, last, x);
            let high = self.cx.pool.ite(above, last, x);
            self.cx.pool.ite(below, zero, high)
        })
    }

    /// Continues on the part of the path where `inside` holds; the rest is
    /// an out-of-bounds finding (an image of a given size).
    fn require(&mut self, state: &mut State, inside: ExprId, shape: ImageShape, base: u64, loc: Loc, what: &str) -> Result<(), Step> {
        let (ins, outs) = self.branch(state, inside);
        if let Some(mut out) = outs {
            let size: Vec<String> =
                shape.size[..shape.dims as usize].iter().map(|d| self.cx.pool.as_const(*d).unwrap_or(0).to_string()).collect();
            let msg = format!("{what} at a pixel outside image `{}` of {} pixels", self.image_name(&out, base), size.join("x"));
            let model = self.current_model(&mut out);
            self.report(&out, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
        }
        *state = ins.ok_or(Step::Terminated)?;
        Ok(())
    }

    /// A write to an image of unknown size: a negative coordinate is an
    /// out-of-bounds finding, one past the largest size modelled an
    /// `unsupported` one; the rest of the path assumes the image holds
    /// the pixel.
    fn assume_inside_unknown(
        &mut self,
        state: &mut State,
        coords: &[ExprId; 3],
        inside: ExprId,
        base: u64,
        loc: Loc,
        name: &str,
    ) -> Result<(), Step> {
        let (zero, max) = (self.cx.pool.constant(32, 0), self.cx.pool.constant(32, MAX_UNKNOWN_DIM as u128));
        let (mut nonneg, mut small) = (self.cx.pool.bool_const(true), self.cx.pool.bool_const(true));
        for &x in coords {
            let ok = self.cx.pool.cmp(CmpOp::Sle, zero, x);
            nonneg = self.cx.pool.and(nonneg, ok);
            let ok = self.cx.pool.cmp(CmpOp::Slt, x, max);
            small = self.cx.pool.and(small, ok);
        }
        let image = self.image_name(state, base);
        let (ins, outs) = self.branch(state, nonneg);
        if let Some(mut out) = outs {
            let model = self.current_model(&mut out);
            let msg = format!("{name} at a negative coordinate of image `{image}`");
            self.report(&out, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
        }
        *state = ins.ok_or(Step::Terminated)?;
        let (ins, outs) = self.branch(state, small);
        if let Some(out) = outs {
            let msg = format!(
                "{name} at a coordinate of {MAX_UNKNOWN_DIM} or more in image `{image}` of unknown size (give its size with --arg {image}=WxH)"
            );
            self.unsupported(&out, loc, msg);
        }
        *state = ins.ok_or(Step::Terminated)?;
        // The size is unknown, so the write is taken to be inside (a size
        // that makes it so is chosen). When nothing on this path allows
        // that (the kernel tested or used the size already), the write is
        // outside for every size: a finding, not a path dropped unseen.
        if !self.assume(state, inside) {
            let model = self.current_model(state);
            let msg = format!("{name} at a pixel outside image `{image}`, for every size the image can have on this path");
            self.report(state, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
            return Err(Step::Terminated);
        }
        Ok(())
    }

    /// The 16 bytes of pixel `coords` (inside the image).
    fn pixel(&mut self, state: &State, base: u64, coords: &[ExprId; 3], shape: ImageShape) -> Access {
        let object = state.memory.object_near(base).expect("an image's object lives as long as the run");
        let strides: [u64; 3] = if shape.concrete {
            let s: Vec<u64> = shape.size.iter().map(|d| self.cx.pool.as_const(*d).unwrap_or(1) as u64).collect();
            [1, s[0], s[0] * s[1]]
        } else {
            [1, MAX_UNKNOWN_DIM, MAX_UNKNOWN_DIM * MAX_UNKNOWN_DIM]
        };
        let mut offset = self.cx.pool.constant(64, 0);
        for (&x, stride) in coords.iter().zip(strides) {
            let wide = self.cx.pool.zext(x, 64);
            let k = self.cx.pool.constant(64, (stride * PIXEL_BYTES) as u128);
            let term = self.cx.pool.mul(wide, k);
            offset = self.cx.pool.add(offset, term);
        }
        Access { object, offset }
    }

    /// Records a pixel access for the race detector, only when `guard`
    /// holds (if any).
    fn observe_pixel(
        &mut self,
        state: &mut State,
        access: &Access,
        kind: AccessKind,
        value: Option<Vec<ExprId>>,
        guard: Option<ExprId>,
        loc: Loc,
    ) {
        let before = state.gpu.as_ref().map(|g| g.log.record_count());
        self.observe_access(state, access, PIXEL_BYTES, kind, value, loc);
        if let (Some(g), Some(gpu)) = (guard, state.gpu.as_mut()) {
            if Some(gpu.log.record_count()) != before {
                gpu.log.guard_last(g);
            }
        }
    }

    fn image_name(&self, state: &State, base: u64) -> String {
        state.memory.object_near(base).map(|o| state.memory.object(o).name.clone()).unwrap_or_default()
    }
}
