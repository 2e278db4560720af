//! The picture of a kernel finding: the NDRange as an SVG grid,
//! work-groups as blocks and work-items as cells, the work-items involved
//! and their groups highlighted, and below it the buffer's elements around
//! the bytes touched with a line from each work-item to what it touched.
//! A race shows its two accesses; an out-of-bounds access its one access
//! and where the buffer ends; a barrier divergence its two work-items and
//! where each stopped.

use super::escape::escape;
use crate::report::NdrangeSite;
use std::fmt::Write;

/// What the picture shows, which decides its words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Picture {
    Race,
    OutOfBounds,
    Divergence,
}

/// Colours of the first work-item, the second, and a cell or element both share.
const COLOUR: [&str; 3] = ["#e8590c", "#1c7ed6", "#9c36b5"];
/// Colour of the line where a buffer ends.
const END: &str = "#d6336c";
/// A one-dimensional group's work-items wrap after this many cells.
const WRAP: u64 = 64;
/// Every group is drawn up to this many groups and cells; beyond, only
/// the groups of the work-items involved are.
const MAX_GROUPS_DRAWN: u64 = 64;
const MAX_CELLS_DRAWN: u64 = 8192;
/// Work-item cells across the picture at most, before it is scaled.
const MAX_CELLS_ACROSS: u64 = 64;
/// Buffer elements drawn on each side of the ones touched.
const ELEMENT_MARGIN: i64 = 3;
const MAX_ELEMENTS: i64 = 24;
const GAP: u64 = 14;
const LABEL: u64 = 16;
const MARGIN: u64 = 10;
const TARGET_WIDTH: u64 = 1000;
const TARGET_HEIGHT: u64 = 420;

/// A group's block: its id and where its top-left cell is drawn.
struct Block {
    id: [u64; 3],
    x: u64,
    y: u64,
}

pub(super) fn render(out: &mut String, site: &NdrangeSite, picture: Picture) {
    if site.accesses.is_empty() {
        return;
    }
    let dims = site.dims.clamp(1, 3);
    let local = site.local_size.map(|v| v.max(1));
    let groups = site.num_groups.map(|v| v.max(1));
    let (cols, rows) = if dims == 1 { (local[0].min(WRAP), local[0].div_ceil(WRAP)) } else { (local[0], local[1]) };
    let cell_of = |l: [u64; 3]| if dims == 1 { (l[0] % WRAP, l[0] / WRAP) } else { (l[0], l[1]) };
    let total_groups = groups[0] * if dims == 1 { 1 } else { groups[1] };
    let all = total_groups <= MAX_GROUPS_DRAWN && total_groups * cols * rows <= MAX_CELLS_DRAWN;
    // The groups drawn and their place in the layout (column, row of blocks).
    let mut placed: Vec<([u64; 3], u64, u64)> = Vec::new();
    let z = site.accesses.iter().find_map(|a| a.group_id).map(|g| g[2]).unwrap_or(0);
    if all {
        let across = if dims == 1 { groups[0].min((MAX_CELLS_ACROSS / cols).max(1)) } else { groups[0] };
        for gy in 0..if dims == 1 { 1 } else { groups[1] } {
            for gx in 0..groups[0] {
                let (c, r) = if dims == 1 { (gx % across, gx / across) } else { (gx, gy) };
                placed.push(([gx, gy, z], c, r));
            }
        }
    } else {
        let mut ids: Vec<[u64; 3]> = site.accesses.iter().filter_map(|a| a.group_id).collect();
        ids.dedup();
        if ids.is_empty() {
            ids.push([0, 0, 0]);
        }
        for (i, id) in ids.into_iter().enumerate() {
            placed.push((id, i as u64, 0));
        }
    }
    let across = placed.iter().map(|p| p.1 + 1).max().unwrap_or(1);
    let down = placed.iter().map(|p| p.2 + 1).max().unwrap_or(1);
    let s = (TARGET_WIDTH / (across * cols).max(1)).min(TARGET_HEIGHT / (down * rows).max(1)).clamp(3, 20);
    let (block_w, block_h) = (cols * s, rows * s);
    let blocks: Vec<Block> = placed
        .iter()
        .map(|&(id, c, r)| Block { id, x: MARGIN + c * (block_w + GAP), y: MARGIN + LABEL + r * (block_h + GAP + LABEL) })
        .collect();
    let grid_w = MARGIN * 2 + across * (block_w + GAP);
    let grid_h = MARGIN + down * (block_h + GAP + LABEL);
    let strip = if picture == Picture::Divergence { None } else { Strip::of(site) };
    let strip_top = grid_h + 40;
    let width = grid_w.max(strip.as_ref().map(|s| s.width() + 2 * MARGIN).unwrap_or(0));
    let height = strip_top + if strip.is_some() { 70 } else { 0 };

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{}\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">",
        picture.class()
    );
    // Where each access's work-item is drawn, for the lines to the buffer.
    let mut centres: Vec<Option<(u64, u64)>> = vec![None; site.accesses.len()];
    for b in &blocks {
        let involved = site.accesses.iter().any(|a| a.group_id == Some(b.id));
        let (stroke, sw) = if involved { ("#222", 2) } else { ("#aaa", 1) };
        let label = if dims == 1 { format!("group {}", b.id[0]) } else { format!("group ({},{})", b.id[0], b.id[1]) };
        if involved || blocks.len() <= 16 {
            let weight = if involved { "bold" } else { "normal" };
            let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\" font-weight=\"{weight}\">{}</text>", b.x, b.y - 4, escape(&label));
        }
        let _ = writeln!(svg, "<rect class=\"group\" x=\"{}\" y=\"{}\" width=\"{block_w}\" height=\"{block_h}\" fill=\"#f1f3f5\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>", b.x, b.y);
        if s >= 6 {
            // Cell borders as one path: thousands of rects would make a heavy page.
            let mut d = String::new();
            for c in 1..cols {
                let _ = write!(d, "M{} {}v{block_h}", b.x + c * s, b.y);
            }
            for r in 1..rows {
                let _ = write!(d, "M{} {}h{block_w}", b.x, b.y + r * s);
            }
            let _ = writeln!(svg, "<path d=\"{d}\" stroke=\"#d0d4d8\" stroke-width=\"1\" fill=\"none\"/>");
        }
        if dims == 1 && local[0] % WRAP != 0 && rows > 1 {
            // The last row of a wrapped group is partly empty.
            let used = local[0] % WRAP;
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{s}\" fill=\"#fff\"/>",
                b.x + used * s,
                b.y + (rows - 1) * s,
                (cols - used) * s
            );
        }
        for (i, a) in site.accesses.iter().enumerate() {
            let (Some(g), Some(l)) = (a.group_id, a.local_id) else { continue };
            if g != b.id {
                continue;
            }
            let both = site.accesses.iter().enumerate().any(|(j, o)| j != i && o.group_id == Some(g) && o.local_id == Some(l));
            let colour = if both { COLOUR[2] } else { COLOUR[i.min(1)] };
            let (c, r) = cell_of(l);
            let (x, y) = (b.x + c * s, b.y + r * s);
            let _ = writeln!(
                svg,
                "<rect class=\"work-item involved access-{}\" x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" fill=\"{colour}\" stroke=\"#000\"><title>{}</title></rect>",
                if i == 0 { "first" } else { "second" },
                escape(&describe(site, picture, i))
            );
            centres[i] = Some((x + s / 2, y + s / 2));
        }
    }
    if !all {
        let _ = writeln!(
            svg,
            "<text x=\"{MARGIN}\" y=\"{}\" fill=\"#555\">only the {} of the {total_groups} are drawn</text>",
            grid_h + 8,
            picture.groups_drawn()
        );
    }
    match &strip {
        Some(strip) => strip.draw(&mut svg, site, strip_top, &centres),
        None if picture == Picture::Divergence => {}
        None => {
            let _ = writeln!(
                svg,
                "<text x=\"{MARGIN}\" y=\"{}\" fill=\"#555\">the offsets touched are not known (no witness)</text>",
                grid_h + 24
            );
        }
    }
    svg.push_str("</svg>\n");

    let slice = if dims == 3 { format!(", the z = {z} plane") } else { String::new() };
    let _ = writeln!(
        out,
        "<figure class=\"grid\">\n<figcaption>NDRange: {} work-groups of {} work-items{slice}; work-groups as blocks, work-items as cells{}</figcaption>",
        shape(&groups, dims),
        shape(&local, dims),
        picture.caption(site)
    );
    out.push_str(&svg);
    out.push_str("<ul class=\"legend\">\n");
    for i in 0..site.accesses.len() {
        let _ = writeln!(out, "<li><span style=\"color: {}\">■</span> {}</li>", COLOUR[i.min(1)], escape(&describe(site, picture, i)));
    }
    out.push_str("</ul>\n</figure>\n");
}

/// `4` or `4×2` or `4×2×1`.
fn shape(v: &[u64; 3], dims: u32) -> String {
    v.iter().take(dims as usize).map(u64::to_string).collect::<Vec<_>>().join("×")
}

impl Picture {
    /// The SVG's class (tests and style sheets find the picture by it).
    fn class(self) -> &'static str {
        match self {
            Picture::Race => "race-grid",
            Picture::OutOfBounds => "out-of-bounds-grid",
            Picture::Divergence => "divergence-grid",
        }
    }

    /// Which groups a large NDRange's picture keeps.
    fn groups_drawn(self) -> &'static str {
        match self {
            Picture::Race => "racing groups",
            Picture::OutOfBounds => "group of the access",
            Picture::Divergence => "groups of the two work-items",
        }
    }

    /// The end of the caption: what else the picture shows.
    fn caption(self, site: &NdrangeSite) -> String {
        let buffer = format!("the {} buffer <code>{}</code>", escape(&site.space), escape(&site.buffer));
        match self {
            Picture::Race => format!(", and {buffer} they touch"),
            Picture::OutOfBounds => match site.buffer_bytes {
                Some(n) => format!(", and {buffer} ({n} bytes) with where the access falls outside it"),
                None => format!(", and {buffer} with where the access falls"),
            },
            Picture::Divergence => ": the two work-items that stop at different places".to_string(),
        }
    }
}

/// `first: read by work-item (7,0,0) of group (0,0,0), bytes 32..35`.
fn describe(site: &NdrangeSite, picture: Picture, i: usize) -> String {
    let a = &site.accesses[i];
    let ids = |v: Option<[u64; 3]>| v.map(|v| format!("({},{},{})", v[0], v[1], v[2])).unwrap_or_else(|| "(unknown)".into());
    let bytes = match a.byte_offset {
        Some(o) => format!(", bytes {o}..{}", o + a.bytes as i64 - 1),
        None => String::new(),
    };
    let who = format!("work-item {} of group {}", ids(a.local_id), ids(a.group_id));
    match picture {
        Picture::Race => {
            let which = if i == 0 { "first" } else { "second" };
            format!("{which}: {} by {who}{bytes}", a.access)
        }
        Picture::OutOfBounds => {
            let size = site.buffer_bytes.map(|n| format!(" (the buffer holds bytes 0..{})", n as i64 - 1)).unwrap_or_default();
            format!("{} by {who}{bytes}{size}", a.access)
        }
        Picture::Divergence => format!("{who} {}", a.access),
    }
}

/// The buffer's elements around the bytes touched.
struct Strip {
    /// Element size in bytes: the smaller access.
    unit: i64,
    first: i64,
    count: i64,
    offsets: Vec<i64>,
}

const BOX_W: u64 = 48;
const BOX_H: u64 = 26;

impl Strip {
    fn of(site: &NdrangeSite) -> Option<Strip> {
        let offsets: Vec<i64> = site.accesses.iter().map(|a| a.byte_offset).collect::<Option<_>>()?;
        let unit = site.accesses.iter().map(|a| a.bytes as i64).min().unwrap_or(1).max(1);
        let lo = offsets.iter().min()?.div_euclid(unit);
        let hi = offsets.iter().zip(&site.accesses).map(|(o, a)| (o + a.bytes as i64 - 1).div_euclid(unit)).max()?;
        // An access before the buffer's start shows the elements it reached.
        let first = if lo < 0 { lo - ELEMENT_MARGIN } else { (lo - ELEMENT_MARGIN).max(0) };
        let count = (hi + ELEMENT_MARGIN - first + 1).min(MAX_ELEMENTS);
        Some(Strip { unit, first, count, offsets })
    }

    fn width(&self) -> u64 {
        self.count as u64 * BOX_W
    }

    fn draw(&self, svg: &mut String, site: &NdrangeSite, top: u64, centres: &[Option<(u64, u64)>]) {
        let _ = writeln!(
            svg,
            "<text x=\"{MARGIN}\" y=\"{}\">{} buffer `{}`, elements of {} bytes:</text>",
            top - 8,
            escape(&site.space),
            escape(&site.buffer),
            self.unit
        );
        let touches = |i: usize, e: i64| {
            let Some(&start) = self.offsets.get(i) else { return false };
            let end = start + site.accesses[i].bytes as i64;
            e * self.unit < end && (e + 1) * self.unit > start
        };
        // Bytes past the buffer (an out-of-bounds access) are drawn hatched.
        let outside = |e: i64| e < 0 || site.buffer_bytes.is_some_and(|n| (e + 1) * self.unit > n as i64);
        let mut targets: Vec<Option<u64>> = vec![None; site.accesses.len()];
        for k in 0..self.count {
            let e = self.first + k;
            let x = MARGIN + k as u64 * BOX_W;
            let (a, b) = (touches(0, e), touches(1, e));
            let fill = match (a, b) {
                (true, true) => COLOUR[2],
                (true, false) => COLOUR[0],
                (false, true) => COLOUR[1],
                _ if outside(e) => "#dee2e6",
                _ => "#fff",
            };
            let text = if a || b { "#fff" } else { "#333" };
            let class = match (a || b, outside(e)) {
                (true, true) => "element touched outside",
                (true, false) => "element touched",
                (false, true) => "element outside",
                (false, false) => "element",
            };
            let _ = writeln!(
                svg,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{top}\" width=\"{BOX_W}\" height=\"{BOX_H}\" fill=\"{fill}\" stroke=\"#555\"/>"
            );
            let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{text}\">[{e}]</text>", x + BOX_W / 2, top + 17);
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#777\" font-size=\"9\">+{}</text>",
                x + BOX_W / 2,
                top + BOX_H + 12,
                e * self.unit
            );
            for (i, t) in targets.iter_mut().enumerate() {
                if [a, b][i.min(1)] && t.is_none() {
                    *t = Some(x + BOX_W / 2);
                }
            }
        }
        if let Some(end) =
            site.buffer_bytes.map(|n| n as i64).filter(|n| (self.first * self.unit..=(self.first + self.count) * self.unit).contains(n))
        {
            // The buffer's end, between two elements.
            let x = MARGIN as i64 + (end - self.first * self.unit) * BOX_W as i64 / self.unit;
            let _ = writeln!(
                svg,
                "<line class=\"buffer-end\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{END}\" stroke-width=\"3\"/>",
                top - 4,
                top + BOX_H + 4
            );
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" fill=\"{END}\">end of `{}` (byte {end})</text>",
                x + 4,
                top + BOX_H + 24,
                escape(&site.buffer)
            );
        }
        for i in 0..site.accesses.len() {
            if let (Some((cx, cy)), Some(tx)) = (centres[i], targets[i]) {
                let _ = writeln!(
                    svg,
                    "<line class=\"touch\" x1=\"{cx}\" y1=\"{cy}\" x2=\"{}\" y2=\"{top}\" stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
                    tx + i as u64 * 6,
                    COLOUR[i.min(1)]
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::SiteAccess;

    fn access(l: [u64; 3], g: [u64; 3], offset: Option<i64>, bytes: u64, what: &str) -> SiteAccess {
        SiteAccess { access: what.into(), local_id: Some(l), group_id: Some(g), byte_offset: offset, bytes }
    }

    fn site(accesses: Vec<SiteAccess>, local: [u64; 3], groups: [u64; 3], dims: u32) -> NdrangeSite {
        NdrangeSite {
            dims,
            local_size: local,
            num_groups: groups,
            buffer: "<data>".into(),
            space: "global".into(),
            buffer_bytes: None,
            accesses,
        }
    }

    #[test]
    fn both_work_items_their_groups_and_the_element_are_drawn() {
        let a = access([7, 0, 0], [0, 0, 0], Some(32), 4, "read");
        let b = access([0, 0, 0], [1, 0, 0], Some(32), 4, "write");
        let s = site(vec![a, b], [8, 1, 1], [4, 1, 1], 1);
        let mut out = String::new();
        render(&mut out, &s, Picture::Race);
        assert!(out.contains("class=\"race-grid\""));
        assert_eq!(out.matches("class=\"group\"").count(), 4, "{out}");
        assert_eq!(out.matches("work-item involved").count(), 2);
        // One element, touched by both: the shared colour.
        assert_eq!(out.matches("class=\"element touched\"").count(), 1);
        assert!(out.contains(&format!("fill=\"{}\" stroke=\"#555\"/>", COLOUR[2])));
        assert!(out.contains("fill=\"#fff\">[8]</text>"));
        assert!(out.contains("first: read by work-item (7,0,0) of group (0,0,0), bytes 32..35"));
        assert!(out.contains("&lt;data&gt;") && !out.contains("<data>"));
        assert!(!out.contains("buffer-end"));
    }

    #[test]
    fn a_large_ndrange_draws_only_the_racing_groups() {
        let a = access([3, 1, 0], [100, 7, 0], Some(0), 4, "read");
        let b = access([3, 2, 0], [100, 7, 0], Some(0), 4, "write");
        let s = site(vec![a, b], [16, 16, 1], [256, 256, 1], 2);
        let mut out = String::new();
        render(&mut out, &s, Picture::Race);
        assert_eq!(out.matches("class=\"group\"").count(), 1);
        assert!(out.contains("only the racing groups of the 65536 are drawn"));
        assert!(out.contains("group (100,7)"));
    }

    #[test]
    fn an_access_past_the_end_shows_the_end_and_the_elements_beyond_it() {
        // 50 floats; work-item 10 of group 1 writes element 53.
        let mut s = site(vec![access([10, 0, 0], [1, 0, 0], Some(212), 4, "write")], [16, 1, 1], [4, 1, 1], 1);
        s.buffer_bytes = Some(200);
        let mut out = String::new();
        render(&mut out, &s, Picture::OutOfBounds);
        assert!(out.contains("class=\"out-of-bounds-grid\""));
        assert_eq!(out.matches("work-item involved").count(), 1);
        assert_eq!(out.matches("class=\"element touched outside\"").count(), 1, "{out}");
        // Elements 50..52 lie past the end too, untouched.
        assert_eq!(out.matches("class=\"element outside\"").count(), 6);
        assert!(out.contains("class=\"buffer-end\""));
        assert!(out.contains("end of `&lt;data&gt;` (byte 200)"));
        assert!(out.contains("write by work-item (10,0,0) of group (1,0,0), bytes 212..215 (the buffer holds bytes 0..199)"));
    }

    #[test]
    fn an_access_before_the_start_draws_negative_elements() {
        let mut s = site(vec![access([0, 0, 0], [0, 0, 0], Some(-4), 4, "read")], [4, 1, 1], [1, 1, 1], 1);
        s.buffer_bytes = Some(16);
        let mut out = String::new();
        render(&mut out, &s, Picture::OutOfBounds);
        assert!(out.contains(">[-1]</text>"), "{out}");
        assert_eq!(out.matches("class=\"element touched outside\"").count(), 1);
    }

    #[test]
    fn a_divergence_shows_two_work_items_and_where_each_stopped() {
        let a = access([0, 0, 0], [0, 0, 0], None, 0, "waits at the barrier at line 9");
        let b = access([5, 0, 0], [0, 0, 0], None, 0, "finished the kernel");
        let s = site(vec![a, b], [8, 1, 1], [2, 1, 1], 1);
        let mut out = String::new();
        render(&mut out, &s, Picture::Divergence);
        assert!(out.contains("class=\"divergence-grid\""));
        assert_eq!(out.matches("work-item involved").count(), 2);
        assert!(out.contains("work-item (5,0,0) of group (0,0,0) finished the kernel"));
        assert!(!out.contains("class=\"element") && !out.contains("offsets touched are not known"));
    }
}
