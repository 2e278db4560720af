//! The rounds in which a backend holds its guesses of given bytes to the
//! given ones. Given bytes read at symbolic positions
//! (`InputArray::given`) are an array the solver may guess anything for:
//! an unsat answer holds for the given bytes too, and a model is taken
//! only once every byte it reads there is the given one. Each round holds
//! every place the model read (the right guesses too, so the next model
//! cannot move them) and the query is asked again; every model with a
//! wrong guess excludes it, so the rounds end, but a query that keeps
//! guessing (two equal entries in a table of distinct ones) ends unknown
//! after `GIVEN_ROUNDS`, with that limit named. The backends differ only
//! in how they assert a held place (z3_backend.rs, process.rs).

use super::{Unknown, UnknownKind};
use crate::expr::ExprPool;
use rustc_hash::FxHashSet;

/// How many times a backend holds the guesses of a model to the given
/// bytes and asks again before giving up.
pub(crate) const GIVEN_ROUNDS: u32 = 1024;

/// A place of a given array a model reads at a symbolic position: the
/// array, the position, and a byte (the model's guess going in, the given
/// byte coming out).
pub(crate) type ReadPlace = (u32, u64, u8);

/// What to do with a model.
#[derive(Debug, PartialEq)]
pub(crate) enum Round {
    /// Every given byte it reads is the given one: the model stands.
    Settled,
    /// A guess was wrong: hold these places (not held before) to their
    /// given bytes and ask again.
    Hold(Vec<ReadPlace>),
    /// The guesses did not settle within `GIVEN_ROUNDS`.
    RanOut(Unknown),
}

/// The rounds of one query: how many were run and the places held.
#[derive(Default)]
pub(crate) struct GivenRounds {
    rounds: u32,
    held: FxHashSet<(u32, u64)>,
}

impl GivenRounds {
    /// The next step after a model that reads `reads` (array, position,
    /// guessed byte; places of arrays with no given bytes, or past them,
    /// are not given and left to the model).
    pub(crate) fn next(&mut self, pool: &ExprPool, reads: impl IntoIterator<Item = ReadPlace>) -> Round {
        let mut wrong = false;
        let mut places: Vec<ReadPlace> = reads
            .into_iter()
            .filter_map(|(array, at, guess)| {
                let given = *pool.given_bytes(array)?.get(usize::try_from(at).ok()?)?;
                wrong |= guess != given;
                Some((array, at, given))
            })
            .collect();
        if !wrong {
            return Round::Settled;
        }
        places.sort_unstable();
        places.dedup();
        self.rounds += 1;
        if self.rounds > GIVEN_ROUNDS {
            return Round::RanOut(ran_out(pool, &places));
        }
        places.retain(|&(array, at, _)| self.held.insert((array, at)));
        Round::Hold(places)
    }
}

/// The unknown answer of a query whose guesses of given bytes did not
/// settle within `GIVEN_ROUNDS` (`reads`: the places of the last model).
/// Not a work budget: another solver would guess as long, so the
/// portfolio does not pass it on.
fn ran_out(pool: &ExprPool, reads: &[ReadPlace]) -> Unknown {
    let names: std::collections::BTreeSet<&str> =
        reads.iter().filter_map(|(a, _, _)| pool.arrays().get(*a as usize)).map(|a| a.name.as_str()).collect();
    let names: Vec<&str> = names.into_iter().collect();
    Unknown::new(
        UnknownKind::Unsupported,
        format!(
            "the solver's guesses of the given bytes of `{}` read at symbolic positions were held to the given ones {GIVEN_ROUNDS} times \
             without settling (a limit of this tool)",
            names.join("`, `")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model guessing right stands; one guessing wrong holds every place
    /// it reads once (the right guesses too), with the given bytes; places
    /// not given are the model's; past `GIVEN_ROUNDS` the limit is named.
    #[test]
    fn a_wrong_guess_holds_each_place_read_once_until_the_limit() {
        let mut p = ExprPool::new();
        let g = p.new_given_array("table.given", &[10, 11, 12, 13]);
        let free = p.new_array("free", 4);
        let mut r = GivenRounds::default();
        // Right guesses, a free array's byte and a place past the given ones.
        assert_eq!(r.next(&p, [(g, 1, 11), (free, 0, 99), (g, 9, 5)]), Round::Settled);
        // A wrong guess at 2: both places read are held, once, sorted.
        assert_eq!(r.next(&p, [(g, 2, 0), (g, 1, 11), (g, 2, 0), (free, 1, 3)]), Round::Hold(vec![(g, 1, 11), (g, 2, 12)]));
        // Held places are not held again; a new one is.
        assert_eq!(r.next(&p, [(g, 2, 12), (g, 3, 0)]), Round::Hold(vec![(g, 3, 13)]));
        // Two rounds so far: the limit is reached after GIVEN_ROUNDS.
        for _ in 2..GIVEN_ROUNDS {
            assert!(matches!(r.next(&p, [(g, 0, 1)]), Round::Hold(_)));
        }
        let Round::RanOut(u) = r.next(&p, [(g, 0, 1)]) else { panic!("the limit") };
        assert_eq!(u.kind, UnknownKind::Unsupported);
        assert!(u.detail.starts_with("the solver's guesses of the given bytes of `table.given` read at symbolic positions"), "{u}");
        assert!(u.detail.contains(&format!("{GIVEN_ROUNDS} times")), "{u}");
    }
}
