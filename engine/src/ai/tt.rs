//! The transposition table: results of searched positions, keyed by the full position.

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Bound {
    /// Nothing stored.
    #[default]
    Empty,
    /// The true score is exactly this.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored result. The whole position is the key, so a hit is never a collision.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    player: u64,
    opponent: u64,
    pub(crate) score: i16,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    /// Square index of the best move found, or [`NO_MOVE`].
    pub(crate) best: u8,
}

/// `Entry::best` when no move is known.
pub(crate) const NO_MOVE: u8 = 64;

/// A fixed-size table of two-entry buckets: the first slot keeps the deeper result, the second
/// takes whatever does not replace the first.
#[derive(Debug)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

/// A well-mixed 64-bit hash of a position (a fixed function: no per-process keys).
#[inline]
pub(crate) fn hash(player: u64, opponent: u64) -> u64 {
    let mut h = player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opponent.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

impl Table {
    /// A table with about `entries` entries (rounded to a power of two, at least 2).
    pub(crate) fn new(entries: usize) -> Table {
        let size = entries.next_power_of_two().max(2);
        Table { entries: vec![Entry::default(); size], mask: size - 2 }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        hash(player, opponent) as usize & self.mask
    }

    /// The stored result for this position, if any.
    #[inline]
    pub(crate) fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let at = self.bucket(player, opponent);
        self.entries[at..at + 2]
            .iter()
            .find(|e| e.bound != Bound::Empty && e.player == player && e.opponent == opponent)
            .copied()
    }

    /// Stores a result. Scores must fit in an `i16` (search scores are within ±12 800).
    #[inline]
    pub(crate) fn store(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u32,
        score: i32,
        bound: Bound,
        best: u8,
    ) {
        let entry = Entry {
            player,
            opponent,
            score: score as i16,
            depth: depth.min(u8::MAX.into()) as u8,
            bound,
            best,
        };
        let at = self.bucket(player, opponent);
        let first = &self.entries[at];
        let same = first.player == player && first.opponent == opponent;
        let slot = if same || first.bound == Bound::Empty || entry.depth >= first.depth {
            at
        } else {
            at + 1
        };
        self.entries[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_results_are_found_by_the_exact_position_only() {
        let mut table = Table::new(1024);
        table.store(1, 2, 5, -300, Bound::Lower, 19);
        let entry = table.probe(1, 2).expect("stored");
        assert_eq!(
            (entry.score, entry.depth, entry.bound, entry.best),
            (-300, 5, Bound::Lower, 19)
        );
        assert!(table.probe(2, 1).is_none());
        table.clear();
        assert!(table.probe(1, 2).is_none());
    }
}
