//! The transposition table: a fixed-size hash table of search results, allocated on the first
//! search (zeroed pages come from the operating system lazily, so a large table costs nothing
//! until it is used) and emptied between searches by a generation counter, so that one search
//! never changes another's play.
//!
//! Buckets hold two entries: the first keeps the deepest result, the second always takes the
//! newest. A slot of an earlier generation counts as empty in every lookup, so a table's
//! behaviour depends only on what the current search stored. The one exception is
//! [`Table::keep_searching`], for a search under a clock (which no seed reproduces): it also
//! reads the search before it, whose slots count as empty when a result is stored.
//!
//! A dropped table goes to a small pool of its thread, and the next table of the same size
//! built on that thread takes it instead of fresh memory (see [`SPARE`]).

use std::cell::RefCell;

use crate::memory::OutOfMemory;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least the stored one (the search failed high).
    Lower,
    /// The true score is at most the stored one (the search failed low).
    Upper,
}

/// A stored result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The score, relative to the node (see `score::to_node`).
    pub score: i32,
    /// The remaining depth it was searched to (capped at 255).
    pub depth: u32,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// The best move's [`crate::AgentGame::move_index`], if one was found.
    pub mv: Option<usize>,
}

const GENERATION_BITS: u32 = 6;
const GENERATIONS: u8 = 1 << GENERATION_BITS;

/// The table. Each slot is `[key, data]`; data packs the score (bits 0-31), the move index plus
/// one (32-47), the depth (48-55), the bound (56-57) and the generation (58-63).
pub(crate) struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
    megabytes: usize,
    generation: u8,
    /// The oldest generation a lookup reads: the current one, or the one before it after
    /// [`Table::keep_searching`].
    readable: u8,
}

/// A table's memory between two owners, with the generation it reached.
struct Spare {
    slots: Vec<[u64; 2]>,
    generation: u8,
}

/// Tables kept per thread: the two alpha-beta agents of one game.
const SPARE_TABLES: usize = 2;

/// Tables larger than this go back to the system: a spare holds its memory while unused.
const SPARE_MAX_MB: usize = 256;

thread_local! {
    /// Tables of searchers that ended on this thread, kept for the next searcher of the same
    /// size. The arena builds new agents for every game, and faulting in and zeroing a fresh
    /// 64 MiB table each time took a quarter of the default experiment's time, most of it in
    /// the kernel. A reused table behaves exactly as a fresh one, as slots of earlier
    /// generations count as empty; so a game plays the same whichever thread plays it.
    static SPARE: RefCell<Vec<Spare>> = const { RefCell::new(Vec::new()) };
}

impl Drop for Table {
    fn drop(&mut self) {
        if self.slots.is_empty() || self.megabytes > SPARE_MAX_MB {
            return;
        }
        let spare = Spare {
            slots: std::mem::take(&mut self.slots),
            generation: self.generation,
        };
        // A thread that is ending has no pool any more: the memory is then simply freed.
        let _ = SPARE.try_with(|pool| {
            let mut pool = pool.borrow_mut();
            if pool.len() < SPARE_TABLES {
                pool.push(spare);
            }
        });
    }
}

impl Table {
    /// A table of at most `megabytes` MiB, allocated on the first [`Table::new_search`].
    pub(crate) fn new(megabytes: usize) -> Table {
        Table {
            slots: Vec::new(),
            mask: 0,
            megabytes: megabytes.max(1),
            generation: 0,
            readable: 0,
        }
    }

    /// Starts a search: allocates the table if needed (or takes a spare one of its size) and
    /// forgets every stored result. A table the allocator refuses is an error, not an abort.
    pub(crate) fn new_search(&mut self) -> Result<(), OutOfMemory> {
        self.start_search(false)
    }

    /// Starts a search that may read what the search before it stored (the last move's, for
    /// an agent that keeps its table between moves), though it replaces those results first:
    /// a search under a clock, which no seed reproduces anyway, starts with what it knew.
    pub(crate) fn keep_searching(&mut self) -> Result<(), OutOfMemory> {
        self.start_search(true)
    }

    fn start_search(&mut self, keep: bool) -> Result<(), OutOfMemory> {
        // A table without slots is new or takes a spare from the pool: what a spare holds is
        // another table's (another game's, maybe another rule's), so nothing is kept.
        let keep = keep && !self.slots.is_empty();
        let entries = ((self.megabytes << 20) / 16).max(2);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        if self.slots.is_empty() {
            let spare = SPARE
                .try_with(|pool| {
                    let mut pool = pool.borrow_mut();
                    let index = pool.iter().position(|spare| spare.slots.len() == entries)?;
                    Some(pool.swap_remove(index))
                })
                .ok()
                .flatten();
            if let Some(spare) = spare {
                self.slots = spare.slots;
                self.mask = entries / 2 - 1;
                self.generation = spare.generation;
            }
        }
        self.generation += 1;
        if self.slots.is_empty() || self.generation == GENERATIONS {
            // Fresh zeroed memory (all slots of generation 0, never current) instead of
            // clearing 64 MiB by hand; the allocator hands back untouched pages. Asked for
            // fallibly: `vec![0; n]` would abort the process when the memory is not there.
            self.slots = Vec::new();
            self.slots = bytemuck::allocation::try_zeroed_slice_box::<[u64; 2]>(entries)
                .map_err(|()| {
                    OutOfMemory::new("alphabeta", "tt_mb", self.megabytes, (entries * 16) as u64)
                })?
                .into_vec();
            self.mask = entries / 2 - 1;
            self.generation = 1;
        }
        self.readable = if keep && self.generation > 1 {
            self.generation - 1
        } else {
            self.generation
        };
        Ok(())
    }

    /// Whether `slot` holds a result of the current search.
    #[inline]
    fn current(&self, slot: &[u64; 2]) -> bool {
        (slot[1] >> 58) as u8 == self.generation
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The low bits index Zobrist keys well; mix anyway for games with weaker hashes.
        ((key ^ (key >> 32)) as usize & self.mask) * 2
    }

    /// Whether `slot` holds a result a lookup reads: of this search, or of the one before
    /// after [`Table::keep_searching`].
    #[inline]
    fn readable(&self, slot: &[u64; 2]) -> bool {
        let generation = (slot[1] >> 58) as u8;
        generation >= self.readable && generation <= self.generation
    }

    /// The entry packed in a slot's data word.
    #[inline]
    fn unpack(data: u64) -> Entry {
        let mv = ((data >> 32) & 0xFFFF) as usize;
        Entry {
            score: data as u32 as i32,
            depth: ((data >> 48) & 0xFF) as u32,
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            mv: mv.checked_sub(1),
        }
    }

    /// The result stored for `key` in this search (or the one before it, after
    /// [`Table::keep_searching`]), if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let at = self.bucket(key);
        self.slots[at..at + 2]
            .iter()
            .find(|slot| slot[0] == key && self.readable(slot))
            .map(|slot| Self::unpack(slot[1]))
    }

    /// Asks the processor to bring the slots of `key` into its cache, ahead of a
    /// [`Table::probe`] or [`Table::store`] of it: a search computes the key of a node, then
    /// does other work (its immediate wins, say) while the slots arrive from memory. Only a
    /// hint: no effect on what is read or stored; nothing outside x86-64.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slots.get(self.bucket(key)) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch reads nothing the program sees and faults on no address; the
            // pointer is to a slot of this table. `sse` is in every x86-64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr().cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a result for `key`.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        score: i32,
        depth: u32,
        bound: Bound,
        mv: Option<usize>,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let depth = depth.min(255);
        let data = u64::from(score as u32)
            | (mv.map_or(0, |m| m as u64 + 1) & 0xFFFF) << 32
            | u64::from(depth) << 48
            | (match bound {
                Bound::Exact => 0u64,
                Bound::Lower => 1,
                Bound::Upper => 2,
            }) << 56
            | u64::from(self.generation) << 58;
        let at = self.bucket(key);
        let deep = self.slots[at];
        let target = if !self.current(&deep) || deep[0] == key {
            at
        } else if self.slots[at + 1][0] == key && self.current(&self.slots[at + 1]) {
            at + 1
        } else if depth >= ((deep[1] >> 48) & 0xFF) as u32 {
            // The deeper result moves to the always-replace slot rather than vanish.
            self.slots[at + 1] = deep;
            at
        } else {
            at + 1
        };
        self.slots[target] = [key, data];
    }

    /// The bytes it holds (0 before its first search).
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<[u64; 2]>()) as u64
    }

    /// The fraction of slots that hold a result of this search, per mille, from a sample.
    pub(crate) fn permille_full(&self) -> u32 {
        let sample = self.slots.len().min(2000);
        if sample == 0 {
            return 0;
        }
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| self.current(slot))
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_forgets() {
        let mut table = Table::new(1);
        table.new_search().unwrap();
        table.store(42, -(1 << 30), 7, Bound::Lower, Some(300));
        let entry = table.probe(42).unwrap();
        assert_eq!(
            (entry.score, entry.depth, entry.bound, entry.mv),
            (-(1 << 30), 7, Bound::Lower, Some(300))
        );
        assert!(table.probe(43).is_none());
        table.new_search().unwrap();
        assert!(table.probe(42).is_none(), "a new search starts empty");
        for _ in 0..200 {
            table.new_search().unwrap();
        }
        table.store(42, 5, 300, Bound::Exact, None);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.score, entry.depth, entry.mv), (5, 255, None));
    }

    #[test]
    fn a_kept_search_reads_the_one_before_and_replaces_it_first() {
        let mut table = Table::new(1);
        table.new_search().unwrap();
        table.store(42, 17, 9, Bound::Exact, Some(3));
        table.keep_searching().unwrap();
        let entry = table.probe(42).expect("the last search's result is read");
        assert_eq!((entry.score, entry.depth, entry.mv), (17, 9, Some(3)));
        // Two searches back is forgotten, and so is everything after a new search.
        table.keep_searching().unwrap();
        assert!(table.probe(42).is_none(), "only the search before is read");
        table.store(7, 2, 2, Bound::Exact, None);
        table.new_search().unwrap();
        assert!(table.probe(7).is_none(), "a new search starts empty");
        // A result of the search before gives way to this search's, however shallow: a key
        // of the same bucket (the low bits beyond the mask) takes its slot.
        table.store(42, 17, 9, Bound::Exact, Some(3));
        table.keep_searching().unwrap();
        let same_bucket = 42 + (table.mask as u64 + 1);
        table.store(same_bucket, 1, 1, Bound::Upper, None);
        assert_eq!(table.probe(same_bucket).map(|e| e.score), Some(1));
        assert!(table.probe(42).is_none(), "the older result was replaced");
    }

    #[test]
    fn a_kept_search_on_a_spare_table_reads_nothing_of_its_last_owner() {
        let mut before = Table::new(1);
        before.new_search().unwrap();
        before.store(42, 17, 9, Bound::Exact, Some(3));
        drop(before);
        // The next table of that size takes the spare (same thread, same size).
        let mut after = Table::new(1);
        after.keep_searching().unwrap();
        assert!(
            after.probe(42).is_none(),
            "a spare's results are another table's"
        );
        after.store(43, 5, 1, Bound::Exact, None);
        after.keep_searching().unwrap();
        assert_eq!(
            after.probe(43).map(|e| e.score),
            Some(5),
            "its own are kept"
        );
    }

    /// The same searches on a table, as (store: key, score, depth, bound, move) and probes.
    fn searches(table: &mut Table, seed: u64) -> Vec<Option<(i32, u32, Option<usize>)>> {
        let mut state = seed;
        let mut next = move || {
            state = rules::splitmix64(state);
            state
        };
        let mut seen = Vec::new();
        for _ in 0..5 {
            table.new_search().unwrap();
            for _ in 0..40_000 {
                // About three keys per bucket, each coming back in later searches.
                let key = rules::splitmix64(next() % 100_000);
                if next() % 3 == 0 {
                    let entry = table.probe(key);
                    seen.push(entry.map(|e| (e.score, e.depth, e.mv)));
                } else {
                    let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(next() % 3) as usize];
                    table.store(key, next() as i16 as i32, (next() % 12) as u32, bound, None);
                }
            }
        }
        seen
    }

    #[test]
    fn a_spare_table_behaves_as_a_fresh_one() {
        // On a thread of its own, so that the pool starts empty.
        std::thread::spawn(|| {
            let mut used = Table::new(1);
            searches(&mut used, 1);
            drop(used);
            let mut reused = Table::new(1);
            let from_spare = searches(&mut reused, 2);
            assert!(reused.generation > 5, "the spare table was taken");
            let fresh = std::thread::spawn(|| searches(&mut Table::new(1), 2))
                .join()
                .unwrap();
            assert_eq!(from_spare, fresh);
            assert!(fresh.iter().filter(|entry| entry.is_some()).count() > 1000);
        })
        .join()
        .unwrap();
    }
}
