//! The transposition table: proven score bounds and the best move of positions already solved.
//!
//! Entries keep the whole position, so a hit is never a collision. Each bucket holds two
//! entries in one cache line (a probe is one memory access): one kept for the position with
//! the most empties (the most work to redo), one always replaced.
//!
//! Several threads of one solve share the table without locks. An entry is three words: the
//! packed data, and each half of the position XOR-ed with the data. A reader checks both
//! halves against the position it looks for; an entry half-written by another thread fails
//! the check and reads as a miss (the classic lockless hashing scheme), so a thread only ever
//! sees bounds some search really proved for that position.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// No move stored.
pub(super) const NO_MOVE: u8 = 64;

/// What is known about one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best (or first refuting) move found, or [`NO_MOVE`].
    pub best: u8,
    /// Empty squares of the position: how much work the entry saves (0: an empty slot).
    empties: u8,
    /// Whether the bounds come from a selective search ([`super::search`]'s presearch): likely,
    /// not proven. An exact search takes only the move of such an entry.
    pub selective: bool,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
            | u64::from(self.selective) << 32
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            selective: data >> 32 & 1 == 1,
        }
    }
}

/// One slot: the packed entry and the position, each half XOR-ed with it.
#[derive(Debug, Default)]
struct Slot {
    data: AtomicU64,
    player: AtomicU64,
    opponent: AtomicU64,
}

impl Slot {
    /// The slot's position and entry, if its words agree with each other.
    #[inline]
    fn read(&self) -> (u64, u64, Entry) {
        let data = self.data.load(Relaxed);
        let player = self.player.load(Relaxed) ^ data;
        let opponent = self.opponent.load(Relaxed) ^ data;
        (player, opponent, Entry::unpack(data))
    }

    #[inline]
    fn holds(&self, player: u64, opponent: u64) -> Option<Entry> {
        let (p, o, entry) = self.read();
        (p == player && o == opponent && entry.empties != 0).then_some(entry)
    }

    #[inline]
    fn write(&self, player: u64, opponent: u64, entry: Entry) {
        let data = entry.pack();
        self.data.store(data, Relaxed);
        self.player.store(player ^ data, Relaxed);
        self.opponent.store(opponent ^ data, Relaxed);
    }
}

/// Two slots, aligned to a cache line so that a probe touches one line only.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; 2],
}

/// A fixed-size table, allocated once per solve and shared by its threads.
#[derive(Debug)]
pub(super) struct Table {
    buckets: Vec<Bucket>,
    /// Right shift taking a 64-bit hash to a bucket number.
    shift: u32,
}

impl Table {
    /// A table of `2^bits` buckets (two entries each), every entry empty.
    pub fn new(bits: u32) -> Table {
        let buckets = (0..1usize << bits).map(|_| Bucket::default()).collect();
        Table { buckets, shift: 64 - bits }
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> &Bucket {
        let mixed = player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ opponent.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let mixed = mixed ^ (mixed >> 31);
        let at = mixed.wrapping_mul(0xFF51_AFD7_ED55_8CCD).checked_shr(self.shift).unwrap_or(0);
        &self.buckets[at as usize]
    }

    /// The entry of this position, if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        self.bucket(player, opponent).slots.iter().find_map(|slot| slot.holds(player, opponent))
    }

    /// Records that a search of the position with window `(alpha, beta)` returned `score`
    /// with `best` as its best move, merging with what is already known. Proven bounds
    /// replace selective ones, and selective bounds never replace proven ones.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        player: u64,
        opponent: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
        selective: bool,
    ) {
        let (lower, upper) = if score <= alpha {
            (-64, score)
        } else if score >= beta {
            (score, 64)
        } else {
            (score, score)
        };
        let mut entry = Entry {
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            selective,
        };
        let [first, second] = &self.bucket(player, opponent).slots;
        let slot = if let Some((slot, old)) = [first, second]
            .into_iter()
            .find_map(|slot| slot.holds(player, opponent).map(|old| (slot, old)))
        {
            if selective && !old.selective {
                // Proven bounds are worth more than likely ones.
                return;
            }
            if selective == old.selective {
                entry.lower = entry.lower.max(old.lower);
                entry.upper = entry.upper.min(old.upper);
            }
            if best == NO_MOVE {
                entry.best = old.best;
            }
            slot
        } else {
            let (p, o, kept) = first.read();
            if entry.empties >= kept.empties {
                // The first slot keeps the deepest position; the one it displaces moves down.
                second.write(p, o, kept);
                first
            } else {
                second
            }
        };
        slot.write(player, opponent, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_bound_is_read_back_for_its_position_only() {
        let table = Table::new(10);
        table.store(1, 2, 12, -5, 5, 3, 17, false);
        assert_eq!(
            table.probe(1, 2),
            Some(Entry { lower: 3, upper: 3, best: 17, empties: 12, selective: false })
        );
        assert_eq!(table.probe(2, 1), None);
    }

    #[test]
    fn bounds_of_one_position_are_merged() {
        let table = Table::new(10);
        // At least 8 (a cut above the window), then at most 10 (below a later window).
        table.store(1, 2, 12, -5, 5, 8, 17, false);
        table.store(1, 2, 12, 12, 20, 10, NO_MOVE, false);
        let entry = table.probe(1, 2).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (8, 10, 17));
    }

    #[test]
    fn the_deepest_position_of_a_bucket_is_kept_when_another_arrives() {
        let table = Table::new(0);
        table.store(1, 2, 20, -5, 5, 1, 3, false);
        table.store(3, 4, 10, -5, 5, 1, 3, false);
        table.store(5, 6, 11, -5, 5, 1, 3, false);
        assert!(table.probe(1, 2).is_some());
        assert!(table.probe(3, 4).is_none());
        assert!(table.probe(5, 6).is_some());
    }

    #[test]
    fn negative_scores_survive_packing() {
        for (lower, upper) in [(-64, 64), (-1, 0), (-64, -64), (63, 64)] {
            for selective in [false, true] {
                let entry = Entry { lower, upper, best: NO_MOVE, empties: 30, selective };
                assert_eq!(Entry::unpack(entry.pack()), entry);
            }
        }
    }

    #[test]
    fn a_selective_bound_never_replaces_a_proven_one() {
        let table = Table::new(10);
        table.store(1, 2, 12, -5, 5, 3, 17, false);
        table.store(1, 2, 12, -5, 5, 9, 20, true);
        let entry = table.probe(1, 2).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best, entry.selective), (3, 3, 17, false));
    }

    #[test]
    fn a_proven_bound_replaces_a_selective_one_whole_and_keeps_its_move_if_it_has_none() {
        let table = Table::new(10);
        table.store(1, 2, 12, -5, 5, 9, 20, true);
        // At most 2: merged with the likely 9, it would read as an empty range.
        table.store(1, 2, 12, 2, 5, 2, NO_MOVE, false);
        let entry = table.probe(1, 2).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best, entry.selective), (-64, 2, 20, false));
    }
}
