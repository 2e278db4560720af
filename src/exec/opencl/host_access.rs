//! What a host program's buffer flags allow its kernels. A buffer created
//! `CL_MEM_READ_ONLY` may only be read by a kernel, one created
//! `CL_MEM_WRITE_ONLY` only written: OpenCL 1.2 section 5.2.1 (the table of
//! `cl_mem_flags`) leaves "writing to a buffer or image object created with
//! CL_MEM_READ_ONLY inside a kernel" and "reading from a buffer or image
//! object created with CL_MEM_WRITE_ONLY inside a kernel" undefined. These
//! are the findings `race --arg NAME=...:ro` / `:wo` give for a kernel run
//! alone (buffer_inputs.rs), here for the kernels a host program launches.
//!
//! The runtime model passes each buffer argument's access, size and
//! creation line with the launch (cl-runtime-model/host/symcross_cl.h,
//! `struct __symcross_cl_arg`). For the launch's run they become, per
//! object, the byte ranges no argument lets the kernel write (or read),
//! and the object is marked read-only (write-only) for the run only: the
//! fast tier then leaves its stores (loads) to the general path, whose
//! `check_writable` (`check_host_readable`) asks here. The marks are taken
//! off the kernel's paths before the host goes on, so the host's own
//! transfers (clEnqueueWriteBuffer into a read-only buffer, a mapped
//! pointer) stay allowed, as OpenCL allows them.
//!
//! Ranges, not objects: a sub-buffer views part of its buffer's memory, a
//! `CL_MEM_USE_HOST_PTR` buffer part of the host's. A byte two arguments
//! reach (a buffer and its sub-buffer, one buffer passed twice) is
//! restricted only when none of them allows the access: the message then
//! names a flag the kernel really broke.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::buffer_inputs::HostAccess;
use crate::expr::{CmpOp, ExprId};
use crate::ir::{FuncId, Loc};
use crate::memory::{Memory, ObjectId};
use crate::race::AccessKind;
use crate::report::{FindingKind, Location, Related};
use rustc_hash::FxHashMap;

/// `struct __symcross_cl_arg`'s `access`: the buffer is a sub-buffer.
const ACCESS_SUB: u32 = 16;

/// A buffer argument of a launch as the runtime model passed it.
pub(in crate::exec) struct RawBufferArg {
    /// The kernel parameter's index.
    pub param: usize,
    /// The buffer's data pointer.
    pub data: u64,
    /// The buffer's size in bytes.
    pub size: u64,
    /// `SYMCL_ACCESS_*`, with `SYMCL_ACCESS_SUB` for a sub-buffer.
    pub access: u32,
    /// `__symcross_cl_site()` at the buffer's creation (0: unknown).
    pub site: u64,
}

/// A buffer argument of a launch: the bytes of an object it views and
/// what its flags allow the kernel.
#[derive(Clone, Debug)]
pub(in crate::exec) struct HostView {
    /// The kernel parameter's index.
    param: usize,
    object: ObjectId,
    /// Bytes `start..end` of the object.
    start: u64,
    end: u64,
    access: HostAccess,
    sub_buffer: bool,
    /// Where the host created the buffer: `file.c:31`, and the location.
    site: Option<(String, Location)>,
}

/// The restrictions of one launch's run (the nested executor's).
#[derive(Default)]
pub struct LaunchViews {
    views: Vec<HostView>,
    /// The kernel parameters' names, by index.
    params: Vec<String>,
    objects: FxHashMap<ObjectId, Restricted>,
}

/// The restricted bytes of one object.
struct Restricted {
    /// Its read-only and write-only marks before the launch: a constant
    /// the host passed with `CL_MEM_USE_HOST_PTR` keeps its own finding.
    was: (bool, bool),
    /// Bytes no argument lets the kernel write, and those it may not read.
    no_write: Vec<Segment>,
    no_read: Vec<Segment>,
}

/// Bytes `start..end` of an object, restricted by `LaunchViews::views[view]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Segment {
    start: u64,
    end: u64,
    view: usize,
}

/// The marks a launch put on objects, with what they were: put back on
/// every kernel path the host goes on from (`unmark`).
pub(in crate::exec) type Marks = Vec<(ObjectId, (bool, bool))>;

impl<'m> Executor<'m> {
    /// `unsigned long long __symcross_cl_site(void)`: the user's line
    /// calling the OpenCL function running, as a number (its place in the
    /// run's table of such lines, from 1) a launch names it by.
    pub(in crate::exec) fn cl_site(
        &mut self,
        state: &mut State,
        c: &crate::exec::engine::calls::CallCtx,
    ) -> Result<Option<crate::expr::value::Value>, Step> {
        let user = self.api_call_loc(state, c.inst.loc);
        let sites = &mut self.models.cl.sites;
        let id = match sites.iter().position(|l| *l == user) {
            Some(i) => i,
            None => {
                sites.push(user);
                sites.len() - 1
            }
        };
        Ok(Some(crate::expr::value::scalar(self.cx.pool.constant(64, id as u128 + 1))))
    }

    /// The host side of a launch: its buffer arguments as views of the
    /// objects of `state`'s memory. A buffer whose memory is freed or in
    /// no object has none (the kernel's access is its own finding).
    pub(in crate::exec) fn host_views(&self, state: &State, raw: &[RawBufferArg]) -> Vec<HostView> {
        let mut out = Vec::new();
        for r in raw {
            let Some(object) = state.memory.object_near(r.data) else { continue };
            let o = state.memory.object(object);
            let start = r.data.wrapping_sub(o.base);
            if o.freed || start >= o.size {
                continue;
            }
            let access = match r.access & !ACCESS_SUB {
                1 => HostAccess::ReadOnly,
                2 => HostAccess::WriteOnly,
                _ => HostAccess::ReadWrite,
            };
            let site = usize::try_from(r.site).ok().and_then(|s| s.checked_sub(1)).and_then(|i| self.models.cl.sites.get(i)).map(|l| {
                let label = self.loc_label(*l);
                (label, self.cx.location(*l))
            });
            out.push(HostView {
                param: r.param,
                object,
                start,
                end: start.saturating_add(r.size).min(o.size),
                access,
                sub_buffer: r.access & ACCESS_SUB != 0,
                site,
            });
        }
        out
    }

    /// The kernel side of a launch (`kernel` of the nested executor's
    /// module): marks the objects whose bytes the views restrict on
    /// `state`, for this executor's run, and returns the marks to take off
    /// afterwards.
    pub(in crate::exec) fn restrict_host_views(&mut self, state: &mut State, views: Vec<HostView>, kernel: FuncId) -> Marks {
        let params = self.cx.module.function(kernel).params.iter().map(|p| p.name.clone()).collect();
        let mut by_object: FxHashMap<ObjectId, Vec<usize>> = FxHashMap::default();
        for (i, v) in views.iter().enumerate() {
            by_object.entry(v.object).or_default().push(i);
        }
        let mut objects = FxHashMap::default();
        let mut marks = Marks::new();
        // A fixed order: the same run marks the same way.
        let mut ids: Vec<ObjectId> = by_object.keys().copied().collect();
        ids.sort_unstable_by_key(|id| id.0);
        for id in ids {
            let on = &by_object[&id];
            let no_write = restricted(&views, on, HostAccess::ReadOnly);
            let no_read = restricted(&views, on, HostAccess::WriteOnly);
            if no_write.is_empty() && no_read.is_empty() {
                continue;
            }
            let o = state.memory.object(id);
            let was = (o.read_only, o.write_only);
            let o = state.memory.object_mut(id);
            o.read_only |= !no_write.is_empty();
            o.write_only |= !no_read.is_empty();
            marks.push((id, was));
            objects.insert(id, Restricted { was, no_write, no_read });
        }
        self.models.cl.launch = LaunchViews { views, params, objects };
        marks
    }

    /// For a write of `len` bytes at `offset` into `object`, marked
    /// read-only: None when no host view made the mark (the object is
    /// constant: `check_writable` goes on); otherwise the write is allowed,
    /// or it reaches bytes the host created read-only: a
    /// `write-to-read-only` finding and the path ends, as for `:ro`. An
    /// offset that may or may not reach them splits the path.
    pub(in crate::exec) fn host_view_write(
        &mut self,
        state: &mut State,
        object: ObjectId,
        offset: ExprId,
        len: u64,
        loc: Loc,
    ) -> Option<Result<(), Step>> {
        let r = self.models.cl.launch.objects.get(&object).filter(|r| !r.was.0)?;
        let segments = r.no_write.clone();
        let size = state.memory.object(object).size;
        Some(match self.overlap(&segments, size, offset, len) {
            Overlap::No => Ok(()),
            Overlap::Yes => {
                self.report_write(state, &segments, offset, len, loc);
                Err(Step::Terminated)
            }
            Overlap::If(cond) => {
                let (hit, miss) = self.branch(state, cond);
                if let Some(mut hit) = hit {
                    self.report_write(&mut hit, &segments, offset, len, loc);
                }
                match miss {
                    Some(s) => {
                        *state = s;
                        Ok(())
                    }
                    None => Err(Step::Terminated),
                }
            }
        })
    }

    /// The `write-to-read-only` finding of a write that reaches
    /// `segments` on `state`'s path.
    fn report_write(&mut self, state: &mut State, segments: &[Segment], offset: ExprId, len: u64, loc: Loc) {
        let model = self.current_model(state);
        let view = self.segment_hit(model.as_ref(), segments, offset, len);
        let (what, name, at, related) = self.view_words(view);
        let msg = format!("write of {len} bytes into {what} `{name}` (created CL_MEM_READ_ONLY by the host{at}), which is read-only");
        if let Some(f) = self.report(state, FindingKind::WriteToReadOnly, loc, msg, model.as_ref(), None) {
            f.related.extend(related);
        }
    }

    /// For a read (`kind`) of `len` bytes at `offset` of `object`, marked
    /// write-only: false when no host view made the mark; otherwise true,
    /// with a `read-from-write-only` finding when the read may reach bytes
    /// the host created write-only. The path goes on, as for `:wo`.
    pub(in crate::exec) fn host_view_read(
        &mut self,
        state: &mut State,
        object: ObjectId,
        offset: ExprId,
        len: u64,
        kind: AccessKind,
        loc: Loc,
    ) -> bool {
        let Some(r) = self.models.cl.launch.objects.get(&object).filter(|r| !r.was.1) else { return false };
        let segments = r.no_read.clone();
        let size = state.memory.object(object).size;
        let model = match self.overlap(&segments, size, offset, len) {
            Overlap::No => return true,
            Overlap::Yes => self.current_model(state),
            // A witness that reaches them; the path itself is not split
            // (the read goes on either way).
            Overlap::If(cond) => match self.cx.decider.feasible(&self.cx.pool, &state.path, cond) {
                crate::check::Feasibility::Sat(m) => Some(m),
                _ => return true,
            },
        };
        let view = self.segment_hit(model.as_ref(), &segments, offset, len);
        let (what, name, at, related) = self.view_words(view);
        let how = if kind == AccessKind::Atomic { "atomic read-modify-write" } else { "read" };
        let msg = format!(
            "{how} of {len} bytes of {what} `{name}`, which the host created write-only (CL_MEM_WRITE_ONLY{at}): a kernel may only write it"
        );
        if let Some(f) = self.report(state, FindingKind::ReadFromWriteOnly, loc, msg, model.as_ref(), None) {
            f.related.extend(related);
        }
        true
    }

    /// Whether bytes `offset..offset + len` (inside the object, of `size`
    /// bytes) reach a segment.
    fn overlap(&mut self, segments: &[Segment], size: u64, offset: ExprId, len: u64) -> Overlap {
        if len == 0 {
            return Overlap::No;
        }
        // A whole buffer restricted (the common case): any access inside
        // reaches it, at whatever offset, without a query.
        if segments.first().is_some_and(|s| s.start == 0 && s.end >= size) {
            return Overlap::Yes;
        }
        if let Some(off) = self.cx.pool.as_const(offset) {
            let off = off as u64;
            let reaches = segments.iter().any(|s| off < s.end && s.start < off.saturating_add(len));
            return if reaches { Overlap::Yes } else { Overlap::No };
        }
        // In bounds, so `offset + len` does not wrap.
        let len_e = self.cx.pool.constant(64, len as u128);
        let last = self.cx.pool.add(offset, len_e);
        let mut any = self.cx.pool.bool_const(false);
        for s in segments {
            let end = self.cx.pool.constant(64, s.end as u128);
            let start = self.cx.pool.constant(64, s.start as u128);
            let before_end = self.cx.pool.cmp(CmpOp::Ult, offset, end);
            let after_start = self.cx.pool.cmp(CmpOp::Ult, start, last);
            let both = self.cx.pool.and(before_end, after_start);
            any = self.cx.pool.or(any, both);
        }
        match self.cx.pool.as_const(any) {
            Some(0) => Overlap::No,
            Some(_) => Overlap::Yes,
            None => Overlap::If(any),
        }
    }

    /// The view whose segment the access reaches under `model` (the first
    /// segment's when no model says).
    fn segment_hit(&self, model: Option<&crate::expr::Assignment>, segments: &[Segment], offset: ExprId, len: u64) -> usize {
        let off = match (self.cx.pool.as_const(offset), model) {
            (Some(o), _) => Some(o as u64),
            (None, Some(m)) => Some(crate::expr::evaluate(&self.cx.pool, offset, m) as u64),
            (None, None) => None,
        };
        off.and_then(|off| segments.iter().find(|s| off < s.end && s.start < off.saturating_add(len))).unwrap_or(&segments[0]).view
    }

    /// How a finding names view `view`: `buffer` or `sub-buffer`, the
    /// kernel parameter, ` at file.c:31` and the related location.
    fn view_words(&self, view: usize) -> (&'static str, String, String, Option<Related>) {
        let launch = &self.models.cl.launch;
        let v = &launch.views[view];
        let what = if v.sub_buffer { "sub-buffer" } else { "buffer" };
        let name = launch.params.get(v.param).filter(|n| !n.is_empty()).cloned().unwrap_or_else(|| format!("argument {}", v.param));
        let (at, related) = match &v.site {
            Some((label, location)) => {
                let call = if v.sub_buffer { "clCreateSubBuffer" } else { "clCreateBuffer" };
                (format!(" at {label}"), Some(Related { message: format!("{what} created here ({call})"), location: location.clone() }))
            }
            None => (String::new(), None),
        };
        (what, name, at, related)
    }

    /// Whether an object `check_writable` finds read-only may still be
    /// written in part: a launch's view restricts only some of its bytes.
    pub(in crate::exec) fn partly_writable(&self, object: ObjectId, size: u64) -> bool {
        self.models
            .cl
            .launch
            .objects
            .get(&object)
            .is_some_and(|r| !r.was.0 && r.no_write.iter().map(|s| s.end - s.start).sum::<u64>() < size)
    }
}

/// Whether an access reaches restricted bytes.
enum Overlap {
    No,
    /// It does.
    Yes,
    /// When this condition holds.
    If(ExprId),
}

/// The bytes of an object that the views `on` (indices into `views`)
/// reach and that none of them allows to be accessed other than `only`
/// allows (`ReadOnly`: not written; `WriteOnly`: not read), as segments
/// naming the first view of that access over them.
fn restricted(views: &[HostView], on: &[usize], only: HostAccess) -> Vec<Segment> {
    let mut cuts: Vec<u64> = on.iter().flat_map(|&i| [views[i].start, views[i].end]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<Segment> = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let covering = || on.iter().copied().filter(|&i| views[i].start <= a && b <= views[i].end);
        // Restricted when every view over these bytes has the access.
        if covering().next().is_none() || covering().any(|i| views[i].access != only) {
            continue;
        }
        let view = covering().next().expect("checked above");
        match out.last_mut() {
            Some(last) if last.end == a && last.view == view => last.end = b,
            _ => out.push(Segment { start: a, end: b, view }),
        }
    }
    out
}

/// Takes a launch's marks off `memory` (a kernel path the host goes on
/// from).
pub(in crate::exec) fn unmark(memory: &mut Memory, marks: &Marks) {
    for &(id, (read_only, write_only)) in marks {
        let o = memory.object(id);
        if (o.read_only, o.write_only) != (read_only, write_only) {
            let o = memory.object_mut(id);
            o.read_only = read_only;
            o.write_only = write_only;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(start: u64, end: u64, access: HostAccess) -> HostView {
        HostView { param: 0, object: ObjectId(0), start, end, access, sub_buffer: false, site: None }
    }

    #[test]
    fn a_read_only_buffer_is_restricted_whole() {
        let views = [view(0, 64, HostAccess::ReadOnly)];
        assert_eq!(restricted(&views, &[0], HostAccess::ReadOnly), [Segment { start: 0, end: 64, view: 0 }]);
        assert!(restricted(&views, &[0], HostAccess::WriteOnly).is_empty());
    }

    /// A read-only sub-buffer of a buffer also passed read-write restricts
    /// nothing: the kernel may write those bytes through the buffer.
    #[test]
    fn a_byte_any_view_allows_is_not_restricted() {
        let views = [view(0, 256, HostAccess::ReadWrite), view(128, 256, HostAccess::ReadOnly), view(0, 64, HostAccess::WriteOnly)];
        assert!(restricted(&views, &[0, 1], HostAccess::ReadOnly).is_empty());
        assert_eq!(restricted(&views, &[1, 2], HostAccess::ReadOnly), [Segment { start: 128, end: 256, view: 1 }]);
        assert_eq!(restricted(&views, &[1, 2], HostAccess::WriteOnly), [Segment { start: 0, end: 64, view: 2 }]);
        // A read-only and a write-only view over the same bytes: each
        // access is allowed by one of them.
        let both = [view(0, 64, HostAccess::ReadOnly), view(0, 64, HostAccess::WriteOnly)];
        assert!(restricted(&both, &[0, 1], HostAccess::ReadOnly).is_empty());
        assert!(restricted(&both, &[0, 1], HostAccess::WriteOnly).is_empty());
    }

    /// Two read-only sub-buffers side by side stay two segments, each
    /// naming its own view.
    #[test]
    fn adjacent_views_keep_their_names() {
        let views = [view(0, 128, HostAccess::ReadOnly), view(128, 256, HostAccess::ReadOnly)];
        assert_eq!(
            restricted(&views, &[0, 1], HostAccess::ReadOnly),
            [Segment { start: 0, end: 128, view: 0 }, Segment { start: 128, end: 256, view: 1 }]
        );
    }
}
