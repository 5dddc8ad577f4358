//! The set of games a CSV holds, kept as ranges of consecutive game indices.
//!
//! A run writes its rows in schedule order, so a CSV normally holds one range (a prefix of
//! its shard) and this set takes a few bytes whatever the number of games: resuming an
//! experiment of 2^63 games costs no more memory than resuming one of ten. Only a file edited
//! by hand, with holes in it, costs one entry per hole.

use std::collections::BTreeMap;

/// Game indices recorded so far, as disjoint half-open ranges `start..end`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// `start -> end` of each range; ranges neither overlap nor touch.
    ranges: BTreeMap<u64, u64>,
    count: u64,
}

impl Recorded {
    /// An empty set.
    pub fn new() -> Recorded {
        Recorded::default()
    }

    /// The number of indices in the set.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The number of ranges the set is kept as (its memory is proportional to it).
    pub fn ranges(&self) -> usize {
        self.ranges.len()
    }

    /// Whether `index` is in the set.
    pub fn contains(&self, index: u64) -> bool {
        self.ranges
            .range(..=index)
            .next_back()
            .is_some_and(|(_, &end)| index < end)
    }

    /// Adds `index`; returns false if it was there already.
    pub fn insert(&mut self, index: u64) -> bool {
        if self.contains(index) {
            return false;
        }
        // Join the range ending at `index` and the one starting after it, if any.
        let before = self
            .ranges
            .range(..index)
            .next_back()
            .filter(|&(_, &end)| end == index)
            .map(|(&start, _)| start);
        let after = index
            .checked_add(1)
            .and_then(|next| self.ranges.remove(&next).map(|end| (next, end)));
        let start = before.unwrap_or(index);
        let end = after.map_or(index.saturating_add(1), |(_, end)| end);
        // `u64::MAX` itself cannot be stored as an exclusive end; no schedule reaches it
        // (experiments are capped well below, see `Experiment::from_toml`).
        self.ranges.insert(start, end);
        self.count += 1;
        true
    }

    /// The number of indices of the set in `lo..hi`.
    pub fn count_within(&self, lo: u64, hi: u64) -> u64 {
        if lo >= hi {
            return 0;
        }
        // The range that starts before `lo` may reach into `lo..hi`.
        let before = self
            .ranges
            .range(..lo)
            .next_back()
            .map_or(0, |(_, &end)| end.min(hi).saturating_sub(lo));
        before
            + self
                .ranges
                .range(lo..hi)
                .map(|(&start, &end)| end.min(hi) - start)
                .sum::<u64>()
    }

    /// The first `limit` indices below `hi` that are not in the set, in increasing order.
    pub fn missing(&self, hi: u64, limit: usize) -> Vec<u64> {
        let mut out = Vec::new();
        let mut next = 0u64;
        let mut gaps = self.ranges.iter().map(|(&s, &e)| (s, e));
        while out.len() < limit && next < hi {
            match gaps.next() {
                Some((start, end)) => {
                    out.extend((next..start.min(hi)).take(limit - out.len()));
                    next = next.max(end);
                }
                None => {
                    out.extend((next..hi).take(limit - out.len()));
                    break;
                }
            }
        }
        out
    }

    /// The largest index in the set.
    pub fn last(&self) -> Option<u64> {
        self.ranges.values().next_back().map(|&end| end - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_join_and_split_as_indices_come() {
        let mut set = Recorded::new();
        assert!(set.is_empty());
        for index in [0, 1, 2, 5, 4, 9, 3] {
            assert!(set.insert(index), "{index}");
        }
        assert!(!set.insert(4));
        assert_eq!(set.len(), 7);
        assert_eq!(set.ranges(), 2, "{set:?}");
        for index in 0..12 {
            assert_eq!(
                set.contains(index),
                [0, 1, 2, 3, 4, 5, 9].contains(&index),
                "{index}"
            );
        }
        assert_eq!(set.last(), Some(9));
        assert_eq!(set.missing(12, 10), [6, 7, 8, 10, 11]);
        assert_eq!(set.missing(12, 2), [6, 7]);
        assert_eq!(set.missing(4, 10), Vec::<u64>::new());
        assert_eq!(Recorded::new().missing(3, 10), [0, 1, 2]);
    }

    #[test]
    fn a_prefix_takes_one_range() {
        let mut set = Recorded::new();
        for index in 0..100_000 {
            set.insert(index);
        }
        assert_eq!(set.ranges(), 1);
        assert_eq!(set.len(), 100_000);
        assert!(!set.contains(100_000));
    }

    #[test]
    fn agrees_with_a_plain_set_on_random_insertions() {
        let mut state = 7u64;
        let mut set = Recorded::new();
        let mut plain = std::collections::BTreeSet::new();
        for _ in 0..5_000 {
            state = rules::splitmix64(state);
            let index = state % 700;
            assert_eq!(set.insert(index), plain.insert(index));
        }
        for index in 0..710 {
            assert_eq!(set.contains(index), plain.contains(&index));
        }
        for (lo, hi) in [(0, 700), (13, 14), (100, 350), (699, 800), (5, 3)] {
            let expected = plain.iter().filter(|&&i| lo <= i && i < hi).count() as u64;
            assert_eq!(set.count_within(lo, hi), expected, "{lo}..{hi}");
        }
        assert_eq!(set.len(), plain.len() as u64);
        assert_eq!(set.last(), plain.last().copied());
    }
}
