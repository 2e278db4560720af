//! Subterms that read one or two input bytes, proved equal by their
//! tables. A byte multiply by a constant 0xff on one side (pixman's SSE2
//! `pix_multiply` under a mask alpha a case split fixed) is the byte
//! itself on the other; `~(t + 1)` on one side is `0xfe - t` on the other
//! (the SSE2 and C spellings of `255 - MUL_UN8(s, m)`). No rewrite of one
//! side alone makes such pairs meet, and each costs the solver a budgeted
//! attempt that runs out before sweeping settles it; yet a subterm that
//! reads two bytes has only 65536 inputs.
//!
//! `merge_equal_subterms` groups the nodes of both sides that read at most
//! two input bytes by those bytes, their width and their values on a few
//! fixed inputs; a group's members are then evaluated on every value of
//! its bytes, and each that agrees with the group's smallest member on all
//! of them is replaced by it. The rebuilt sides equal the sides on every
//! input (each replacement was checked on its whole domain; no path fact
//! is used), so they answer for them.

use crate::expr::{evaluate_node, Assignment, Expr, ExprId, ExprPool, Width};
use rustc_hash::FxHashMap;

/// Input bytes (array, index), sorted.
type Bytes = smallvec::SmallVec<[(u32, u32); 2]>;

/// The input bytes a node reads; `None` past two, or for a node whose
/// value is not a function of input bytes alone.
type Support = Option<Bytes>;

/// A group's key: its bytes, its width, its values on the probes.
type GroupKey = (Bytes, Width, [u128; PROBES]);

/// Inputs on which the nodes are first compared, in number: every byte
/// 0, every byte 0xff, 0x80, 0x7f, then each byte a value of its own
/// (`probe_byte`).
const PROBES: usize = 16;

/// The value of input byte `b` in probe `k`: fixed for the whole run, so
/// that a node and its operands are probed on the same inputs.
fn probe_byte(k: usize, b: (u32, u32)) -> u8 {
    match k {
        0 => 0,
        1 => 0xff,
        2 => 0x80,
        3 => 0x7f,
        _ => {
            let mut h = (b.0 as u64) << 32 | b.1 as u64;
            h = h.wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            h = (h ^ (h >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (h ^ (h >> 31)) as u8
        }
    }
}

/// Most node evaluations one call spends checking groups on every value
/// of their bytes: a count, so the route a check takes does not depend on
/// the machine. A group past it is not merged (the sides go on through
/// the ladder as they are, nothing is concluded from it).
const MAX_EVALUATIONS: u64 = 20_000_000;

/// Sides with more nodes than this are not searched (the grouping is
/// linear in the nodes; sides this large are not pixel formulas).
const MAX_NODES: usize = 200_000;

/// Pairs (group's smallest member, member) already evaluated on every
/// value of their bytes, and whether they were equal: the splits of one
/// check (canon/case_split.rs) meet the same pairs again and again.
#[derive(Default)]
pub struct Proved {
    pairs: FxHashMap<(ExprId, ExprId), bool>,
}

/// `roots` with every node that reads at most two input bytes replaced by
/// the smallest node of the roots equal to it on every value of those
/// bytes (module comment), where that can make the roots meet: a group is
/// evaluated only when one of its members is below a root that another
/// member is not below. `roots` unchanged when nothing is replaced.
pub fn merge_equal_subterms(pool: &mut ExprPool, roots: &[ExprId], proved: &mut Proved) -> Vec<ExprId> {
    let order = pool.operands_first(roots);
    if order.len() > MAX_NODES || roots.len() > 64 {
        return roots.to_vec();
    }
    // Which roots each node is below, one bit per root.
    let mut below: FxHashMap<ExprId, u64> = FxHashMap::default();
    for (i, &r) in roots.iter().enumerate() {
        for n in pool.operands_first(&[r]) {
            *below.entry(n).or_default() |= 1 << i;
        }
    }
    let mut support: FxHashMap<ExprId, Support> = FxHashMap::default();
    let mut probes: FxHashMap<ExprId, [u128; PROBES]> = FxHashMap::default();
    let mut groups: FxHashMap<GroupKey, Vec<ExprId>> = FxHashMap::default();
    let none = Assignment::default();
    for &id in &order {
        let s = support_of(pool, id, &support);
        if let Some(bytes) = &s {
            let values: [u128; PROBES] = std::array::from_fn(|k| match *pool.get(id) {
                Expr::Input { array, index } => probe_byte(k, (array, index)) as u128,
                _ => evaluate_node(pool, id, &none, |c| probes.get(c).map_or_else(|| pool.as_const(*c).unwrap_or(0), |v| v[k])),
            });
            if !bytes.is_empty() {
                groups.entry((bytes.clone(), pool.width(id), values)).or_default().push(id);
            }
            probes.insert(id, values);
        }
        support.insert(id, s);
    }
    // A merge can only make the roots meet when a member is below a root
    // another member is not below.
    let useful = |members: &Vec<ExprId>| members.iter().any(|x| members.iter().any(|y| below[y] & !below[x] != 0));
    let mut replace: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    let mut spent: u64 = 0;
    // Groups in the order of their first node, so the merges are the same
    // on every run.
    let mut candidates: Vec<(Bytes, Vec<ExprId>)> = groups
        .into_iter()
        .filter(|(_, members)| members.len() > 1 && useful(members))
        .map(|((bytes, ..), members)| (bytes, members))
        .collect();
    candidates.sort_by_key(|(_, members)| members[0]);
    for (bytes, mut members) in candidates {
        let sizes: FxHashMap<ExprId, usize> = members.iter().map(|&m| (m, pool.operands_first(&[m]).len())).collect();
        members.sort_by_key(|m| (sizes[m], *m));
        let rep = members[0];
        let unknown: Vec<ExprId> = members[1..].iter().copied().filter(|m| !proved.pairs.contains_key(&(rep, *m))).collect();
        if !unknown.is_empty() {
            let mut asked = vec![rep];
            asked.extend_from_slice(&unknown);
            let nodes = pool.operands_first(&asked);
            let cost = (1u64 << (8 * bytes.len())) * nodes.len() as u64;
            if spent + cost > MAX_EVALUATIONS {
                continue;
            }
            spent += cost;
            let equal = equal_on_every_value(pool, &bytes, &nodes, &asked);
            for m in unknown {
                proved.pairs.insert((rep, m), equal.contains(&m));
            }
        }
        for m in &members[1..] {
            if proved.pairs.get(&(rep, *m)) == Some(&true) {
                replace.insert(*m, rep);
            }
        }
    }
    tracing::trace!(evaluations = spent, merged = replace.len(), "byte tables: subterms evaluated on every value of their bytes");
    if replace.is_empty() {
        return roots.to_vec();
    }
    pool.substitute(roots, &replace)
}

/// The bytes `id` reads, from its operands' (`known`).
fn support_of(pool: &ExprPool, id: ExprId, known: &FxHashMap<ExprId, Support>) -> Support {
    let mut bytes: Bytes = smallvec::SmallVec::new();
    match &*pool.get(id) {
        Expr::Const { .. } => return Some(bytes),
        Expr::Input { array, index } => {
            bytes.push((*array, *index));
            return Some(bytes);
        }
        // Integer operations only: a value of these is a function of its
        // operands' values, which evaluation computes as the solvers do.
        Expr::Bin(..)
        | Expr::Not(_)
        | Expr::Cmp(..)
        | Expr::Ite(..)
        | Expr::Concat(..)
        | Expr::Extract { .. }
        | Expr::ZExt(..)
        | Expr::SExt(..) => {}
        _ => return None,
    }
    for c in pool.children(id) {
        for b in known.get(&c)?.as_ref()? {
            if !bytes.contains(b) {
                bytes.push(*b);
            }
        }
        if bytes.len() > 2 {
            return None;
        }
    }
    bytes.sort_unstable();
    Some(bytes)
}

/// The value of input byte `b` at `point` (the first and second byte of
/// the sorted support `bytes`).
fn byte_at(bytes: &[(u32, u32)], point: (u8, u8), b: (u32, u32)) -> u8 {
    if bytes.first() == Some(&b) {
        point.0
    } else {
        point.1
    }
}

/// The members after the first (`members[0]`) that equal it on every
/// value of `bytes`; `nodes` are every node below the members, operands
/// first.
fn equal_on_every_value(pool: &ExprPool, bytes: &[(u32, u32)], nodes: &[ExprId], members: &[ExprId]) -> Vec<ExprId> {
    let slot: FxHashMap<ExprId, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    // Each node's operands and their slots, looked up once: the loop below
    // runs 65536 times over every node.
    let operands: Vec<smallvec::SmallVec<[(ExprId, usize); 3]>> =
        nodes.iter().map(|&n| pool.children(n).into_iter().map(|c| (c, slot[&c])).collect()).collect();
    let inputs: Vec<Option<(u32, u32)>> = nodes
        .iter()
        .map(|&n| match *pool.get(n) {
            Expr::Input { array, index } => Some((array, index)),
            _ => None,
        })
        .collect();
    let member_slots: Vec<usize> = members.iter().map(|m| slot[m]).collect();
    let mut alive: Vec<bool> = vec![true; members.len()];
    let mut values: Vec<u128> = vec![0; nodes.len()];
    let none = Assignment::default();
    let points: u32 = 1 << (8 * bytes.len());
    for p in 0..points {
        let point = (p as u8, (p >> 8) as u8);
        for (i, &n) in nodes.iter().enumerate() {
            let v = match inputs[i] {
                Some(b) => byte_at(bytes, point, b) as u128,
                None => {
                    let ops = &operands[i];
                    evaluate_node(pool, n, &none, |c| ops.iter().find(|(k, _)| k == c).map_or(0, |(_, s)| values[*s]))
                }
            };
            values[i] = v;
        }
        let first = values[member_slots[0]];
        for k in 1..members.len() {
            if alive[k] && values[member_slots[k]] != first {
                alive[k] = false;
            }
        }
        if !alive[1..].iter().any(|a| *a) {
            return Vec::new();
        }
    }
    members.iter().zip(alive).skip(1).filter(|(_, a)| *a).map(|(m, _)| *m).collect()
}
