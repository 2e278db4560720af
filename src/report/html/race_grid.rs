//! The picture of a race: the NDRange as an SVG grid, work-groups as
//! blocks and work-items as cells, the two racing work-items and their
//! groups highlighted, and below it the buffer's elements around the
//! racing bytes with a line from each work-item to what it touched.

use super::escape::escape;
use crate::report::{RaceAccess, RaceSite};
use std::fmt::Write;

/// Colours of the first access, the second, and a cell or element both share.
const COLOUR: [&str; 3] = ["#e8590c", "#1c7ed6", "#9c36b5"];
/// A one-dimensional group's work-items wrap after this many cells.
const WRAP: u64 = 64;
/// Every group is drawn up to this many groups and cells; beyond, only
/// the racing groups are.
const MAX_GROUPS_DRAWN: u64 = 64;
const MAX_CELLS_DRAWN: u64 = 8192;
/// Work-item cells across the picture at most, before it is scaled.
const MAX_CELLS_ACROSS: u64 = 64;
/// Buffer elements drawn on each side of the racing ones.
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

pub(super) fn render(out: &mut String, site: &RaceSite) {
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
    let strip = Strip::of(site);
    let strip_top = grid_h + 40;
    let width = grid_w.max(strip.as_ref().map(|s| s.width() + 2 * MARGIN).unwrap_or(0));
    let height = strip_top + if strip.is_some() { 70 } else { 0 };

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"race-grid\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    // Where each access's work-item is drawn, for the lines to the buffer.
    let mut centres: [Option<(u64, u64)>; 2] = [None, None];
    for b in &blocks {
        let racing = site.accesses.iter().any(|a| a.group_id == Some(b.id));
        let (stroke, sw) = if racing { ("#222", 2) } else { ("#aaa", 1) };
        let label = if dims == 1 { format!("group {}", b.id[0]) } else { format!("group ({},{})", b.id[0], b.id[1]) };
        if racing || blocks.len() <= 16 {
            let weight = if racing { "bold" } else { "normal" };
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
            let both = site.accesses[1 - i].group_id == Some(g) && site.accesses[1 - i].local_id == Some(l);
            let colour = if both { COLOUR[2] } else { COLOUR[i] };
            let (c, r) = cell_of(l);
            let (x, y) = (b.x + c * s, b.y + r * s);
            let _ = writeln!(
                svg,
                "<rect class=\"work-item racing access-{}\" x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" fill=\"{colour}\" stroke=\"#000\"><title>{}</title></rect>",
                if i == 0 { "first" } else { "second" },
                escape(&describe(a, i))
            );
            centres[i] = Some((x + s / 2, y + s / 2));
        }
    }
    if !all {
        let _ = writeln!(
            svg,
            "<text x=\"{MARGIN}\" y=\"{}\" fill=\"#555\">only the racing groups of the {total_groups} are drawn</text>",
            grid_h + 8
        );
    }
    match &strip {
        Some(strip) => strip.draw(&mut svg, site, strip_top, &centres),
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
        "<figure class=\"grid\">\n<figcaption>NDRange: {} work-groups of {} work-items{slice}; work-groups as blocks, work-items as cells, and the {} buffer <code>{}</code> they touch</figcaption>",
        shape(&groups, dims),
        shape(&local, dims),
        escape(&site.space),
        escape(&site.buffer)
    );
    out.push_str(&svg);
    out.push_str("<ul class=\"legend\">\n");
    for (i, a) in site.accesses.iter().enumerate() {
        let _ = writeln!(out, "<li><span style=\"color: {}\">■</span> {}</li>", COLOUR[i], escape(&describe(a, i)));
    }
    out.push_str("</ul>\n</figure>\n");
}

/// `4` or `4×2` or `4×2×1`.
fn shape(v: &[u64; 3], dims: u32) -> String {
    v.iter().take(dims as usize).map(u64::to_string).collect::<Vec<_>>().join("×")
}

/// `first: read by work-item (7,0,0) of group (0,0,0), bytes 32..35`.
fn describe(a: &RaceAccess, i: usize) -> String {
    let ids = |v: Option<[u64; 3]>| v.map(|v| format!("({},{},{})", v[0], v[1], v[2])).unwrap_or_else(|| "(unknown)".into());
    let bytes = match a.byte_offset {
        Some(o) => format!(", bytes {o}..{}", o + a.bytes as i64 - 1),
        None => String::new(),
    };
    let which = if i == 0 { "first" } else { "second" };
    format!("{which}: {} by work-item {} of group {}{bytes}", a.access, ids(a.local_id), ids(a.group_id))
}

/// The buffer's elements around the racing bytes.
struct Strip {
    /// Element size in bytes: the smaller access.
    unit: i64,
    first: i64,
    count: i64,
    offsets: [i64; 2],
}

const BOX_W: u64 = 48;
const BOX_H: u64 = 26;

impl Strip {
    fn of(site: &RaceSite) -> Option<Strip> {
        let offsets = [site.accesses[0].byte_offset?, site.accesses[1].byte_offset?];
        let unit = site.accesses.iter().map(|a| a.bytes as i64).min().unwrap_or(1).max(1);
        let lo = offsets.iter().min()? / unit;
        let hi = (0..2).map(|i| (offsets[i] + site.accesses[i].bytes as i64 - 1) / unit).max()?;
        let first = (lo - ELEMENT_MARGIN).max(0);
        let count = (hi + ELEMENT_MARGIN - first + 1).min(MAX_ELEMENTS);
        Some(Strip { unit, first, count, offsets })
    }

    fn width(&self) -> u64 {
        self.count as u64 * BOX_W
    }

    fn draw(&self, svg: &mut String, site: &RaceSite, top: u64, centres: &[Option<(u64, u64)>; 2]) {
        let _ = writeln!(
            svg,
            "<text x=\"{MARGIN}\" y=\"{}\">{} buffer `{}`, elements of {} bytes:</text>",
            top - 8,
            escape(&site.space),
            escape(&site.buffer),
            self.unit
        );
        let touches = |i: usize, e: i64| {
            let (start, end) = (self.offsets[i], self.offsets[i] + site.accesses[i].bytes as i64);
            e * self.unit < end && (e + 1) * self.unit > start
        };
        let mut targets: [Option<u64>; 2] = [None, None];
        for k in 0..self.count {
            let e = self.first + k;
            let x = MARGIN + k as u64 * BOX_W;
            let (a, b) = (touches(0, e), touches(1, e));
            let fill = match (a, b) {
                (true, true) => COLOUR[2],
                (true, false) => COLOUR[0],
                (false, true) => COLOUR[1],
                _ => "#fff",
            };
            let text = if a || b { "#fff" } else { "#333" };
            let class = if a || b { "element racing" } else { "element" };
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
                if [a, b][i] && t.is_none() {
                    *t = Some(x + BOX_W / 2);
                }
            }
        }
        for i in 0..2 {
            if let (Some((cx, cy)), Some(tx)) = (centres[i], targets[i]) {
                let _ = writeln!(
                    svg,
                    "<line class=\"touch\" x1=\"{cx}\" y1=\"{cy}\" x2=\"{}\" y2=\"{top}\" stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
                    tx + i as u64 * 6,
                    COLOUR[i]
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(a: ([u64; 3], [u64; 3], i64), b: ([u64; 3], [u64; 3], i64), local: [u64; 3], groups: [u64; 3], dims: u32) -> RaceSite {
        let access = |(l, g, o): ([u64; 3], [u64; 3], i64), kind: &str| RaceAccess {
            access: kind.into(),
            local_id: Some(l),
            group_id: Some(g),
            byte_offset: Some(o),
            bytes: 4,
        };
        RaceSite {
            dims,
            local_size: local,
            num_groups: groups,
            buffer: "<data>".into(),
            space: "global".into(),
            accesses: [access(a, "read"), access(b, "write")],
        }
    }

    #[test]
    fn both_work_items_their_groups_and_the_element_are_drawn() {
        let s = site(([7, 0, 0], [0, 0, 0], 32), ([0, 0, 0], [1, 0, 0], 32), [8, 1, 1], [4, 1, 1], 1);
        let mut out = String::new();
        render(&mut out, &s);
        assert_eq!(out.matches("class=\"group\"").count(), 4, "{out}");
        assert_eq!(out.matches("work-item racing").count(), 2);
        // One element, touched by both: the shared colour.
        assert_eq!(out.matches("class=\"element racing\"").count(), 1);
        assert!(out.contains(&format!("fill=\"{}\" stroke=\"#555\"/>", COLOUR[2])));
        assert!(out.contains("fill=\"#fff\">[8]</text>"));
        assert!(out.contains("read by work-item (7,0,0) of group (0,0,0), bytes 32..35"));
        assert!(out.contains("&lt;data&gt;") && !out.contains("<data>"));
    }

    #[test]
    fn a_large_ndrange_draws_only_the_racing_groups() {
        let s = site(([3, 1, 0], [100, 7, 0], 0), ([3, 2, 0], [100, 7, 0], 0), [16, 16, 1], [256, 256, 1], 2);
        let mut out = String::new();
        render(&mut out, &s);
        assert_eq!(out.matches("class=\"group\"").count(), 1);
        assert!(out.contains("only the racing groups of the 65536 are drawn"));
        assert!(out.contains("group (100,7)"));
    }
}
