//! The bytes of one object that two or more accesses at constant offsets
//! share, found by sorting the accesses by their first byte and sweeping
//! once, instead of a map entry per byte touched: an NDRange of a million
//! work-items that each write their own element leaves a million disjoint
//! accesses, which the sweep passes over without building anything.

/// One access at a constant offset: its bytes `[start, end)` and its index
/// in the log's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub start: i64,
    pub end: i64,
    pub index: usize,
}

/// Calls `visit(byte, indices)` for every byte that two or more of `spans`
/// cover, in increasing byte order, with the indices of the spans covering
/// it in increasing order. Sorts `spans`; empty spans cover nothing.
pub(super) fn shared_bytes(spans: &mut Vec<Span>, mut visit: impl FnMut(i64, &[usize])) {
    spans.retain(|s| s.end > s.start);
    // Accesses are logged in work-item order, which is mostly offset
    // order: the sort finds the runs already sorted.
    spans.sort_unstable_by_key(|s| (s.start, s.index));
    let mut active: Vec<Span> = Vec::new();
    let mut covering: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < spans.len() {
        // A cluster: spans that overlap one another transitively. A span
        // alone in its cluster shares no byte.
        let first = k;
        let mut end = spans[k].end;
        k += 1;
        while k < spans.len() && spans[k].start < end {
            end = end.max(spans[k].end);
            k += 1;
        }
        if k - first < 2 {
            continue;
        }
        let cluster = &spans[first..k];
        let mut next = 0;
        active.clear();
        let mut byte = cluster[0].start;
        while byte < end {
            while next < cluster.len() && cluster[next].start <= byte {
                active.push(cluster[next]);
                next += 1;
            }
            active.retain(|s| s.end > byte);
            if active.len() >= 2 {
                covering.clear();
                covering.extend(active.iter().map(|s| s.index));
                covering.sort_unstable();
                visit(byte, &covering);
            }
            byte += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: i64, len: i64, index: usize) -> Span {
        Span { start, end: start + len, index }
    }

    /// The bytes shared, by brute force over every byte: what the sweep
    /// must give.
    fn by_byte(spans: &[Span]) -> Vec<(i64, Vec<usize>)> {
        let mut out: std::collections::BTreeMap<i64, Vec<usize>> = Default::default();
        for s in spans {
            for b in s.start..s.end {
                out.entry(b).or_default().push(s.index);
            }
        }
        out.into_iter()
            .filter(|(_, v)| v.len() >= 2)
            .map(|(b, mut v)| {
                v.sort_unstable();
                (b, v)
            })
            .collect()
    }

    fn swept(spans: &[Span]) -> Vec<(i64, Vec<usize>)> {
        let mut out = Vec::new();
        shared_bytes(&mut spans.to_vec(), |b, list| out.push((b, list.to_vec())));
        out
    }

    #[test]
    fn disjoint_elements_share_nothing() {
        let spans: Vec<Span> = (0..1000).map(|i| span(4 * i, 4, i as usize)).collect();
        assert!(swept(&spans).is_empty());
    }

    #[test]
    fn overlaps_are_found_byte_by_byte_in_order() {
        // Two ints on one slot, a byte inside another int, a long access
        // over several, an empty access and a negative offset.
        let spans = vec![
            span(8, 4, 5),
            span(0, 4, 0),
            span(8, 4, 1),
            span(13, 1, 2),
            span(12, 4, 3),
            span(20, 0, 4),
            span(16, 12, 6),
            span(24, 4, 7),
            span(-4, 4, 8),
            span(-2, 1, 9),
        ];
        let got = swept(&spans);
        assert_eq!(got, by_byte(&spans));
        assert_eq!(got[0], (-2, vec![8, 9]));
        assert_eq!(got[1], (8, vec![1, 5]));
    }

    #[test]
    fn pseudo_random_spans_match_the_byte_map() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..50 {
            let spans: Vec<Span> = (0..(10 + round)).map(|i| span((next() % 64) as i64 - 8, (next() % 9) as i64, i as usize)).collect();
            assert_eq!(swept(&spans), by_byte(&spans), "round {round}");
        }
    }
}
