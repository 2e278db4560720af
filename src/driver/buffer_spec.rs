//! `--arg NAME=SPEC` for a pointer parameter of a kernel run alone: what
//! the host gives the buffer behind it.
//!
//! ```text
//! null                       a NULL pointer: an access through it is a finding
//! BYTES                      BYTES bytes of arbitrary contents
//! @FILE                      the file's bytes (its size is the buffer's)
//! BYTES:@FILE                the file's bytes first, the rest arbitrary
//! values:E,E,...             these elements (`sym` for an arbitrary one)
//! BYTES:values:E,E,...       these elements first, the rest arbitrary
//! BYTES:fill:V               every element V
//! BYTES:range:A:B            every element arbitrary within [A, B]
//! ...:ro  ...:wo  ...:rw     the host's access flags (default rw); alone
//!                            (`ro`), an unsized buffer with those flags
//! ```
//!
//! An element is of the type the kernel's parameter points to (`float`,
//! `uint`, the component of a vector type); for a pointer to a struct,
//! elements are bytes. Values are decimal or `0x` hexadecimal integers and
//! decimal floats (`inf`, `-1.5e3`). A float range holds the values `x`
//! with `A <= x <= B` (no NaN; -0 with +0). Half elements are given
//! through a file.

use crate::exec::{BufferContents, ElementRange, HostAccess, StandaloneArg};
use crate::ir::{CONSTANT_SPACE, LOCAL_SPACE};

/// What one element of a buffer is, as far as values are concerned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Element {
    /// An integer of this many bytes, signed or not.
    Int { bytes: u32, signed: bool },
    /// A float of this many bytes (4 or 8).
    Float { bytes: u32 },
    /// A half: values only through a file.
    Half,
}

impl Element {
    fn size(self) -> u32 {
        match self {
            Element::Int { bytes, .. } | Element::Float { bytes } => bytes,
            Element::Half => 2,
        }
    }
}

/// The element of an OpenCL parameter type as `!kernel_arg_base_type`
/// spells it (`float*`, `uint __attribute__((ext_vector_type(4)))*`); bytes
/// for anything else (a struct) or an unknown type.
fn element_of(cl_type: Option<&str>) -> (Element, String) {
    let t = cl_type.unwrap_or("").trim_end_matches('*').trim();
    let scalar = t.split(" __attribute__").next().unwrap_or(t).trim();
    let int = |bytes, signed| Element::Int { bytes, signed };
    let e = match scalar {
        "char" => int(1, true),
        "uchar" => int(1, false),
        "short" => int(2, true),
        "ushort" => int(2, false),
        "int" => int(4, true),
        "uint" => int(4, false),
        "long" => int(8, true),
        "ulong" => int(8, false),
        "float" => Element::Float { bytes: 4 },
        "double" => Element::Float { bytes: 8 },
        "half" => Element::Half,
        _ => return (int(1, false), "byte".into()),
    };
    (e, scalar.to_string())
}

/// The argument of pointer parameter `name` (pointing into `space`, to
/// `cl_type`) given `spec`; the error says what is wrong with it.
pub(super) fn pointer_arg(space: u32, cl_type: Option<&str>, spec: &str) -> Result<StandaloneArg, String> {
    if spec == "null" {
        if space == LOCAL_SPACE {
            return Err("a __local pointer cannot be NULL (the host gives it a size)".into());
        }
        return Ok(StandaloneArg::Fixed { width: 64, bits: 0 });
    }
    let (rest, access) = match spec.rsplit_once(':').map_or((None, spec), |(r, a)| (Some(r), a)) {
        (r, "ro") => (r.unwrap_or(""), HostAccess::ReadOnly),
        (r, "wo") => (r.unwrap_or(""), HostAccess::WriteOnly),
        (r, "rw") => (r.unwrap_or(""), HostAccess::ReadWrite),
        _ => (spec, HostAccess::ReadWrite),
    };
    if access != HostAccess::ReadWrite && space == LOCAL_SPACE {
        return Err("__local memory has no host access flags (ro, wo)".into());
    }
    if access == HostAccess::WriteOnly && space == CONSTANT_SPACE {
        return Err("a __constant buffer cannot be write-only".into());
    }
    if rest.is_empty() {
        return Ok(StandaloneArg::Unsized { space, access });
    }
    let (bytes, content) = match rest.split_once(':') {
        Some((b, c)) if b.starts_with(|c: char| c.is_ascii_digit()) => (Some(size(b)?), Some(c)),
        None if rest.starts_with(|c: char| c.is_ascii_digit()) => (Some(size(rest)?), None),
        _ => (None, Some(rest)),
    };
    let Some(content) = content else {
        let bytes = bytes.unwrap_or(0);
        return Ok(StandaloneArg::Buffer { bytes, space, contents: BufferContents::default(), access });
    };
    if space == LOCAL_SPACE {
        return Err("__local memory has no host contents (each work-group starts it uninitialised): give its size in bytes only".into());
    }
    let (element, type_name) = element_of(cl_type);
    let (bytes, contents) = contents(content, bytes, element, &type_name)?;
    if bytes > MAX_BUFFER_BYTES {
        return Err(format!("a buffer is at most {MAX_BUFFER_BYTES} bytes"));
    }
    Ok(StandaloneArg::Buffer { bytes, space, contents, access })
}

/// Largest buffer `--arg` may give: the bytes of one symbolic input are
/// numbered with 32 bits.
pub(super) const MAX_BUFFER_BYTES: u64 = u32::MAX as u64;

/// A size in bytes.
pub(super) fn size(v: &str) -> Result<u64, String> {
    let n = v.parse::<u64>().map_err(|_| format!("`{v}` is not a buffer size in bytes"))?;
    if n > MAX_BUFFER_BYTES {
        return Err(format!("a buffer is at most {MAX_BUFFER_BYTES} bytes"));
    }
    Ok(n)
}

/// The buffer's size and contents from `content` (after `BYTES:`, if
/// given).
fn contents(content: &str, bytes: Option<u64>, e: Element, type_name: &str) -> Result<(u64, BufferContents), String> {
    let esize = e.size() as u64;
    let whole = |bytes: Option<u64>, form: &str| -> Result<u64, String> {
        let b = bytes.ok_or_else(|| format!("{form} needs the buffer's size: BYTES:{form}"))?;
        if b % esize != 0 {
            return Err(format!("{b} bytes is not a whole number of {type_name} elements ({esize} bytes each)"));
        }
        Ok(b)
    };
    if let Some(path) = content.strip_prefix('@') {
        let data = std::fs::read(path).map_err(|err| format!("cannot read `{path}`: {err}"))?;
        let total = bytes.unwrap_or(data.len() as u64);
        if data.len() as u64 > total {
            return Err(format!("`{path}` holds {} bytes, more than the buffer's {total}", data.len()));
        }
        let fixed = if data.is_empty() { Vec::new() } else { vec![(0, data)] };
        return Ok((total, BufferContents { fixed, range: None }));
    }
    if let Some(v) = content.strip_prefix("fill:") {
        let total = whole(bytes, "fill:V")?;
        let one = element_bytes(v, e, type_name)?;
        let run: Vec<u8> = one.iter().copied().cycle().take(total as usize).collect();
        let fixed = if run.is_empty() { Vec::new() } else { vec![(0, run)] };
        return Ok((total, BufferContents { fixed, range: None }));
    }
    if let Some(bounds) = content.strip_prefix("range:") {
        let total = whole(bytes, "range:A:B")?;
        let (a, b) = bounds.split_once(':').ok_or_else(|| format!("range takes two bounds, range:A:B, not `range:{bounds}`"))?;
        let intervals = range_intervals(a, b, e, type_name)?;
        return Ok((total, BufferContents { fixed: Vec::new(), range: Some(ElementRange { size: e.size(), intervals }) }));
    }
    if let Some(list) = content.strip_prefix("values:") {
        let mut fixed: Vec<(u64, Vec<u8>)> = Vec::new();
        let items: Vec<&str> = list.split(',').map(str::trim).collect();
        for (k, item) in items.iter().enumerate() {
            if *item == "sym" {
                continue;
            }
            let at = k as u64 * esize;
            let b = element_bytes(item, e, type_name)?;
            // Adjacent elements make one run.
            match fixed.last_mut() {
                Some((off, run)) if *off + run.len() as u64 == at => run.extend(b),
                _ => fixed.push((at, b)),
            }
        }
        let listed = items.len() as u64 * esize;
        let total = bytes.unwrap_or(listed);
        if listed > total {
            return Err(format!("{} {type_name} elements take {listed} bytes, more than the buffer's {total}", items.len()));
        }
        return Ok((total, BufferContents { fixed, range: None }));
    }
    Err(format!("`{content}` is none of @FILE, fill:V, range:A:B, values:E,E,...; see symcross race --help"))
}

/// The bytes of one element holding `v`.
fn element_bytes(v: &str, e: Element, type_name: &str) -> Result<Vec<u8>, String> {
    let bits = element_bits(v, e, type_name)?;
    Ok(bits.to_le_bytes()[..e.size() as usize].to_vec())
}

/// The bits of one element holding `v` (the low `size` bytes).
fn element_bits(v: &str, e: Element, type_name: &str) -> Result<u128, String> {
    let bad = || format!("`{v}` is not a {type_name} value");
    match e {
        Element::Half => Err("half elements cannot be given values: give their bytes in a file (@FILE)".into()),
        Element::Float { bytes: 4 } => v.parse::<f32>().map(|x| x.to_bits() as u128).map_err(|_| bad()),
        Element::Float { .. } => v.parse::<f64>().map(|x| x.to_bits() as u128).map_err(|_| bad()),
        Element::Int { bytes, signed } => {
            let x = int_value(v).ok_or_else(bad)?;
            let w = bytes * 8;
            let (lo, hi) = if signed { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) } else { (0, (1i128 << w) - 1) };
            // Hexadecimal gives the bits, so 0xff is a char's -1.
            let hex_bits = v.starts_with("0x") && x >= 0 && x < (1i128 << w);
            if !(lo..=hi).contains(&x) && !hex_bits {
                return Err(format!("`{v}` is outside {type_name}'s range [{lo}, {hi}]"));
            }
            Ok(x as u128 & ((1u128 << w) - 1))
        }
    }
}

fn int_value(v: &str) -> Option<i128> {
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v),
    };
    let x = match digits.strip_prefix("0x") {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    Some(if neg { -x } else { x })
}

/// The element bit intervals of `A <= x <= B`.
fn range_intervals(a: &str, b: &str, e: Element, type_name: &str) -> Result<Vec<(u128, u128)>, String> {
    match e {
        Element::Half => Err("half elements cannot be given a range: give their bytes in a file (@FILE)".into()),
        Element::Int { bytes, signed } => {
            let w = bytes * 8;
            let (lo, hi) = (element_bits(a, e, type_name)?, element_bits(b, e, type_name)?);
            let sign = 1u128 << (w - 1);
            let max = (1u128 << w) - 1;
            let as_signed = |x: u128| if x & sign != 0 { x as i128 - (1i128 << w) } else { x as i128 };
            let ordered = if signed { as_signed(lo) <= as_signed(hi) } else { lo <= hi };
            if !ordered {
                return Err(format!("range:{a}:{b} is empty ({a} > {b})"));
            }
            // A signed range across zero is two unsigned ones.
            Ok(if signed && lo & sign != 0 && hi & sign == 0 { vec![(lo, max), (0, hi)] } else { vec![(lo, hi)] })
        }
        Element::Float { bytes } => {
            let parse = |v: &str| v.parse::<f64>().ok().filter(|x| !x.is_nan()).ok_or_else(|| format!("`{v}` is not a {type_name} bound"));
            let (lo, hi) = (parse(a)?, parse(b)?);
            if lo > hi {
                return Err(format!("range:{a}:{b} is empty ({a} > {b})"));
            }
            let bits = |x: f64| if bytes == 4 { (x as f32).to_bits() as u128 } else { x.to_bits() as u128 };
            if bytes == 4 && ((lo as f32) as f64 != lo || (hi as f32) as f64 != hi) {
                return Err(format!("range:{a}:{b}: the bounds must be float values (exactly representable)"));
            }
            let sign = 1u128 << (bytes * 8 - 1);
            let mut out = Vec::new();
            // Negative values and -0: their bits grow with the magnitude.
            if lo <= 0.0 {
                let near = if hi >= 0.0 { sign } else { bits(hi) };
                let far = if lo == 0.0 { sign } else { bits(lo) };
                out.push((near, far));
            }
            // Positive values and +0.
            if hi >= 0.0 {
                let near = if lo > 0.0 { bits(lo) } else { 0 };
                let far = if hi == 0.0 { 0 } else { bits(hi) };
                out.push((near, far));
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(spec: &str, cl_type: &str) -> Result<StandaloneArg, String> {
        pointer_arg(crate::ir::GLOBAL_SPACE, Some(cl_type), spec)
    }

    fn fixed(arg: &StandaloneArg) -> (u64, Vec<(u64, Vec<u8>)>) {
        match arg {
            StandaloneArg::Buffer { bytes, contents, .. } => (*bytes, contents.fixed.clone()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sizes_access_flags_and_null() {
        assert_eq!(
            buffer("64", "float*").unwrap(),
            StandaloneArg::Buffer { bytes: 64, space: 1, contents: BufferContents::default(), access: HostAccess::ReadWrite }
        );
        assert_eq!(
            buffer("4096:wo", "float*").unwrap(),
            StandaloneArg::Buffer { bytes: 4096, space: 1, contents: BufferContents::default(), access: HostAccess::WriteOnly }
        );
        assert_eq!(buffer("ro", "int*").unwrap(), StandaloneArg::Unsized { space: 1, access: HostAccess::ReadOnly });
        assert_eq!(buffer("null", "int*").unwrap(), StandaloneArg::Fixed { width: 64, bits: 0 });
        assert!(pointer_arg(LOCAL_SPACE, Some("float*"), "null").is_err());
        assert!(pointer_arg(LOCAL_SPACE, Some("float*"), "64:ro").is_err());
        assert!(pointer_arg(LOCAL_SPACE, Some("float*"), "64:fill:0").is_err());
        assert!(pointer_arg(CONSTANT_SPACE, Some("float*"), "64:wo").is_err());
        assert!(buffer("-1", "int*").is_err());
        assert!(buffer("64:xx", "int*").unwrap_err().contains("none of"));
    }

    #[test]
    fn fills_and_values_by_element_type() {
        assert_eq!(fixed(&buffer("8:fill:-2", "short*").unwrap()), (8, vec![(0, vec![0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff])]));
        assert_eq!(fixed(&buffer("8:fill:1.0", "float __attribute__((ext_vector_type(2)))*").unwrap()).1[0].1[..4], [0, 0, 0x80, 0x3f]);
        assert_eq!(fixed(&buffer("values:1,sym,3", "uint*").unwrap()), (12, vec![(0, vec![1, 0, 0, 0]), (8, vec![3, 0, 0, 0])]));
        assert_eq!(fixed(&buffer("16:values:1,2", "uchar*").unwrap()), (16, vec![(0, vec![1, 2])]));
        // A struct's elements are bytes.
        assert_eq!(fixed(&buffer("3:fill:7", "S*").unwrap()), (3, vec![(0, vec![7, 7, 7])]));
        assert!(buffer("fill:0", "int*").unwrap_err().contains("needs the buffer's size"));
        assert!(buffer("6:fill:0", "int*").unwrap_err().contains("whole number"));
        assert!(buffer("8:fill:300", "uchar*").unwrap_err().contains("outside"));
        assert!(buffer("8:fill:-1", "uint*").unwrap_err().contains("outside"));
        assert!(buffer("8:fill:x", "float*").unwrap_err().contains("not a float value"));
        assert!(buffer("8:fill:0", "half*").unwrap_err().contains("file"));
        assert!(buffer("4:values:1,2", "int*").unwrap_err().contains("more than"));
    }

    #[test]
    fn ranges_become_bit_intervals() {
        let range = |spec: &str, t: &str| match buffer(spec, t).unwrap() {
            StandaloneArg::Buffer { contents, .. } => contents.range.unwrap().intervals,
            other => panic!("{other:?}"),
        };
        assert_eq!(range("8:range:2:9", "uint*"), vec![(2, 9)]);
        assert_eq!(range("8:range:-1:1", "int*"), vec![(0xffff_ffff, 0xffff_ffff), (0, 1)]);
        assert_eq!(range("8:range:-3:-2", "char*"), vec![(0xfd, 0xfe)]);
        assert_eq!(range("8:range:0:1", "float*"), vec![(0x8000_0000, 0x8000_0000), (0, 0x3f80_0000)]);
        assert_eq!(range("8:range:-2:-1", "float*"), vec![(0xbf80_0000, 0xc000_0000)]);
        assert_eq!(range("8:range:0.5:inf", "float*"), vec![(0x3f00_0000, 0x7f80_0000)]);
        assert_eq!(range("16:range:-1:1", "double*"), vec![(1 << 63, 0xbff0_0000_0000_0000), (0, 0x3ff0_0000_0000_0000)]);
        assert!(buffer("8:range:2:1", "int*").unwrap_err().contains("empty"));
        assert!(buffer("8:range:0:nan", "float*").is_err());
        assert!(buffer("8:range:0:0.1", "float*").unwrap_err().contains("exactly"));
        assert!(buffer("8:range:1", "int*").unwrap_err().contains("two bounds"));
    }

    #[test]
    fn a_file_gives_the_first_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.bin");
        std::fs::write(&path, [1u8, 2, 3]).unwrap();
        let p = path.display();
        assert_eq!(fixed(&buffer(&format!("@{p}"), "uchar*").unwrap()), (3, vec![(0, vec![1, 2, 3])]));
        assert_eq!(fixed(&buffer(&format!("8:@{p}:ro"), "uchar*").unwrap()), (8, vec![(0, vec![1, 2, 3])]));
        assert!(buffer(&format!("2:@{p}"), "uchar*").unwrap_err().contains("more than"));
        assert!(buffer("@/no/such/file", "uchar*").unwrap_err().contains("cannot read"));
    }
}
