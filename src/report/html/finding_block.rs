//! One finding as a block of the page: its heading and message, how it
//! was decided, what the native run showed, the two sides folded, the
//! witness table, and the pictures (the NDRange grid of a race, an
//! out-of-bounds access in a kernel or a barrier divergence; a tolerance
//! check's error plot).

use super::escape::escape;
use super::ndrange_grid::{self, Picture};
use super::source_listing::anchor;
use super::{expressions, witness_table};
use crate::report::{Finding, FindingKind, Location, NativeOutcome, Status};
use std::fmt::Write;

/// Appends finding number `n` (`id="finding-n"`, which the source listing links to).
pub(super) fn render(out: &mut String, n: usize, f: &Finding) {
    let severity =
        if f.kind == FindingKind::Unsupported || f.kind.is_performance() || f.status == Status::Unconfirmed { "warning" } else { "error" };
    let _ = writeln!(out, "<article class=\"finding {severity}\" id=\"finding-{n}\">");
    let _ = writeln!(
        out,
        "<h3>{n}. <span class=\"kind\">{}</span> ({}) at {}</h3>",
        escape(f.kind.name()),
        escape(f.status.words()),
        location_link(&f.location)
    );
    let _ = writeln!(out, "<p class=\"message\">{}</p>", escape(&f.message));
    let mut facts: Vec<(&str, String)> = Vec::new();
    if let Some(by) = f.decided_by {
        facts.push(("decided by", escape(by.words())));
    }
    if let Some(n) = &f.native {
        let on = n.on.as_deref().unwrap_or("natively");
        let what = match n.outcome {
            NativeOutcome::Reproduced => format!("reproduced ({on}): {}", n.detail),
            NativeOutcome::NotReproduced => format!("NOT reproduced ({on}): {}", n.detail),
            NativeOutcome::NotRun => format!("not replayed natively: {}", n.detail),
        };
        facts.push(("native replay", escape(&what)));
        if let Some(m) = &n.model {
            facts.push(("the model", format!("<code>{}</code>", escape(m))));
        }
        if let Some(c) = &n.cpu {
            facts.push(("the CPU", format!("<code>{}</code>", escape(c))));
        }
    }
    if let Some(ub) = f.undefined_behaviour {
        facts.push(("operation", escape(ub.name())));
    }
    for r in &f.related {
        facts.push(("see also", format!("{}: {}", location_link(&r.location), escape(&r.message))));
    }
    if !facts.is_empty() {
        out.push_str("<table class=\"facts\">\n");
        for (k, v) in facts {
            let _ = writeln!(out, "<tr><th>{k}</th><td>{v}</td></tr>");
        }
        out.push_str("</table>\n");
    }
    if let Some(e) = &f.expressions {
        expressions::render(out, e);
    }
    if let Some(site) = &f.race {
        ndrange_grid::render(out, site, Picture::Race);
    }
    if let Some(site) = &f.kernel_site {
        let picture = if f.kind == FindingKind::BarrierDivergence { Picture::Divergence } else { Picture::OutOfBounds };
        ndrange_grid::render(out, site, picture);
    }
    witness_table::render(out, f);
    out.push_str("</article>\n");
}

/// `file:line:col`, linked to the line in the source listing.
fn location_link(loc: &Location) -> String {
    let text = match (loc.line, loc.column) {
        (0, _) => loc.file.clone(),
        (l, 0) => format!("{}:{l}", loc.file),
        (l, c) => format!("{}:{l}:{c}", loc.file),
    };
    if loc.line == 0 {
        return format!("<code>{}</code>", escape(&text));
    }
    format!("<a href=\"#{}\"><code>{}</code></a>", anchor(&loc.file, loc.line), escape(&text))
}
