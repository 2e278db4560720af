//! Width checking of rule patterns. A rule whose sides can have different
//! widths, or whose operands cannot have the widths an operator needs, is
//! refused when loaded (it would merge unrelated e-classes). The same
//! inference gives `instantiate` the width of each pattern variable.

use crate::canon::lang::{CanonLang, Literal, Op};
use egg::{ENodeOrVar, Language, PatternAst, Var};
use std::collections::HashMap;

/// The type of a pattern node: a bit-vector width or an outcome set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Bits(u32),
    Set,
}

fn own_type(node: &CanonLang, kids: &[Option<Ty>]) -> Option<Ty> {
    let w = |i: usize| match kids.get(i).copied().flatten() {
        Some(Ty::Bits(w)) => Some(w),
        _ => None,
    };
    let bits = |w: u32| Some(Ty::Bits(w));
    match node {
        CanonLang::Lit(Literal::Set(_)) => Some(Ty::Set),
        CanonLang::Lit(Literal::Const { width, .. }) | CanonLang::Lit(Literal::Fresh { width, .. }) => bits(*width),
        CanonLang::Lit(Literal::Input { .. }) => bits(8),
        CanonLang::Node(op, _) => match op {
            Op::SetOp(_) => Some(Ty::Set),
            Op::Bin(_) | Op::Not => w(0).or(w(1)).map(Ty::Bits),
            Op::Ite => w(1).or(w(2)).map(Ty::Bits),
            Op::Cmp(_) | Op::FCmp(_) => bits(1),
            Op::Concat => bits(w(0)? + w(1)?),
            Op::Extract { width, .. } => bits(*width),
            Op::ZExt(n) | Op::SExt(n) => bits(*n),
            Op::FBin(_, f) | Op::FUn(_, f) | Op::Fma(f) => bits(f.width()),
            Op::FpToInt { width, .. } => bits(*width),
            Op::IntToFp { to, .. } | Op::FpConvert { to, .. } => bits(to.width()),
            Op::Apply { width, .. } => bits(*width),
        },
    }
}

/// Types the children must have, given the node's own type.
fn expected_kids(op: &Op, own: Option<Ty>, kids: &[Option<Ty>]) -> Vec<Option<Ty>> {
    let b = |w: u32| Some(Ty::Bits(w));
    let n = kids.len();
    match op {
        Op::SetOp(_) => vec![Some(Ty::Set); n],
        Op::Bin(_) | Op::Not => vec![own.or(kids[0]).or(kids[n - 1]); n],
        Op::Cmp(_) => vec![kids[0].or(kids[1]); 2],
        Op::Ite => vec![b(1), own, own],
        Op::FBin(_, f) | Op::FUn(_, f) | Op::Fma(f) => vec![b(f.width()); n],
        Op::FCmp(f) => vec![Some(Ty::Set), b(f.width()), b(f.width())],
        Op::FpToInt { from, .. } | Op::FpConvert { from, .. } => vec![b(from.width())],
        Op::IntToFp { from, .. } => vec![b(*from)],
        _ => vec![None; n],
    }
}

/// Infers node types of both sides together; `vars` holds known variable
/// types and receives the inferred ones. Errors describe a mismatch.
pub fn infer(sides: &[&PatternAst<CanonLang>], vars: &mut HashMap<Var, Ty>) -> Result<Vec<Option<Ty>>, String> {
    let mut roots = Vec::new();
    for _round in 0..8 {
        let before = vars.clone();
        roots.clear();
        for ast in sides {
            roots.push(infer_one(ast, vars)?);
        }
        if *vars == before {
            break;
        }
    }
    if let [Some(a), Some(b)] = roots[..] {
        if a != b {
            return Err(format!("left-hand side is {a:?}, right-hand side is {b:?}"));
        }
    }
    Ok(roots)
}

fn unify(slot: &mut Option<Ty>, t: Option<Ty>, what: &dyn Fn() -> String) -> Result<(), String> {
    match (*slot, t) {
        (Some(a), Some(b)) if a != b => Err(format!("{} is {a:?} and {b:?}", what())),
        (None, Some(b)) => {
            *slot = Some(b);
            Ok(())
        }
        _ => Ok(()),
    }
}

fn infer_one(ast: &PatternAst<CanonLang>, vars: &mut HashMap<Var, Ty>) -> Result<Option<Ty>, String> {
    let nodes = ast.as_ref();
    let mut ty: Vec<Option<Ty>> = vec![None; nodes.len()];
    // Bottom-up.
    for (i, n) in nodes.iter().enumerate() {
        ty[i] = match n {
            ENodeOrVar::Var(v) => vars.get(v).copied(),
            ENodeOrVar::ENode(e) => {
                let kids: Vec<Option<Ty>> = e.children().iter().map(|k| ty[usize::from(*k)]).collect();
                own_type(e, &kids)
            }
        };
    }
    // Top-down: push expectations to children and variables.
    for i in (0..nodes.len()).rev() {
        if let ENodeOrVar::ENode(CanonLang::Node(op, kids)) = &nodes[i] {
            let kid_tys: Vec<Option<Ty>> = kids.iter().map(|k| ty[usize::from(*k)]).collect();
            let exp = expected_kids(op, ty[i], &kid_tys);
            for (k, e) in kids.iter().zip(exp) {
                let k = usize::from(*k);
                let what = || format!("operand of `{op}`");
                unify(&mut ty[k], e, &what)?;
                if let (ENodeOrVar::Var(v), Some(t)) = (&nodes[k], ty[k]) {
                    let mut slot = vars.get(v).copied();
                    unify(&mut slot, Some(t), &|| format!("variable {v}"))?;
                    vars.insert(*v, t);
                }
            }
        }
    }
    Ok(ty.last().copied().flatten())
}

/// Widths of the pattern variables of a rule (sets are left out); unknown
/// widths are `None`.
pub(crate) fn infer_var_widths(lhs: &PatternAst<CanonLang>, rhs: &PatternAst<CanonLang>) -> Result<HashMap<Var, Ty>, String> {
    let mut vars = HashMap::new();
    infer(&[lhs, rhs], &mut vars)?;
    Ok(vars)
}
