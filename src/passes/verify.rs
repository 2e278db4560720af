//! A well-formedness check for the internal IR after a pass: registers
//! defined once, phi nodes only at block starts with one entry per
//! predecessor, and every use dominated by its definition. Passes run it
//! in tests; it names the first problem found.

use super::cfg::Cfg;
use crate::ir::{BlockId, Function, InstKind, Operand};

/// Checks `f` (reachable blocks only for phi edges and dominance).
pub fn verify_function(f: &Function) -> Result<(), String> {
    let cfg = Cfg::new(f);
    let mut def: Vec<Option<(BlockId, usize)>> = vec![None; f.num_regs as usize];
    for p in &f.params {
        *def.get_mut(p.reg.0 as usize).ok_or("parameter register out of range")? = Some((BlockId(0), 0));
    }
    for (b, block) in f.blocks.iter().enumerate() {
        let mut past_phis = false;
        for (i, inst) in block.insts.iter().enumerate() {
            let is_phi = matches!(inst.kind, InstKind::Phi { .. });
            if is_phi && past_phis {
                return Err(format!("{}: block {} has a phi after another instruction", f.name, block.name));
            }
            past_phis |= !is_phi;
            if let Some(d) = inst.dest {
                let slot = def.get_mut(d.0 as usize).ok_or_else(|| format!("{}: register {} out of range", f.name, d.0))?;
                if slot.is_some() {
                    return Err(format!("{}: register {} defined twice", f.name, d.0));
                }
                *slot = Some((BlockId(b as u32), i + 1));
            }
        }
    }
    for (b, block) in f.blocks.iter().enumerate() {
        let here = BlockId(b as u32);
        if !cfg.is_reachable(here) {
            continue;
        }
        for (i, inst) in block.insts.iter().enumerate() {
            if let InstKind::Phi { incoming } = &inst.kind {
                check_phi(f, &cfg, here, incoming, &def)?;
                continue;
            }
            for op in inst.kind.operands() {
                check_use(f, &cfg, op, here, i, &def)?;
            }
        }
        for op in block.term.operands() {
            check_use(f, &cfg, op, here, block.insts.len(), &def)?;
        }
    }
    Ok(())
}

fn check_phi(f: &Function, cfg: &Cfg, b: BlockId, incoming: &[(BlockId, Operand)], def: &[Option<(BlockId, usize)>]) -> Result<(), String> {
    let name = &f.blocks[b.0 as usize].name;
    for p in cfg.preds(b) {
        if cfg.is_reachable(*p) && !incoming.iter().any(|(x, _)| x == p) {
            return Err(format!("{}: phi in {name} has no value for predecessor {}", f.name, f.blocks[p.0 as usize].name));
        }
    }
    for (p, v) in incoming {
        if !cfg.preds(b).contains(p) {
            return Err(format!("{}: phi in {name} names {} which is not a predecessor", f.name, p.0));
        }
        if cfg.is_reachable(*p) {
            let end = f.blocks[p.0 as usize].insts.len();
            check_use(f, cfg, v, *p, end, def)?;
        }
    }
    Ok(())
}

/// A use at position `pos` of block `b` (the terminator is at `len`).
fn check_use(f: &Function, cfg: &Cfg, op: &Operand, b: BlockId, pos: usize, def: &[Option<(BlockId, usize)>]) -> Result<(), String> {
    let Operand::Reg(r) = op else { return Ok(()) };
    if f.params.iter().any(|p| p.reg == *r) {
        return Ok(());
    }
    let Some(Some((db, after))) = def.get(r.0 as usize).copied() else {
        return Err(format!("{}: register {} used in {} but never defined", f.name, r.0, f.blocks[b.0 as usize].name));
    };
    let ok = if db == b { after <= pos } else { cfg.dominates(db, b) };
    if ok {
        Ok(())
    } else {
        Err(format!("{}: use of register {} in {} is not dominated by its definition", f.name, r.0, f.blocks[b.0 as usize].name))
    }
}
