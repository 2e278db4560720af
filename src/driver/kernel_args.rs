//! What `--arg NAME=VALUE` gives a kernel run alone, read into the
//! argument the executor builds (`StandaloneArg`): a struct passed by value
//! cannot be given a value, a pointer can be given its buffer (size,
//! contents, the host's access flags, or NULL: buffer_spec.rs), an image
//! its size in pixels (`W`, `WxH`, `WxHxD`), a scalar (a sampler's flags
//! too) its value.

use crate::driver::DriverError;
use crate::exec::StandaloneArg;
use crate::ir::debug_types::{CType, DebugTypes, Encoding};
use crate::ir::{Param, Type};

/// The argument for parameter `p`, given `given` by `--arg` or not.
pub(super) fn standalone_arg(p: &Param, given: Option<&String>) -> Result<StandaloneArg, DriverError> {
    if let Some((size, align)) = p.byval {
        // A struct passed by value: symbolic bytes, copied by each work-item.
        if given.is_some() {
            return Err(DriverError::BadArgument { given: p.name.clone(), expected: "a struct argument cannot be given a value".into() });
        }
        return Ok(StandaloneArg::SymbolicByval { size, align, pointers: p.byval_pointers.clone() });
    }
    if let Some(dims) = p.image_dims {
        let size = given.map(|v| image_size(&p.name, v, dims)).transpose()?;
        return Ok(StandaloneArg::Image { dims, size });
    }
    match &p.ty {
        Type::Ptr { addr_space } => match given {
            None => Ok(StandaloneArg::Unsized { space: *addr_space, access: crate::exec::HostAccess::ReadWrite }),
            Some(v) => super::buffer_spec::pointer_arg(*addr_space, p.cl_type.as_deref(), v).map_err(|why| bad_value(&p.name, v, why)),
        },
        t => {
            let widths = crate::exec::leaf_widths(t);
            match given {
                Some(v) => {
                    let width = widths.first().copied().unwrap_or(32);
                    let type_name = p.cl_type.as_deref().map_or_else(|| format!("{t:?}"), opencl_type_name);
                    let why = || {
                        bad_value(
                            &p.name,
                            v,
                            format!(
                                "not a value of type {type_name} (integer and float scalars can be given values, and vectors \
                                 their components as A,B,...: one for each, or one for all)"
                            ),
                        )
                    };
                    if let Type::Vector { elem, len } = t {
                        let lanes = vector_lanes(v, elem, *len).ok_or_else(why)?;
                        return Ok(StandaloneArg::FixedLanes { width, lanes });
                    }
                    let bits = parse_scalar(v, t).ok_or_else(why)?;
                    Ok(StandaloneArg::Fixed { width, bits })
                }
                None => Ok(StandaloneArg::Symbolic { widths }),
            }
        }
    }
}

/// `p`, parameter `position` (from 1) of the kernel whose symbol is
/// `kernel`, with the element of its pointer type spelled as OpenCL's
/// `kernel_arg_base_type` spells it (`int*`, `uchar*`), read from the
/// debug information of that parameter when it is a pointer to an
/// arithmetic type; `p` as it is otherwise (its elements stay bytes).
/// Where the debug information records no parameters, the variables named
/// as `p` are asked instead, when they all agree.
pub(super) fn with_debug_element(p: &Param, kernel: &str, position: u32, types: &DebugTypes) -> Param {
    let spelling = |t: &CType| match t {
        CType::Pointer { pointee: Some(e) } => opencl_scalar_name(e),
        _ => None,
    };
    let element = match types.parameter(kernel, position) {
        Some(t) => spelling(t),
        None => {
            let mut spellings = types.of(&p.name).map(spelling);
            let first = spellings.next().flatten();
            first.filter(|_| spellings.all(|s| s == first))
        }
    };
    let mut out = p.clone();
    if element.is_some() {
        out.cl_type = element.map(|s| format!("{s}*"));
    }
    out
}

/// OpenCL's name of the arithmetic C type `t` (through typedefs): `int`,
/// `uint`, `uchar`, `float`...; None for any other type.
fn opencl_scalar_name(t: &CType) -> Option<&'static str> {
    match t {
        CType::Typedef { base, .. } => opencl_scalar_name(base),
        CType::Basic { bytes, encoding, .. } => Some(match (encoding, bytes) {
            (Encoding::Signed, 1) => "char",
            (Encoding::Unsigned, 1) => "uchar",
            (Encoding::Signed, 2) => "short",
            (Encoding::Unsigned, 2) => "ushort",
            (Encoding::Signed, 4) => "int",
            (Encoding::Unsigned, 4) => "uint",
            (Encoding::Signed, 8) => "long",
            (Encoding::Unsigned, 8) => "ulong",
            (Encoding::Float, 2) => "half",
            (Encoding::Float, 4) => "float",
            (Encoding::Float, 8) => "double",
            _ => return None,
        }),
        _ => None,
    }
}

/// `--arg NAME=VALUE` gave what the parameter cannot take.
fn bad_value(name: &str, value: &str, expected: String) -> DriverError {
    DriverError::BadArgument { given: format!("{name}={value}"), expected }
}

use super::buffer_spec::MAX_BUFFER_BYTES;

/// `--arg NAME=W`, `WxH` or `WxHxD` for an image of `dims` dimensions:
/// each at least 1, and all the pixels (16 bytes each) a buffer can hold.
fn image_size(name: &str, v: &str, dims: u8) -> Result<[u64; 3], DriverError> {
    let form = ["W", "WxH", "WxHxD"][dims as usize - 1];
    let bad = || bad_value(name, v, format!("an image{dims}d_t is given its size as {form} (pixels, each at least 1)"));
    let parts: Vec<u64> = v.split('x').map(|d| d.parse::<u64>().ok().filter(|&d| d >= 1)).collect::<Option<_>>().ok_or_else(bad)?;
    if parts.len() != dims as usize {
        return Err(bad());
    }
    let mut size = [1; 3];
    size[..parts.len()].copy_from_slice(&parts);
    let bytes = size.iter().try_fold(crate::exec::PIXEL_BYTES, |acc, d| acc.checked_mul(*d));
    if bytes.is_none_or(|b| b > MAX_BUFFER_BYTES) {
        return Err(bad_value(name, v, format!("an image is at most {MAX_BUFFER_BYTES} bytes of 16-byte pixels")));
    }
    Ok(size)
}

/// A type as OpenCL C spells it: clang's metadata names a vector type
/// `float __attribute__((ext_vector_type(4)))`, which is a `float4`.
fn opencl_type_name(metadata: &str) -> String {
    match metadata.strip_suffix(")))").and_then(|t| t.split_once(" __attribute__((ext_vector_type(")) {
        Some((elem, n)) => format!("{elem}{n}"),
        None => metadata.to_string(),
    }
}

/// The components of a vector value `A,B,...` of `len` elements: one
/// value for each, or one for all, as OpenCL C's `(float4)(v)`.
fn vector_lanes(v: &str, elem: &Type, len: u32) -> Option<Vec<u128>> {
    let parts: Vec<u128> = v.split(',').map(|x| parse_scalar(x.trim(), elem)).collect::<Option<_>>()?;
    match parts.len() {
        1 => Some(vec![parts[0]; len as usize]),
        n if n == len as usize => Some(parts),
        _ => None,
    }
}

fn parse_scalar(v: &str, t: &Type) -> Option<u128> {
    match t {
        Type::Float(crate::expr::FpFormat::Single) => v.parse::<f32>().ok().map(|x| x.to_bits() as u128),
        Type::Float(crate::expr::FpFormat::Double) => v.parse::<f64>().ok().map(|x| x.to_bits() as u128),
        Type::Int(w) => {
            let x: i128 = if let Some(h) = v.strip_prefix("0x") { i128::from_str_radix(h, 16).ok()? } else { v.parse().ok()? };
            Some(x as u128 & crate::expr::mask(*w))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, ty: Type) -> Param {
        Param {
            name: name.to_string(),
            ty,
            reg: crate::ir::RegId(0),
            byval: None,
            byval_pointers: Vec::new(),
            image_dims: None,
            cl_type: None,
        }
    }

    #[test]
    fn pointer_given_a_size_is_a_buffer_of_that_size() {
        let p = param("buf", Type::Ptr { addr_space: 1 });
        let rw = crate::exec::HostAccess::ReadWrite;
        let contents = crate::exec::BufferContents::default();
        assert_eq!(
            standalone_arg(&p, Some(&"64".to_string())).unwrap(),
            StandaloneArg::Buffer { bytes: 64, space: 1, contents, access: rw }
        );
        assert_eq!(standalone_arg(&p, None).unwrap(), StandaloneArg::Unsized { space: 1, access: rw });
        assert!(standalone_arg(&p, Some(&"-1".to_string())).is_err());
    }

    #[test]
    fn vector_types_are_named_as_opencl_c_spells_them() {
        assert_eq!(opencl_type_name("float __attribute__((ext_vector_type(4)))"), "float4");
        assert_eq!(opencl_type_name("uchar"), "uchar");
    }

    #[test]
    fn vector_given_its_components_is_fixed_lane_by_lane() {
        let p = param("k", Type::Vector { elem: Box::new(Type::Float(crate::expr::FpFormat::Single)), len: 4 });
        let bits = |x: f32| x.to_bits() as u128;
        assert!(standalone_arg(&p, Some(&"1,2.5,-3,0x1".to_string())).is_err(), "a float component is a decimal number");
        assert_eq!(
            standalone_arg(&p, Some(&"1,2.5,-3,4".to_string())).unwrap(),
            StandaloneArg::FixedLanes { width: 32, lanes: vec![bits(1.0), bits(2.5), bits(-3.0), bits(4.0)] }
        );
        assert_eq!(
            standalone_arg(&p, Some(&"0.5".to_string())).unwrap(),
            StandaloneArg::FixedLanes { width: 32, lanes: vec![bits(0.5); 4] }
        );
        assert!(standalone_arg(&p, Some(&"1,2,3".to_string())).is_err(), "three components for four lanes");
        let c = param("c", Type::Vector { elem: Box::new(Type::Int(8)), len: 3 });
        assert_eq!(
            standalone_arg(&c, Some(&"-1,2,0x7f".to_string())).unwrap(),
            StandaloneArg::FixedLanes { width: 8, lanes: vec![0xff, 2, 0x7f] }
        );
    }

    #[test]
    fn scalar_given_a_value_is_fixed_at_its_width() {
        let p = param("n", Type::Int(16));
        assert_eq!(standalone_arg(&p, Some(&"-1".to_string())).unwrap(), StandaloneArg::Fixed { width: 16, bits: 0xffff });
        assert_eq!(standalone_arg(&p, Some(&"0x10".to_string())).unwrap(), StandaloneArg::Fixed { width: 16, bits: 16 });
        assert_eq!(standalone_arg(&p, None).unwrap(), StandaloneArg::Symbolic { widths: vec![16] });
        assert!(standalone_arg(&p, Some(&"x".to_string())).is_err());
    }

    #[test]
    fn image_given_its_dimensions() {
        let p = Param { image_dims: Some(2), ..param("img", Type::Ptr { addr_space: 1 }) };
        assert_eq!(standalone_arg(&p, None).unwrap(), StandaloneArg::Image { dims: 2, size: None });
        assert_eq!(standalone_arg(&p, Some(&"16x4".to_string())).unwrap(), StandaloneArg::Image { dims: 2, size: Some([16, 4, 1]) });
        assert!(standalone_arg(&p, Some(&"16".to_string())).is_err());
        assert!(standalone_arg(&p, Some(&"0x4".to_string())).is_err());
        assert!(standalone_arg(&p, Some(&"100000x100000".to_string())).is_err());
    }

    #[test]
    fn struct_by_value_cannot_be_given_a_value() {
        let p = Param { byval: Some((12, 4)), ..param("s", Type::Ptr { addr_space: 0 }) };
        assert_eq!(standalone_arg(&p, None).unwrap(), StandaloneArg::SymbolicByval { size: 12, align: 4, pointers: Vec::new() });
        assert!(standalone_arg(&p, Some(&"1".to_string())).is_err());
    }
}
