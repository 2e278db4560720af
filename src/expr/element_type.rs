//! What the bytes of a symbolic input (or of a compared buffer) hold, when
//! the program says so: the element type of the object `make_symbolic`
//! was given (its LLVM allocated type, arrays stripped). It is only used
//! to print values people can read: a witness element by element, an input
//! byte range as `a[1]` rather than `a[4..7]`. LLVM integers carry no
//! sign, so integers print unsigned with the signed reading beside it when
//! they differ.

use super::FpFormat;

/// The type of one element of an input or buffer, for printing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// A float in this format.
    Float(FpFormat),
    /// An integer of this many bytes (1, 2, 4, 8 or 16).
    Int(u32),
}

impl ElementType {
    /// Size of one element in bytes.
    pub fn size(self) -> u32 {
        match self {
            ElementType::Float(f) => f.width() / 8,
            ElementType::Int(bytes) => bytes,
        }
    }

    /// The name shown in reports: `float`, `double`, `half`, `i32`, ...
    pub fn name(self) -> String {
        match self {
            ElementType::Float(FpFormat::Half) => "half".into(),
            ElementType::Float(FpFormat::Single) => "float".into(),
            ElementType::Float(FpFormat::Double) => "double".into(),
            ElementType::Int(bytes) => format!("i{}", bytes * 8),
        }
    }

    /// One element, little-endian `bytes` (exactly `size()` of them).
    pub fn show(self, bytes: &[u8]) -> String {
        let mut raw = 0u128;
        for (k, b) in bytes.iter().enumerate().take(16) {
            raw |= (*b as u128) << (8 * k);
        }
        self.show_bits(raw)
    }

    /// One element from its bits: a float as its shortest round-trip
    /// decimal and its bits (`1.5f (0x3fc00000)`: two different floats
    /// never print the same), an integer in decimal.
    pub fn show_bits(self, raw: u128) -> String {
        match self {
            ElementType::Float(FpFormat::Single) => {
                format!("{} (0x{:08x})", decimal(f32::from_bits(raw as u32) as f64, fmt_f32(raw as u32), "f"), raw as u32)
            }
            ElementType::Float(FpFormat::Double) => {
                let v = f64::from_bits(raw as u64);
                let text = if exponent_form(v) { format!("{v:e}") } else { format!("{v}") };
                format!("{} (0x{:016x})", decimal(v, text, ""), raw as u64)
            }
            ElementType::Float(FpFormat::Half) => {
                let v = half::f16::from_bits(raw as u16).to_f32();
                format!("{} (0x{:04x})", decimal(v as f64, format!("{v}"), "h"), raw as u16)
            }
            ElementType::Int(bytes) => {
                let bits = bytes * 8;
                let v = raw & super::mask(bits);
                let signed = super::to_signed(v, bits);
                if signed < 0 {
                    format!("{v} (0x{v:0w$x}, {signed} if signed)", w = (bytes * 2) as usize)
                } else {
                    format!("{v}")
                }
            }
        }
    }
}

/// Rust's `{}` for f32 prints the shortest decimal that reads back as the
/// same f32 (going through f64 would print 0.1f as 0.10000000149011612);
/// very large and very small magnitudes in exponent form, equally short.
fn fmt_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if exponent_form(v as f64) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn exponent_form(v: f64) -> bool {
    v.is_finite() && v != 0.0 && !(1e-5..1e16).contains(&v.abs())
}

/// `text` (a shortest round-trip decimal of `v`) with `.0` added to whole
/// numbers and the C suffix, so that `60.0f` reads as a float; NaN and
/// the infinities named.
fn decimal(v: f64, text: String, suffix: &str) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "+inf" } else { "-inf" }.into()
    } else if text.contains(['.', 'e', 'E']) {
        format!("{text}{suffix}")
    } else {
        format!("{text}.0{suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_floats_print_differently() {
        let f = ElementType::Float(FpFormat::Single);
        assert_eq!(f.show_bits(0x426ffffe), "59.999992f (0x426ffffe)");
        assert_eq!(f.show_bits(0x426fffff), "59.999996f (0x426fffff)");
        assert_eq!(f.show_bits(0x3fc00000), "1.5f (0x3fc00000)");
        assert_eq!(f.show_bits(0x80000000), "-0.0f (0x80000000)");
        assert_eq!(f.show_bits(0x3dcccccd), "0.1f (0x3dcccccd)");
        assert_eq!(f.show_bits(0x7fc00000), "NaN (0x7fc00000)");
        assert_eq!(f.show(&[0, 0, 0xc0, 0x3f]), "1.5f (0x3fc00000)");
        assert_eq!(f.show_bits(0x7f7fffff), "3.4028235e38f (0x7f7fffff)");
        assert_eq!(f.show_bits(0x00000001), "1e-45f (0x00000001)");
    }

    #[test]
    fn doubles_and_integers() {
        let d = ElementType::Float(FpFormat::Double);
        assert_eq!(d.show_bits(1.5f64.to_bits() as u128), "1.5 (0x3ff8000000000000)");
        assert_eq!(ElementType::Int(8).show_bits(40), "40");
        assert_eq!(ElementType::Int(4).show_bits(0xffff_ffff), "4294967295 (0xffffffff, -1 if signed)");
        assert_eq!(ElementType::Int(4).name(), "i32");
    }
}
