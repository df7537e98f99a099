//! The transposition table: proven score bounds and the best move of positions already solved.
//!
//! Entries keep the whole position, so a hit is never a collision. Each bucket holds two
//! entries: one kept for the position with the most empties (the most work to redo), one
//! always replaced.

/// No move stored.
pub(super) const NO_MOVE: u8 = 64;

/// What is known about one position.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    player: u64,
    opponent: u64,
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best (or first refuting) move found, or [`NO_MOVE`].
    pub best: u8,
    /// Empty squares of the position: how much work the entry saves.
    empties: u8,
}

/// A fixed-size table, allocated once per solve.
#[derive(Debug)]
pub(super) struct Table {
    entries: Vec<Entry>,
    /// Right shift taking a 64-bit hash to a bucket number.
    shift: u32,
}

impl Table {
    /// A table of `2^bits` buckets (two entries each), every entry empty.
    pub fn new(bits: u32) -> Table {
        Table { entries: vec![Entry::default(); 2 << bits], shift: 64 - bits }
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        let mixed = player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ opponent.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let mixed = mixed ^ (mixed >> 31);
        2 * (mixed.wrapping_mul(0xFF51_AFD7_ED55_8CCD) >> self.shift) as usize
    }

    /// The entry of this position, if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let at = self.bucket(player, opponent);
        self.entries[at..at + 2]
            .iter()
            .find(|e| e.player == player && e.opponent == opponent && e.empties != 0)
            .copied()
    }

    /// Records that a search of the position with window `(alpha, beta)` returned `score`
    /// with `best` as its best move, merging with what is already known.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        player: u64,
        opponent: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let (lower, upper) = if score <= alpha {
            (-64, score)
        } else if score >= beta {
            (score, 64)
        } else {
            (score, score)
        };
        let at = self.bucket(player, opponent);
        let slot = if let Some(i) = (at..at + 2)
            .find(|&i| self.entries[i].player == player && self.entries[i].opponent == opponent)
        {
            let old = self.entries[i];
            if old.empties != 0 {
                let lower = lower.max(i32::from(old.lower));
                let upper = upper.min(i32::from(old.upper));
                let best = if best == NO_MOVE { old.best } else { best };
                self.entries[i] = Entry {
                    player,
                    opponent,
                    lower: lower as i8,
                    upper: upper as i8,
                    best,
                    empties: empties as u8,
                };
                return;
            }
            i
        } else if empties as u8 >= self.entries[at].empties {
            // The first entry keeps the deepest position; the one it displaces moves down.
            self.entries[at + 1] = self.entries[at];
            at
        } else {
            at + 1
        };
        self.entries[slot] = Entry {
            player,
            opponent,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
    }
}
