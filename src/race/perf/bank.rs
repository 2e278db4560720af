//! Bank conflicts of `__local` memory: successive `bank_width`-byte words
//! lie in successive banks, and a bank serves one word at a time, so the
//! work-items of a warp that touch `d` distinct words of one bank take `d`
//! turns (a `d`-way conflict). Many work-items reading the same word is a
//! broadcast: one turn.

use super::distinct_count;
use crate::config::PerfConfig;
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool};
use std::collections::{BTreeMap, BTreeSet};

/// The worst bank of one warp access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankConflict {
    /// Distinct words of the worst bank (1: no conflict).
    pub degree: u32,
    /// That bank (the lowest numbered among the worst).
    pub bank: u32,
    /// The first work-item to touch each of its words, in thread order.
    pub threads: Vec<u32>,
}

/// The conflict of a warp access whose lanes are `(thread, offset)` at
/// concrete offsets, each accessing `len` bytes.
pub fn conflict(lanes: &[(u32, u64)], len: u64, cfg: &PerfConfig) -> BankConflict {
    let width = u64::from(cfg.bank_width.max(1));
    let banks = u64::from(cfg.banks.max(1));
    // bank -> word -> first thread
    let mut by_bank: BTreeMap<u64, BTreeMap<u64, u32>> = BTreeMap::new();
    for &(thread, offset) in lanes {
        let (first, last) = (offset / width, (offset + len.max(1) - 1) / width);
        for word in first..=last {
            let slot = by_bank.entry(word % banks).or_default().entry(word).or_insert(thread);
            *slot = (*slot).min(thread);
        }
    }
    let mut worst = BankConflict { degree: 0, bank: 0, threads: Vec::new() };
    for (bank, words) in &by_bank {
        if words.len() as u32 > worst.degree {
            let threads: BTreeSet<u32> = words.values().copied().collect();
            worst = BankConflict { degree: words.len() as u32, bank: *bank as u32, threads: threads.into_iter().collect() };
        }
    }
    worst
}

/// That the warp access with lanes `(offset, active)` has a bank with at
/// least `k` distinct words (first words only: each lane's access is taken
/// to fit in one word, as a naturally aligned access of at most the bank
/// width does).
pub fn degree_at_least(pool: &mut ExprPool, lanes: &[(ExprId, ExprId)], k: u32, cfg: &PerfConfig) -> ExprId {
    let Some(&(first, _)) = lanes.first() else { return pool.bool_const(false) };
    let w = pool.width(first);
    let width = pool.constant(w, u128::from(cfg.bank_width.max(1)));
    let banks = pool.constant(w, u128::from(cfg.banks.max(1)));
    let words: Vec<ExprId> = lanes.iter().map(|&(off, _)| pool.bin(BinOp::UDiv, off, width)).collect();
    let bank_of: Vec<ExprId> = words.iter().map(|&word| pool.bin(BinOp::URem, word, banks)).collect();
    let count_width = 32;
    let need = pool.constant(count_width, u128::from(k));
    let mut any = pool.bool_const(false);
    // Some active lane's bank holds k distinct words.
    for (l, &(_, leader_active)) in lanes.iter().enumerate() {
        let keyed: Vec<(ExprId, ExprId)> = lanes
            .iter()
            .enumerate()
            .map(|(t, &(_, active))| {
                let same_bank = pool.eq(bank_of[t], bank_of[l]);
                (words[t], pool.and(active, same_bank))
            })
            .collect();
        let count = distinct_count(pool, &keyed, count_width);
        let enough = pool.cmp(CmpOp::Ule, need, count);
        let here = pool.and(leader_active, enough);
        any = pool.or(any, here);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> PerfConfig {
        PerfConfig::default()
    }

    #[test]
    fn consecutive_words_do_not_conflict() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 4)).collect();
        assert_eq!(conflict(&lanes, 4, &cfg()).degree, 1);
    }

    #[test]
    fn a_stride_of_the_bank_count_is_a_full_conflict() {
        // A 32x32 float tile read down a column.
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 128)).collect();
        let c = conflict(&lanes, 4, &cfg());
        assert_eq!((c.degree, c.bank), (32, 0));
        assert_eq!(c.threads.len(), 32);
    }

    #[test]
    fn padding_one_word_removes_the_conflict() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 132)).collect();
        assert_eq!(conflict(&lanes, 4, &cfg()).degree, 1);
    }

    #[test]
    fn a_broadcast_is_no_conflict() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, 64)).collect();
        assert_eq!(conflict(&lanes, 4, &cfg()).degree, 1);
    }

    #[test]
    fn a_stride_of_two_words_is_two_way() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 8)).collect();
        let c = conflict(&lanes, 4, &cfg());
        assert_eq!((c.degree, c.bank, c.threads.clone()), (2, 0, vec![0, 16]));
    }

    #[test]
    fn the_encoding_agrees_on_constants() {
        let mut pool = ExprPool::new();
        let t = pool.bool_const(true);
        let lanes: Vec<(ExprId, ExprId)> = (0..8u128).map(|i| (pool.constant(64, i * 8), t)).collect();
        // 8 lanes, 2 words apart: banks 0,2,..,14, one word each.
        let two = degree_at_least(&mut pool, &lanes, 2, &cfg());
        assert_eq!(pool.as_const(two), Some(0));
        let one = degree_at_least(&mut pool, &lanes, 1, &cfg());
        assert_eq!(pool.as_const(one), Some(1));
    }
}
