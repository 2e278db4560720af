//! A witness input decoded by the C type of the variable it fills, as
//! debug info declares it (`ir::debug_types`): `uint8_t` unsigned under
//! its own name, struct fields by name, `tile[15][0]` of a two-dimensional
//! array, a kernel's `int height` as an int. The two symbolic work-items of
//! a race in pair mode print as their ids, `local (5,0,0), group (1,0,0)`.
//!
//! An input is named by the string given to `make_symbolic` (or by the
//! kernel parameter), which is usually the variable's name: it is decoded
//! by the variables of that name only when their types agree with each
//! other, fill the input exactly, and agree with the LLVM type the engine
//! saw, else it keeps the plain decoding. Nothing here changes a verdict:
//! the hex bytes of the witness stay in the report.

use super::finding::DecodedInput;
use crate::expr::{ElementType, FpFormat};
use crate::ir::debug_types::{CType, DebugTypes, Encoding};

/// Leaves decoded per input at most (larger inputs keep the plain form).
const MAX_LEAVES: usize = 4096;

/// The input `name` holding `bytes` decoded by its debug-info type, if
/// one fits; `llvm` is the element type the engine saw, if any.
pub fn decode_input(types: &DebugTypes, name: &str, bytes: &[u8], llvm: Option<ElementType>) -> Option<DecodedInput> {
    let mut fitting: Vec<CType> = types.of(name).filter_map(|t| fit(t, bytes.len() as u64)).collect();
    fitting.sort_by_key(|t| t.c_name());
    fitting.dedup_by(|a, b| a.c_name() == b.c_name());
    let ty = match fitting.as_slice() {
        [one] => one.clone(),
        [] if is_work_item(name, bytes.len()) => return Some(work_item(bytes)),
        _ => return None,
    };
    if !agrees_with_llvm(&ty, llvm) {
        return None;
    }
    let mut leaves = Vec::new();
    collect(&ty, bytes, 0, String::new(), &mut leaves)?;
    if leaves.is_empty() || leaves.len() > MAX_LEAVES {
        return None;
    }
    let plain = matches!(&ty, CType::Array { dims, element } if dims.len() == 1 && is_scalar(element)) || is_scalar(&ty);
    let (labels, elements): (Vec<String>, Vec<String>) = leaves.into_iter().unzip();
    Some(DecodedInput { type_name: ty.c_name(), elements, labels: (!plain).then_some(labels) })
}

/// Where byte `offset` of the object `object` (of `size` bytes) sits, by
/// its variable's debug-info type, when that says more than an element
/// number: `tile[15][0]` of a two-dimensional array, `p.rgb[2]` of a
/// struct. The object may be named `kernel.tile` (a kernel's `__local`
/// array); None for a one-dimensional array of scalars or an unknown type.
pub fn element_label(types: &DebugTypes, object: &str, size: u64, offset: u64) -> Option<String> {
    let name = object.rsplit('.').next().unwrap_or(object);
    let mut fitting: Vec<CType> = types.of(name).filter_map(|t| fit(t, size)).collect();
    fitting.sort_by_key(|t| t.c_name());
    fitting.dedup_by(|a, b| a.c_name() == b.c_name());
    let [ty] = fitting.as_slice() else { return None };
    if is_scalar(ty) || matches!(ty, CType::Array { dims, element } if dims.len() == 1 && is_scalar(element)) {
        return None;
    }
    let mut label = name.to_string();
    let (mut t, mut off) = (ty.clone(), offset);
    // Only the object's own outermost index may run past its end (an
    // access past the object, `tile[16][0]`, `p[2].v[1]`); inside it, an
    // offset past a member array belongs to no element of it.
    let mut outermost = true;
    loop {
        t = match t {
            CType::Typedef { base, .. } => *base,
            CType::Array { element, dims } => {
                let each = element.size();
                let flat = off / each.max(1);
                if !outermost && flat >= dims.iter().product::<u64>() {
                    return None;
                }
                let mut rest = flat;
                let mut index = vec![0u64; dims.len()];
                for (k, d) in dims.iter().enumerate().rev() {
                    index[k] = if k == 0 { rest } else { rest % d };
                    rest /= d;
                }
                outermost = false;
                label.extend(index.iter().map(|x| format!("[{x}]")));
                off -= flat * each;
                *element
            }
            CType::Record { members, .. } => {
                let (field, at, ty) =
                    members.into_iter().rev().find(|(_, at, ty)| u64::from(*at) <= off && off < u64::from(*at) + ty.size())?;
                label.push_str(&format!(".{field}"));
                outermost = false;
                off -= u64::from(at);
                ty
            }
            CType::Basic { .. } | CType::Pointer { .. } => return Some(label),
        };
    }
}

/// Whether byte `offset` of the object `object` (of `size` bytes) lies in
/// a member of its variable's debug-info type (true) or in a struct's
/// padding (false); None when the type is unknown or ambiguous.
pub fn holds_member(types: &DebugTypes, object: &str, size: u64, offset: u64) -> Option<bool> {
    let name = object.rsplit('.').next().unwrap_or(object);
    let mut fitting: Vec<CType> = types.of(name).filter_map(|t| fit(t, size)).collect();
    fitting.sort_by_key(|t| t.c_name());
    fitting.dedup_by(|a, b| a.c_name() == b.c_name());
    let [ty] = fitting.as_slice() else { return None };
    let (mut t, mut off) = (ty.clone(), offset);
    loop {
        t = match t {
            CType::Typedef { base, .. } => *base,
            CType::Array { element, dims } => {
                let each = element.size().max(1);
                if off / each >= dims.iter().product::<u64>() {
                    return None;
                }
                off %= each;
                *element
            }
            CType::Record { members, .. } => {
                let Some((_, at, ty)) =
                    members.into_iter().rev().find(|(_, at, ty)| u64::from(*at) <= off && off < u64::from(*at) + ty.size())
                else {
                    return Some(false);
                };
                off -= u64::from(at);
                ty
            }
            CType::Basic { .. } | CType::Pointer { .. } => return Some(true),
        };
    }
}

/// The type an input of `size` bytes has when it is a variable of type
/// `t`: `t` itself when the sizes match; for a pointer (a kernel's buffer
/// parameter), an array of what it points to.
fn fit(t: &CType, size: u64) -> Option<CType> {
    if t.size() == size && size > 0 {
        return Some(t.clone());
    }
    let pointee = match t {
        CType::Pointer { pointee: Some(p) } => p,
        CType::Typedef { base, .. } => return fit(base, size),
        _ => return None,
    };
    let each = pointee.size();
    (each > 0 && size.is_multiple_of(each) && size > 0).then(|| CType::Array { element: pointee.clone(), dims: vec![size / each] })
}

fn is_scalar(t: &CType) -> bool {
    match t {
        CType::Basic { .. } | CType::Pointer { .. } => true,
        CType::Typedef { base, .. } => is_scalar(base),
        _ => false,
    }
}

/// The first basic type of `t` (an array's element, through typedefs).
fn leaf_basic(t: &CType) -> Option<(u32, Encoding)> {
    match t {
        CType::Basic { bytes, encoding, .. } => Some((*bytes, *encoding)),
        CType::Typedef { base, .. } => leaf_basic(base),
        CType::Array { element, .. } => leaf_basic(element),
        _ => None,
    }
}

/// Debug info and the engine agree on what an array of scalars holds: a
/// float is a float of the same size, an integer an integer.
fn agrees_with_llvm(t: &CType, llvm: Option<ElementType>) -> bool {
    let (Some(e), Some((bytes, encoding))) = (llvm, leaf_basic(t)) else { return true };
    match e {
        ElementType::Float(_) => encoding == Encoding::Float && bytes == e.size(),
        ElementType::Int(n) => encoding != Encoding::Float && bytes == n,
    }
}

/// Appends (label, value) of every scalar in `t` at `offset` of `bytes`.
fn collect(t: &CType, bytes: &[u8], offset: u64, label: String, out: &mut Vec<(String, String)>) -> Option<()> {
    if out.len() > MAX_LEAVES {
        return None;
    }
    match t {
        CType::Typedef { base, .. } => collect(base, bytes, offset, label, out),
        CType::Basic { bytes: n, encoding, name } => {
            let raw = bytes.get(offset as usize..(offset + u64::from(*n)) as usize)?;
            out.push((label, scalar(raw, *encoding, name)));
            Some(())
        }
        CType::Pointer { .. } => {
            let raw = bytes.get(offset as usize..offset as usize + 8)?;
            let v = raw.iter().rev().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
            out.push((label, format!("0x{v:x}")));
            Some(())
        }
        CType::Array { element, dims } => {
            let each = element.size();
            let count: u64 = dims.iter().product();
            for i in 0..count {
                let mut rest = i;
                let mut index = vec![0u64; dims.len()];
                for (k, d) in dims.iter().enumerate().rev() {
                    index[k] = rest % d;
                    rest /= d;
                }
                let at: String = index.iter().map(|x| format!("[{x}]")).collect();
                collect(element, bytes, offset + i * each, format!("{label}{at}"), out)?;
            }
            Some(())
        }
        CType::Record { members, .. } => {
            for (name, at, ty) in members {
                collect(ty, bytes, offset + u64::from(*at), format!("{label}.{name}"), out)?;
            }
            Some(())
        }
    }
}

/// One scalar: an integer in its own signedness (a printable character
/// beside a `char`), a float as the report prints floats, a `_Bool`.
fn scalar(raw: &[u8], encoding: Encoding, name: &str) -> String {
    let mut bits = 0u128;
    for (k, b) in raw.iter().enumerate().take(16) {
        bits |= u128::from(*b) << (8 * k);
    }
    let width = raw.len() as u32 * 8;
    match encoding {
        Encoding::Float => {
            let format = match raw.len() {
                2 => FpFormat::Half,
                4 => FpFormat::Single,
                8 => FpFormat::Double,
                _ => return format!("0x{bits:0w$x}", w = raw.len() * 2),
            };
            ElementType::Float(format).show_bits(bits)
        }
        Encoding::Bool => match bits {
            0 => "false".into(),
            1 => "true".into(),
            v => format!("{v} (not 0 or 1)"),
        },
        Encoding::Unsigned => with_char(bits, bits, name),
        Encoding::Signed => {
            let signed = if width < 128 && bits >> (width - 1) & 1 == 1 { bits as i128 - (1i128 << width) } else { bits as i128 };
            with_char(signed, bits, name)
        }
    }
}

fn with_char(value: impl std::fmt::Display, bits: u128, name: &str) -> String {
    if name.contains("char") && (0x20..0x7f).contains(&bits) {
        format!("{value} ('{}')", bits as u8 as char)
    } else {
        format!("{value}")
    }
}

/// The symbolic work-items of a race in pair mode: `work_item_1` and
/// `work_item_2`, six 64-bit words (local id x, y, z, then group id).
fn is_work_item(name: &str, size: usize) -> bool {
    size == 48 && name.strip_prefix("work_item_").is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

fn work_item(bytes: &[u8]) -> DecodedInput {
    let word = |w: usize| bytes[w * 8..w * 8 + 8].iter().rev().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
    let local = format!("({},{},{})", word(0), word(1), word(2));
    let group = format!("({},{},{})", word(3), word(4), word(5));
    DecodedInput { type_name: "work-item".into(), elements: vec![local, group], labels: Some(vec![".local_id".into(), ".group_id".into()]) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::debug_types::DebugVariable;

    fn u8_type() -> CType {
        CType::Typedef {
            name: "uint8_t".into(),
            base: Box::new(CType::Basic { name: "unsigned char".into(), bytes: 1, encoding: Encoding::Unsigned }),
        }
    }

    fn types(vars: Vec<(&str, CType)>) -> DebugTypes {
        DebugTypes { variables: vars.into_iter().map(|(n, ty)| DebugVariable { name: n.into(), ty }).collect(), ..Default::default() }
    }

    #[test]
    fn uint8_t_prints_unsigned_under_its_name() {
        let t = types(vec![("a", CType::Array { element: Box::new(u8_type()), dims: vec![2] })]);
        let d = decode_input(&t, "a", &[0xff, 7], Some(ElementType::Int(1))).unwrap();
        assert_eq!(d.type_name, "uint8_t[2]");
        assert_eq!(d.elements, ["255", "7"]);
        assert!(d.labels.is_none());
    }

    #[test]
    fn struct_padding_holds_no_member() {
        let float = CType::Basic { name: "float".into(), bytes: 4, encoding: Encoding::Float };
        let pixel =
            CType::Record { name: "struct pixel".into(), bytes: 8, members: vec![("r".into(), 0, u8_type()), ("f".into(), 4, float)] };
        let t = types(vec![("px", CType::Array { element: Box::new(pixel), dims: vec![2] }), ("k", u8_type())]);
        let at = |off| holds_member(&t, "kernel.px", 16, off);
        assert_eq!(
            [at(0), at(1), at(3), at(4), at(9), at(12)],
            [Some(true), Some(false), Some(false), Some(true), Some(false), Some(true)]
        );
        assert_eq!(holds_member(&t, "k", 1, 0), Some(true));
        assert_eq!(holds_member(&t, "unknown", 4, 0), None);
    }

    #[test]
    fn fields_and_two_dimensional_indices_are_named() {
        let float = CType::Basic { name: "float".into(), bytes: 4, encoding: Encoding::Float };
        let tile = CType::Array { element: Box::new(float.clone()), dims: vec![2, 3] };
        let pixel =
            CType::Record { name: "struct pixel".into(), bytes: 8, members: vec![("r".into(), 0, u8_type()), ("f".into(), 4, float)] };
        let t = types(vec![("tile", tile), ("p", pixel)]);
        let d = decode_input(&t, "tile", &[0; 24], None).unwrap();
        assert_eq!(d.labels.unwrap()[3], "[1][0]");
        let mut bytes = vec![200, 0, 0, 0];
        bytes.extend(1.5f32.to_le_bytes());
        let d = decode_input(&t, "p", &bytes, None).unwrap();
        assert_eq!(d.type_name, "struct pixel");
        assert_eq!(d.labels.unwrap(), [".r", ".f"]);
        assert_eq!(d.elements[0], "200");
        assert!(d.elements[1].starts_with("1.5f"), "{:?}", d.elements);
    }

    #[test]
    fn a_byte_offset_is_named_by_its_indices() {
        let float = CType::Basic { name: "float".into(), bytes: 4, encoding: Encoding::Float };
        let t = types(vec![("tile", CType::Array { element: Box::new(float), dims: vec![16, 17] })]);
        assert_eq!(element_label(&t, "k.tile", 16 * 17 * 4, 255 * 4).as_deref(), Some("tile[15][0]"));
        assert_eq!(element_label(&t, "tile", 8, 0), None, "a size that does not fit");
    }

    #[test]
    fn an_offset_past_the_object_is_named_by_an_index_past_its_end() {
        let float = CType::Basic { name: "float".into(), bytes: 4, encoding: Encoding::Float };
        let point = CType::Record {
            name: "struct P".into(),
            bytes: 16,
            members: vec![
                ("id".into(), 0, CType::Basic { name: "int".into(), bytes: 4, encoding: Encoding::Signed }),
                ("v".into(), 4, CType::Array { element: Box::new(float.clone()), dims: vec![3] }),
            ],
        };
        let t = types(vec![
            ("tile", CType::Array { element: Box::new(float), dims: vec![16, 17] }),
            ("p", CType::Pointer { pointee: Some(Box::new(point)) }),
        ]);
        assert_eq!(element_label(&t, "tile", 16 * 17 * 4, 16 * 17 * 4).as_deref(), Some("tile[16][0]"));
        // A buffer of two `struct P` written at p[2].v[1].
        assert_eq!(element_label(&t, "p", 32, 40).as_deref(), Some("p[2].v[1]"));
        assert_eq!(element_label(&t, "p", 32, 20).as_deref(), Some("p[1].v[0]"));
    }

    #[test]
    fn disagreeing_or_ill_fitting_types_keep_the_plain_form() {
        let int = CType::Basic { name: "int".into(), bytes: 4, encoding: Encoding::Signed };
        let t = types(vec![("x", int.clone()), ("y", int)]);
        assert!(decode_input(&t, "x", &[0; 8], None).is_none(), "8 bytes are no int");
        assert!(decode_input(&t, "x", &[0; 4], Some(ElementType::Float(FpFormat::Single))).is_none());
        assert_eq!(decode_input(&t, "x", &[0xfe, 0xff, 0xff, 0xff], None).unwrap().elements, ["-2"]);
        let w = decode_input(
            &t,
            "work_item_1",
            &[
                5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0,
            ],
            None,
        )
        .unwrap();
        assert_eq!(w.elements, ["(5,0,0)", "(1,0,0)"]);
    }
}
