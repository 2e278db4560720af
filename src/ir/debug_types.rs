//! C types of the program's variables, from the debug information clang
//! writes into the IR (`-g`, which every build has): `DILocalVariable` and
//! `DIGlobalVariable` with their `DIBasicType`, `DIDerivedType` (typedefs,
//! qualifiers, pointers, struct members) and `DICompositeType` (arrays with
//! their `DISubrange`s, structs, unions, enums). Reports use them to show a
//! witness as the program declared it: `uint8_t` unsigned under its own
//! name, struct fields by name, `tile[15][0]` of a two-dimensional array.
//!
//! The metadata is read from the module's textual form, where every node
//! is one line `!N = [distinct] !DIKind(field: value, ...)`: the C API has
//! no accessor for a variable's type.

use std::collections::HashMap;

/// A C type, as far as printing values of it needs.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// An arithmetic type: `int`, `unsigned char`, `float`, `_Bool`...
    Basic {
        /// Its C name.
        name: String,
        /// Size in bytes.
        bytes: u32,
        /// How its bits read.
        encoding: Encoding,
    },
    /// A typedef: printed under its own name, read as its base.
    Typedef {
        /// The typedef's name (`uint8_t`).
        name: String,
        /// What it names.
        base: Box<CType>,
    },
    /// A pointer (its value is an address); the pointee when known.
    Pointer {
        /// What it points to (None past the nesting the reader follows).
        pointee: Option<Box<CType>>,
    },
    /// An array of `dims` (outermost first) elements.
    Array {
        /// The element type.
        element: Box<CType>,
        /// Element counts, outermost first.
        dims: Vec<u64>,
    },
    /// A struct or union with its members at their byte offsets.
    Record {
        /// `struct pixel`, `union u`, or empty when anonymous.
        name: String,
        /// Size in bytes.
        bytes: u32,
        /// (field name, byte offset, type), in declaration order.
        members: Vec<(String, u32, CType)>,
    },
}

/// How the bits of a basic type read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Two's complement.
    Signed,
    /// Unsigned binary.
    Unsigned,
    /// IEEE 754.
    Float,
    /// `_Bool` / `bool`.
    Bool,
}

impl CType {
    /// Size in bytes (0 when unknown).
    pub fn size(&self) -> u64 {
        match self {
            CType::Basic { bytes, .. } | CType::Record { bytes, .. } => u64::from(*bytes),
            CType::Typedef { base, .. } => base.size(),
            CType::Pointer { .. } => 8,
            CType::Array { element, dims } => dims.iter().product::<u64>() * element.size(),
        }
    }

    /// The name C gives it: `uint8_t`, `struct pixel`, `float[16][17]`.
    pub fn c_name(&self) -> String {
        match self {
            CType::Basic { name, .. } | CType::Typedef { name, .. } => name.clone(),
            CType::Record { name, .. } if name.is_empty() => "struct".into(),
            CType::Record { name, .. } => name.clone(),
            CType::Pointer { pointee: Some(p) } => format!("{} *", p.c_name()),
            CType::Pointer { pointee: None } => "void *".into(),
            CType::Array { element, dims } => {
                format!("{}{}", element.c_name(), dims.iter().map(|d| format!("[{d}]")).collect::<String>())
            }
        }
    }
}

/// A named variable of the program (a local, a parameter or a global) and
/// its type.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugVariable {
    /// The variable's name in the source.
    pub name: String,
    /// Its type.
    pub ty: CType,
}

/// The typed variables of a module.
#[derive(Clone, Debug, Default)]
pub struct DebugTypes {
    /// Every variable whose type could be read.
    pub variables: Vec<DebugVariable>,
    /// The parameters among them, by function: (the function's symbol,
    /// the parameter's position from 1, its type). A name alone is
    /// ambiguous: a header's inline function may call its own parameter
    /// `x` too.
    pub parameters: Vec<(String, u32, CType)>,
}

impl DebugTypes {
    /// The types of the variables named `name`.
    pub fn of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a CType> + 'a {
        self.variables.iter().filter(move |v| v.name == name).map(|v| &v.ty)
    }

    /// The type of parameter `position` (from 1) of the function whose
    /// symbol is `function`, when the debug information records it.
    pub fn parameter(&self, function: &str, position: u32) -> Option<&CType> {
        self.parameters.iter().find(|(f, k, _)| f == function && *k == position).map(|(_, _, t)| t)
    }

    /// Reads the variables of a module printed as text.
    pub fn parse(module_text: &str) -> DebugTypes {
        let mut nodes: HashMap<u32, Node> = HashMap::new();
        for line in module_text.lines() {
            if let Some((id, node)) = node_line(line) {
                nodes.insert(id, node);
            }
        }
        let mut variables = Vec::new();
        let mut parameters = Vec::new();
        let mut ids: Vec<&u32> = nodes.keys().collect();
        ids.sort();
        for id in ids {
            let n = &nodes[id];
            if n.kind != "DILocalVariable" && n.kind != "DIGlobalVariable" {
                continue;
            }
            let (Some(name), Some(ty)) = (n.string("name"), n.reference("type")) else { continue };
            if let Some(ty) = resolve(&nodes, ty, 0) {
                // A parameter: `arg: N`, its scope the function itself
                // (its symbol is the linkage name in C++ and CUDA).
                let function = n.reference("scope").and_then(|s| nodes.get(&s)).filter(|s| s.kind == "DISubprogram");
                if let (Some(position), Some(f)) = (n.number("arg"), function) {
                    if let (Some(symbol), Ok(position)) = (f.string("linkageName").or(f.string("name")), u32::try_from(position)) {
                        parameters.push((symbol.to_string(), position, ty.clone()));
                    }
                }
                let v = DebugVariable { name: name.to_string(), ty };
                if !variables.contains(&v) {
                    variables.push(v);
                }
            }
        }
        DebugTypes { variables, parameters }
    }
}

/// Nesting followed through pointers, members and typedefs; deeper types
/// are left unknown (a linked list's `next` is just a pointer).
const MAX_DEPTH: u32 = 12;

/// One metadata node: its kind (`DIBasicType`...) or `tuple`, and its fields.
struct Node {
    kind: String,
    fields: Vec<(String, String)>,
}

impl Node {
    fn field(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    fn string(&self, key: &str) -> Option<&str> {
        self.field(key).and_then(|v| v.strip_prefix('"')).and_then(|v| v.strip_suffix('"'))
    }
    fn number(&self, key: &str) -> Option<u64> {
        self.field(key).and_then(|v| v.parse().ok())
    }
    fn reference(&self, key: &str) -> Option<u32> {
        self.field(key).and_then(node_ref)
    }
}

fn node_ref(v: &str) -> Option<u32> {
    v.trim().strip_prefix('!').and_then(|n| n.parse().ok())
}

/// `!N = [distinct] !DIKind(a: b, ...)` or `!N = !{!a, !b}`.
fn node_line(line: &str) -> Option<(u32, Node)> {
    let rest = line.strip_prefix('!')?;
    let (id, body) = rest.split_once(" = ")?;
    let id: u32 = id.parse().ok()?;
    let body = body.strip_prefix("distinct ").unwrap_or(body);
    if let Some(tuple) = body.strip_prefix("!{").and_then(|b| b.strip_suffix('}')) {
        let fields = split_top(tuple).into_iter().map(|e| (String::new(), e)).collect();
        return Some((id, Node { kind: "tuple".into(), fields }));
    }
    let body = body.strip_prefix('!')?;
    let open = body.find('(')?;
    let kind = &body[..open];
    if !kind.starts_with("DI") {
        return None;
    }
    let inner = body[open + 1..].strip_suffix(')')?;
    let fields = split_top(inner)
        .into_iter()
        .filter_map(|f| f.split_once(": ").map(|(k, v)| (k.trim().to_string(), v.trim().to_string())))
        .collect();
    Some((id, Node { kind: kind.to_string(), fields }))
}

/// Splits at the commas outside quotes and brackets.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quoted, mut escaped) = (Vec::new(), String::new(), 0i32, false, false);
    for c in s.chars() {
        if quoted {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The type node `id` describes, when every part of it can be read.
fn resolve(nodes: &HashMap<u32, Node>, id: u32, depth: u32) -> Option<CType> {
    if depth > MAX_DEPTH {
        return None;
    }
    let n = nodes.get(&id)?;
    let bits = n.number("size").unwrap_or(0);
    match n.kind.as_str() {
        "DIBasicType" => {
            let encoding = match n.field("encoding")? {
                "DW_ATE_signed" | "DW_ATE_signed_char" => Encoding::Signed,
                "DW_ATE_unsigned" | "DW_ATE_unsigned_char" | "DW_ATE_UTF" => Encoding::Unsigned,
                "DW_ATE_float" => Encoding::Float,
                "DW_ATE_boolean" => Encoding::Bool,
                _ => return None,
            };
            if bits == 0 || bits % 8 != 0 || bits > 128 {
                return None;
            }
            Some(CType::Basic { name: n.string("name")?.to_string(), bytes: (bits / 8) as u32, encoding })
        }
        "DIDerivedType" => {
            let base = || n.reference("baseType").and_then(|b| resolve(nodes, b, depth + 1));
            match n.field("tag")? {
                "DW_TAG_typedef" => Some(CType::Typedef { name: n.string("name")?.to_string(), base: Box::new(base()?) }),
                "DW_TAG_const_type" | "DW_TAG_volatile_type" | "DW_TAG_restrict_type" | "DW_TAG_atomic_type" => base(),
                "DW_TAG_pointer_type" | "DW_TAG_reference_type" => Some(CType::Pointer { pointee: base().map(Box::new) }),
                _ => None,
            }
        }
        "DICompositeType" => match n.field("tag")? {
            "DW_TAG_array_type" => {
                let element = resolve(nodes, n.reference("baseType")?, depth + 1)?;
                let subranges = nodes.get(&n.reference("elements")?)?;
                let mut dims = Vec::new();
                for (_, r) in &subranges.fields {
                    let sub = nodes.get(&node_ref(r)?)?;
                    dims.push(sub.number("count")?);
                }
                if dims.is_empty() || element.size() == 0 {
                    return None;
                }
                Some(CType::Array { element: Box::new(element), dims })
            }
            tag @ ("DW_TAG_structure_type" | "DW_TAG_union_type" | "DW_TAG_class_type") => {
                let word = if tag == "DW_TAG_union_type" { "union" } else { "struct" };
                let name = n.string("name").map(|s| format!("{word} {s}")).unwrap_or_default();
                let list = nodes.get(&n.reference("elements")?)?;
                let mut members = Vec::new();
                for (_, m) in &list.fields {
                    let m = nodes.get(&node_ref(m)?)?;
                    if m.field("tag") != Some("DW_TAG_member") {
                        continue;
                    }
                    // A bit-field's bits are not whole bytes: not shown.
                    if m.field("flags").is_some_and(|f| f.contains("DIFlagBitField")) {
                        return None;
                    }
                    let offset = m.number("offset").unwrap_or(0);
                    if offset % 8 != 0 {
                        return None;
                    }
                    let ty = resolve(nodes, m.reference("baseType")?, depth + 1)?;
                    members.push((m.string("name").unwrap_or("").to_string(), (offset / 8) as u32, ty));
                }
                if bits == 0 || bits % 8 != 0 {
                    return None;
                }
                Some(CType::Record { name, bytes: (bits / 8) as u32, members })
            }
            "DW_TAG_enumeration_type" => {
                let base = n.reference("baseType").and_then(|b| resolve(nodes, b, depth + 1));
                let signed = base.as_ref().is_some_and(|b| matches!(b, CType::Basic { encoding: Encoding::Signed, .. }));
                let name = n.string("name").map(|s| format!("enum {s}")).unwrap_or_else(|| "enum".into());
                if bits == 0 || bits % 8 != 0 {
                    return None;
                }
                let encoding = if signed { Encoding::Signed } else { Encoding::Unsigned };
                Some(CType::Basic { name, bytes: (bits / 8) as u32, encoding })
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
!17 = !DIBasicType(name: "unsigned char", size: 8, encoding: DW_ATE_unsigned_char)
!19 = !DISubrange(count: 3)
!28 = !DILocalVariable(name: "a", scope: !6, file: !3, line: 6, type: !29)
!29 = !DICompositeType(tag: DW_TAG_array_type, baseType: !30, size: 32, elements: !34)
!30 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint8_t", file: !31, line: 24, baseType: !32)
!32 = !DIDerivedType(tag: DW_TAG_typedef, name: "__uint8_t", file: !33, line: 38, baseType: !17)
!34 = !{!35}
!35 = !DISubrange(count: 4)
!37 = !DILocalVariable(name: "p", scope: !6, file: !3, line: 6, type: !38)
!38 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "pixel", file: !3, line: 2, size: 64, elements: !39)
!39 = !{!40, !47}
!40 = !DIDerivedType(tag: DW_TAG_member, name: "r", scope: !38, file: !3, line: 2, baseType: !30, size: 8)
!47 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !38, file: !3, line: 2, baseType: !48, size: 32, offset: 32)
!48 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!50 = !DILocalVariable(name: "tile", scope: !6, file: !3, line: 6, type: !51)
!51 = !DICompositeType(tag: DW_TAG_array_type, baseType: !48, size: 192, elements: !52)
!52 = !{!53, !19}
!53 = !DISubrange(count: 2)
"#;

    /// Parameters are recorded by their function's symbol and position:
    /// two functions' parameters named alike keep their own types.
    #[test]
    fn parameters_are_known_by_function_and_position() {
        let text = r#"
!4 = distinct !DISubprogram(name: "first", linkageName: "_Z5firstPKi", scope: !3, file: !3, line: 1)
!5 = distinct !DISubprogram(name: "negatives", linkageName: "_Z9negativesPKfPi", scope: !3, file: !3, line: 3)
!6 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !3, line: 1, type: !7)
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !3, line: 3, type: !10)
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !11, size: 64)
!11 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!12 = !DILocalVariable(name: "i", scope: !5, file: !3, line: 4, type: !8)
"#;
        let t = DebugTypes::parse(text);
        assert_eq!(t.parameter("_Z9negativesPKfPi", 1).map(CType::c_name).as_deref(), Some("float *"));
        assert_eq!(t.parameter("_Z5firstPKi", 1).map(CType::c_name).as_deref(), Some("int *"));
        assert_eq!(t.parameter("_Z9negativesPKfPi", 2), None);
        assert_eq!(t.of("x").count(), 2, "both are still variables named x");
    }

    #[test]
    fn typedefs_records_and_array_shapes_are_read() {
        let t = DebugTypes::parse(TEXT);
        let a = t.of("a").next().unwrap();
        assert_eq!(a.c_name(), "uint8_t[4]");
        assert_eq!(a.size(), 4);
        let p = t.of("p").next().unwrap();
        assert_eq!(p.c_name(), "struct pixel");
        let CType::Record { members, .. } = p else { panic!("{p:?}") };
        assert_eq!(members.iter().map(|(n, o, _)| (n.as_str(), *o)).collect::<Vec<_>>(), [("r", 0), ("f", 4)]);
        assert_eq!(t.of("tile").next().unwrap().c_name(), "float[2][3]");
    }
}
