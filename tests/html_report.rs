//! The HTML report (`--html FILE`, `suite --html DIR`) opened in a real
//! browser, headless Chromium: the page renders (a screenshot that is not
//! one colour, holding the colours of the verdict and of the racing
//! work-items), logs nothing to the console (no script error; the page has
//! no script, and a control page shows that errors would be seen), and its
//! DOM holds the finding, the witness values of the JSON report, the folded
//! expressions and the NDRange grid of a race, an out-of-bounds access
//! and a barrier divergence. Markup in a harness comment is
//! shown as text, never run.

mod common;

use serde_json::Value;
use std::collections::HashSet;
use std::os::raw::c_ulong;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";
const FIXTURES: &str = "tests/fixtures/html";

fn chromium_present(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    common::skip_or_fail_under_ci(test, "chromium not found at /usr/bin/chromium (scripts/setup.sh installs it)");
    false
}

fn chromium(args: &[&str], page: &Path) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output()
        .expect("run chromium");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "chromium failed on {}: {stderr}", page.display());
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// The page's DOM after loading, and every console line it logged
/// (uncaught errors, refused scripts or requests, any message at all).
fn load(page: &Path) -> (String, Vec<String>) {
    let (dom, log) = chromium(&["--dump-dom"], page);
    let console = log.lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    (dom, console)
}

/// A screenshot of the page, decoded: width, height and RGB pixels.
fn screenshot(page: &Path, dir: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let png = dir.join(format!("{}.png", page.file_stem().unwrap().to_string_lossy()));
    chromium(&[&format!("--screenshot={}", png.display()), "--window-size=1200,1600"], page);
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot {}: {e}", png.display()));
    decode_png(&bytes)
}

/// Text as a DOM dump serialises it: `&`, `<` and `>` escaped.
fn as_dom_text(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn assert_rendered(pixels: &[[u8; 3]], must_hold: &[([u8; 3], &str)]) {
    let colours: HashSet<[u8; 3]> = pixels.iter().copied().collect();
    assert!(colours.len() > 8, "the screenshot is blank: {} colours", colours.len());
    for (c, what) in must_hold {
        assert!(colours.contains(c), "the screenshot shows no {what} ({c:?})");
    }
}

/// Runs `symcross ARGS --html DIR/NAME.html --json DIR/NAME.json`, checks
/// its exit code and returns the page's path and the JSON report.
fn run_with_page(dir: &Path, name: &str, args: &[&str], code: i32) -> (PathBuf, Value) {
    let page = dir.join(format!("{name}.html"));
    let json = dir.join(format!("{name}.json"));
    let mut all = args.to_vec();
    all.extend(["--html", page.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    let r = common::symcross(&all);
    assert_eq!(r.code, code, "{}{}", r.stdout, r.stderr);
    let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (page, report)
}

#[test]
fn a_check_page_shows_the_mismatch_its_witness_and_expressions_and_runs_no_markup() {
    if !chromium_present("html_report::check") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let harness = format!("{FIXTURES}/markup_in_comment_broken.c");
    let (page, report) = run_with_page(dir.path(), "check", &["check", &harness], 1);
    let finding = &report["findings"][0];
    assert_eq!(finding["kind"], "mismatch");

    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    // The comment's markup is text: no script element, no image, the title untouched.
    assert!(!dom.contains("<script") && !dom.contains("<img"), "markup from the harness reached the DOM");
    assert!(dom.contains("&lt;script&gt;document.title = \"injected\";&lt;/script&gt;"), "the comment is not shown as text");
    assert!(dom.contains(&format!("<title>symcross check: {harness} (findings)</title>")));
    assert!(dom.contains("class=\"verdict verdict-findings\""));
    // The finding, at its line in the listing and in its block.
    assert!(dom.contains(&as_dom_text(finding["message"].as_str().unwrap())));
    assert!(dom.contains("x+1 &lt;vs&gt; x|1"));
    assert!(dom.contains("class=\"bubble error\""), "no bubble under the source line");
    assert!(dom.contains("<td class=\"num\">15</td>"));
    // The witness table holds the values the JSON report decodes.
    let decoded = &finding["witness_values"]["x"];
    assert!(dom.contains(&format!("<td>{}</td>", decoded["type"].as_str().unwrap())));
    for value in decoded["elements"].as_array().unwrap() {
        assert!(dom.contains(&format!("<code>{}</code>", as_dom_text(value.as_str().unwrap()))), "witness value {value} missing");
    }
    // Both sides, folded, with the differing subterm marked.
    assert!(dom.contains("<details class=\"expressions\">"));
    let left = finding["expressions"]["left"].as_str().unwrap();
    assert!(dom.contains(&as_dom_text(left).replace('⟪', "<mark>⟪").replace('⟫', "⟫</mark>")), "left side {left} missing");
    assert!(dom.contains("native replay"));

    let (w, h, pixels) = screenshot(&page, dir.path());
    assert_eq!((w, h), (1200, 1600));
    // The verdict's background.
    assert_rendered(&pixels, &[([0xff, 0xe3, 0xe3], "findings verdict")]);
}

/// A tolerance check's page holds its bound, verdict and worst input, and
/// the error plot inline.
#[test]
fn a_tolerance_page_shows_the_bound_and_the_error_plot() {
    if !chromium_present("html_report::tolerance") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let harness = common::repo().join("harnesses/tolerance/scaled_by_powers_of_two.c");
    let (page, report) = run_with_page(dir.path(), "tolerance", &["check", harness.to_str().unwrap()], 0);
    let result = &report["tolerance"][0];
    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    assert!(dom.contains("<h2 id=\"tolerance\">Tolerance checks (1)</h2>"), "no tolerance section");
    assert!(dom.contains(&as_dom_text(result["what"].as_str().unwrap())));
    assert!(dom.contains(&format!("<td class=\"mono\">{}</td>", result["tolerance"].as_str().unwrap())));
    assert!(dom.contains("<div class=\"plot\"><svg"), "no error plot");
    let samples = result["samples"].as_array().map_or(0, |s| s.len());
    assert!(samples > 0, "no samples to plot: {report:#}");
}

/// A `may-exceed` result (an excess through an RCPPS estimate, not
/// replayed) is named in the table and in its plot panel's title.
#[test]
fn a_tolerance_page_shows_a_may_exceed_verdict_in_its_table_and_plot() {
    if !chromium_present("html_report::may_exceed") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let harness = common::repo().join("harnesses/tolerance/rcp_estimate_newton_tight_broken.c");
    let (page, report) = run_with_page(dir.path(), "may_exceed", &["check", harness.to_str().unwrap(), "--no-replay"], 3);
    assert_eq!(report["tolerance"][0]["verdict"], "may-exceed", "{report:#}");
    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    let words = "may exceed (on an input whose values run through an approximation; the native replay decides)";
    assert!(dom.contains(&format!("<td>{words}</td>")), "no may-exceed row");
    assert!(dom.contains("<div class=\"plot\"><svg"), "no error plot");
    assert!(dom.contains(&format!("rel:5.960464477539063e-8): {words}</text>")), "no may-exceed panel title");
}

#[test]
fn a_race_page_draws_the_ndrange_with_both_work_items_and_the_element() {
    if !chromium_present("html_report::race") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let kernel = format!("{FIXTURES}/tile_transpose_race.cl");
    let args = ["race", kernel.as_str(), "--local-size", "4,4", "--num-groups", "2,2", "--local-memory", "arbitrary"];
    let (page, report) = run_with_page(dir.path(), "race", &args, 1);
    // Work-items run in order: (1,0) writes tile[0][1] first, (0,1) reads it.
    let race = &report["findings"][0]["race"];
    let expected: Value = serde_json::json!({
        "dims": 2, "local_size": [4, 4, 1], "num_groups": [2, 2, 1], "buffer": "transpose.tile", "space": "local",
        "accesses": [
            {"access": "write", "local_id": [1, 0, 0], "group_id": [0, 0, 0], "byte_offset": 4, "bytes": 4},
            {"access": "read", "local_id": [0, 1, 0], "group_id": [0, 0, 0], "byte_offset": 4, "bytes": 4}
        ]
    });
    assert_eq!(race, &expected, "{report:#}");

    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    assert!(dom.contains("<svg") && dom.contains("class=\"race-grid\""), "no NDRange picture");
    assert_eq!(dom.matches("class=\"group\"").count(), 4, "2×2 groups");
    assert_eq!(dom.matches("class=\"work-item involved access-first\"").count(), 1);
    assert_eq!(dom.matches("class=\"work-item involved access-second\"").count(), 1);
    assert_eq!(dom.matches("class=\"element touched\"").count(), 1, "both touch one element");
    assert!(dom.contains(">[1]</text>"));
    assert!(dom.contains("first: write by work-item (1,0,0) of group (0,0,0), bytes 4..7"));
    assert!(dom.contains("second: read by work-item (0,1,0) of group (0,0,0), bytes 4..7"));
    assert!(dom.contains("NDRange: 2×2 work-groups of 4×4 work-items"));
    // The run stopped the path of its finding, so no path reached its end;
    // the statistics still count the path explored, as the text does.
    assert_eq!(report["stats"]["paths"], 0);
    assert!(dom.contains("1 path (stopped at its finding), "), "the statistics say 0 paths beside a finding");

    let (_, _, pixels) = screenshot(&page, dir.path());
    assert_rendered(&pixels, &[([0xe8, 0x59, 0x0c], "first work-item"), ([0x1c, 0x7e, 0xd6], "second work-item")]);
}

#[test]
fn an_out_of_bounds_page_draws_the_work_item_and_the_end_of_the_buffer() {
    if !chromium_present("html_report::out_of_bounds") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let kernel = format!("{FIXTURES}/off_by_one_store.cl");
    let args =
        ["race", kernel.as_str(), "--global-size", "64", "--local-size", "16", "--arg", "n=63", "--arg", "out=252", "--arg", "in=256"];
    let (page, report) = run_with_page(dir.path(), "oob", &args, 1);
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds", "{report:#}");
    let expected: Value = serde_json::json!({
        "dims": 1, "local_size": [16, 1, 1], "num_groups": [4, 1, 1], "buffer": "out", "space": "global", "buffer_bytes": 252,
        "accesses": [ {"access": "write", "local_id": [15, 0, 0], "group_id": [3, 0, 0], "byte_offset": 252, "bytes": 4} ]
    });
    assert_eq!(f["kernel_site"], expected);

    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    assert!(dom.contains("class=\"out-of-bounds-grid\""), "no NDRange picture");
    assert_eq!(dom.matches("class=\"group\"").count(), 4);
    assert_eq!(dom.matches("class=\"work-item involved access-first\"").count(), 1);
    assert_eq!(dom.matches("class=\"element touched outside\"").count(), 1, "element 63 is past the end");
    assert!(dom.contains("class=\"buffer-end\"") && dom.contains("end of `out` (byte 252)"));
    assert!(dom.contains("write by work-item (15,0,0) of group (3,0,0), bytes 252..255 (the buffer holds bytes 0..251)"));

    let (_, _, pixels) = screenshot(&page, dir.path());
    assert_rendered(&pixels, &[([0xe8, 0x59, 0x0c], "the work-item"), ([0xd6, 0x33, 0x6c], "the buffer's end")]);
}

#[test]
fn a_divergence_page_draws_both_work_items_and_where_they_stopped() {
    if !chromium_present("html_report::divergence") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let kernel = format!("{FIXTURES}/barrier_in_branch.cl");
    let args = ["race", kernel.as_str(), "--global-size", "16", "--local-size", "8"];
    let (page, report) = run_with_page(dir.path(), "divergence", &args, 1);
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "barrier-divergence", "{report:#}");
    let expected: Value = serde_json::json!({
        "dims": 1, "local_size": [8, 1, 1], "num_groups": [2, 1, 1],
        "accesses": [
            {"access": "waits at the barrier at line 8", "local_id": [0, 0, 0], "group_id": [0, 0, 0]},
            {"access": "finished the kernel", "local_id": [4, 0, 0], "group_id": [0, 0, 0]}
        ]
    });
    assert_eq!(f["kernel_site"], expected);

    let (dom, console) = load(&page);
    assert!(console.is_empty(), "the page logged to the console: {console:#?}");
    assert!(dom.contains("class=\"divergence-grid\""), "no NDRange picture");
    assert_eq!(dom.matches("class=\"work-item involved").count(), 2);
    assert!(dom.contains("work-item (0,0,0) of group (0,0,0) waits at the barrier at line 8"));
    assert!(dom.contains("work-item (4,0,0) of group (0,0,0) finished the kernel"));
    assert!(!dom.contains("class=\"element"), "a divergence touches no buffer");

    let (_, _, pixels) = screenshot(&page, dir.path());
    assert_rendered(&pixels, &[([0xe8, 0x59, 0x0c], "first work-item"), ([0x1c, 0x7e, 0xd6], "second work-item")]);
}

#[test]
fn a_suite_writes_an_index_linking_a_page_per_entry() {
    if !chromium_present("html_report::suite") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("html");
    let manifest = common::repo().join(FIXTURES).join("symcross.toml");
    // Run elsewhere: the pages must still find the sources, relative to the manifest.
    let r = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .current_dir(dir.path())
        .args(["suite", manifest.to_str().unwrap(), "--no-cache", "-q", "-j", "1", "--html", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}{}", String::from_utf8_lossy(&r.stdout), String::from_utf8_lossy(&r.stderr));
    let index = out.join("index.html");
    let (dom, console) = load(&index);
    assert!(console.is_empty(), "the index logged to the console: {console:#?}");
    assert!(dom.contains("passed: 2 of 2 entries met their expectation"));
    let pages: Vec<PathBuf> =
        ["001-markup_in_comment_broken_c.html", "002-tile_transpose_race_cl.html"].iter().map(|p| out.join(p)).collect();
    for (page, name) in pages.iter().zip(["markup_in_comment_broken.c", "tile_transpose_race.cl"]) {
        let href = page.file_name().unwrap().to_str().unwrap();
        assert!(dom.contains(&format!("<a href=\"{href}\">{name}</a>")), "the index does not link {href}");
    }
    assert_eq!(dom.matches("class=\"verdict outcome-met\"").count(), 2);
    let (race_page, console) = load(&pages[1]);
    assert!(console.is_empty(), "{console:#?}");
    assert!(race_page.contains("<a href=\"index.html\">all entries</a>"));
    assert!(race_page.contains("class=\"race-grid\""));
    assert!(race_page.contains("__kernel void transpose"), "the source listing is missing");
}

/// The console check is not vacuous: a page whose script throws is seen.
#[test]
fn a_script_error_would_be_seen() {
    if !chromium_present("html_report::control") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("control.html");
    std::fs::write(&page, "<!DOCTYPE html><p>control</p><script>throw new Error('control error')</script>").unwrap();
    let (_, console) = load(&page);
    assert!(console.iter().any(|l| l.contains("Uncaught Error: control error")), "{console:#?}");
}

#[link(name = "z")]
extern "C" {
    fn uncompress(dest: *mut u8, dest_len: *mut c_ulong, source: *const u8, source_len: c_ulong) -> i32;
}

/// Width, height and pixels of an 8-bit RGB or RGBA, non-interlaced PNG
/// (what Chromium writes), inflated with zlib and unfiltered.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut at, mut data, mut header) = (8, Vec::new(), None);
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let body = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                header = Some((
                    u32::from_be_bytes(body[0..4].try_into().unwrap()),
                    u32::from_be_bytes(body[4..8].try_into().unwrap()),
                    body[8],
                    body[9],
                    body[12],
                ))
            }
            b"IDAT" => data.extend_from_slice(body),
            _ => {}
        }
        at += 12 + len;
    }
    let (w, h, depth, colour, interlace) = header.expect("no IHDR");
    assert!(depth == 8 && (colour == 2 || colour == 6) && interlace == 0, "unexpected PNG format: depth {depth}, colour {colour}");
    let bpp = if colour == 6 { 4 } else { 3 };
    let stride = w as usize * bpp;
    let mut raw = vec![0u8; h as usize * (stride + 1)];
    let mut raw_len = raw.len() as c_ulong;
    // SAFETY: both buffers are valid for the lengths given; zlib writes at most raw_len bytes.
    let status = unsafe { uncompress(raw.as_mut_ptr(), &mut raw_len, data.as_ptr(), data.len() as c_ulong) };
    assert_eq!(status, 0, "zlib could not inflate the image");
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity((w * h) as usize);
    for row in raw.chunks(stride + 1) {
        let (filter, line) = (row[0], &row[1..]);
        let mut cur = vec![0u8; stride];
        for i in 0..stride {
            let a = if i >= bpp { cur[i - bpp] as i32 } else { 0 };
            let b = prev[i] as i32;
            let c = if i >= bpp { prev[i - bpp] as i32 } else { 0 };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("unknown PNG filter {f}"),
            };
            cur[i] = line[i].wrapping_add(predicted as u8);
        }
        pixels.extend(cur.chunks(bpp).map(|p| [p[0], p[1], p[2]]));
        prev = cur;
    }
    (w, h, pixels)
}
