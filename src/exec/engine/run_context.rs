//! What every part of a run reads and builds with: the module, the
//! expression pool, the configuration and the decision ladder. One value,
//! so that code needing only these can take it instead of the whole
//! executor; reports name source locations and decode witnesses with it.

use crate::check::Decider;
use crate::config::Config;
use crate::expr::{Assignment, ExprPool};
use crate::ir::{Loc, Module};
use crate::report::Location;
use std::collections::BTreeMap;

/// The shared context of a run.
pub struct RunContext<'m> {
    /// The module run.
    pub module: &'m Module,
    /// Every expression of the run.
    pub pool: ExprPool,
    /// The run's configuration.
    pub config: Config,
    /// The decision ladder: checks and path feasibility.
    pub decider: Decider,
}

/// Witness inputs with more elements than this are not decoded (the hex
/// bytes stay in the report).
const MAX_DECODED_ELEMENTS: usize = 4096;
/// Inputs larger than this are not decoded by their debug-info type.
const MAX_DECODED_BYTES: usize = 1 << 16;

impl RunContext<'_> {
    /// The source location `loc` as a report names it: file, line, column.
    pub fn location(&self, loc: Loc) -> Location {
        Location { file: self.module.file_name(loc).to_string(), line: loc.line, column: loc.column }
    }

    /// Hex bytes per input name.
    pub fn witness(&self, model: &Assignment) -> BTreeMap<String, String> {
        let mut w = BTreeMap::new();
        // Havoc arrays and given bytes are not inputs: no run can be given them.
        for (i, a) in self.pool.arrays().iter().enumerate().filter(|(_, a)| a.is_input()) {
            let bytes = model.arrays.get(&(i as u32));
            let hex: String = (0..a.size as usize).map(|k| format!("{:02x}", bytes.and_then(|b| b.get(k)).copied().unwrap_or(0))).collect();
            w.insert(a.name.clone(), hex);
        }
        w
    }

    /// The witness decoded by type, for the inputs whose type is known.
    pub fn witness_values(&self, model: &Assignment) -> BTreeMap<String, crate::report::DecodedInput> {
        let mut out = BTreeMap::new();
        for (i, a) in self.pool.arrays().iter().enumerate().filter(|(_, a)| a.is_input()) {
            let bytes = model.arrays.get(&(i as u32));
            // The variable's C type from debug info, when it names it.
            if a.size as usize <= MAX_DECODED_BYTES {
                let raw: Vec<u8> = (0..a.size as usize).map(|k| bytes.and_then(|b| b.get(k)).copied().unwrap_or(0)).collect();
                if let Some(d) = crate::report::dwarf_witness::decode_input(&self.module.debug_types, &a.name, &raw, a.element) {
                    out.insert(a.name.clone(), d);
                    continue;
                }
            }
            let Some(t) = a.element else { continue };
            let n = (a.size / t.size()) as usize;
            // Huge inputs stay hex only: a million decoded strings help no one.
            if n > MAX_DECODED_ELEMENTS {
                continue;
            }
            let elements = (0..n)
                .map(|k| {
                    let raw: Vec<u8> = (0..t.size() as usize)
                        .map(|b| bytes.and_then(|v| v.get(k * t.size() as usize + b)).copied().unwrap_or(0))
                        .collect();
                    t.show(&raw)
                })
                .collect();
            let type_name = if n == 1 { t.name() } else { format!("{}[{n}]", t.name()) };
            out.insert(a.name.clone(), crate::report::DecodedInput { type_name, elements, labels: None });
        }
        out
    }
}
