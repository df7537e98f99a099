//! The features of the pattern evaluation: which squares each pattern covers, where its
//! instances lie on the board, and how a position turns into weight-table indices.
//!
//! The trainer (`outflank-train`) fits its weights over these very features ([`features`],
//! [`mirror_index`], [`TABLE_OFFSETS`]), so what it fits is by construction what the engine
//! evaluates.
//!
//! # Patterns
//!
//! | table | squares | instances | entries |
//! |---|---|---|---|
//! | edge + 2 X-squares | `a1`–`h1`, `b2`, `g2` | 4 | 3¹⁰ |
//! | corner 3×3 | `a1`–`c3` | 4 | 3⁹ |
//! | corner 2×5 | `a1`–`e1`, `a2`–`e2` | 8 (both orientations) | 3¹⁰ |
//! | line, row 2 | `a2`–`h2` | 4 | 3⁸ |
//! | line, row 3 | `a3`–`h3` | 4 | 3⁸ |
//! | line, row 4 | `a4`–`h4` | 4 | 3⁸ |
//! | diagonal 8 | `a1`–`h8` | 2 | 3⁸ |
//! | diagonal 7 | `b1`–`h7` | 4 | 3⁷ |
//! | diagonal 6 | `c1`–`h6` | 4 | 3⁶ |
//! | diagonal 5 | `d1`–`h5` | 4 | 3⁵ |
//! | diagonal 4 | `e1`–`h4` | 4 | 3⁴ |
//! | mobility of the mover | legal moves, 0–35 | 1 | 36 |
//! | mobility of the opponent | its legal moves, 0–35 | 1 | 36 |
//! | parity | number of empties, even or odd | 1 | 2 |
//!
//! Every instance is the image of the table's squares (in the order above) under one of the
//! eight symmetries of the board, so all instances of a pattern share one table. The index of
//! an instance is base 3 over its squares, the first square the lowest digit: 0 empty, 1 the
//! mover's disc, 2 the opponent's. A pattern that some symmetry maps onto itself (an edge onto
//! its mirror image, a diagonal onto itself reversed, the 3×3 corner onto its transpose) gets
//! equal weights for an index and its mirrored index ([`mirror_index`]); with that, the
//! evaluation of a position equals the evaluation of each of its 8 symmetric images exactly.
//!
//! # Extraction
//!
//! Instead of reading squares one by one, the features are read from four views of the board
//! (as is, flipped top–bottom, transposed, transposed then flipped): in each view, the top
//! edge, the rows 2–4 and the corner blocks are a shift and a mask away, and diagonals are
//! gathered into one byte by a multiplication (each column holds at most one square of a
//! diagonal, so the partial products never collide). Small tables turn the gathered bits into
//! base-3 digits; the weight index is `digits(mover) + 2 · digits(opponent)`.

/// Number of weight tables (patterns and scalar features).
pub const TABLES: usize = 14;

/// Entries of each weight table.
pub const TABLE_SIZES: [usize; TABLES] =
    [59049, 19683, 59049, 6561, 6561, 6561, 6561, 2187, 729, 243, 81, 36, 36, 2];

/// Instances of each table in a position.
const TABLE_INSTANCES: [usize; TABLES] = [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 1, 1, 1];

/// Features (weight lookups) in one position.
pub const FEATURES: usize = {
    let mut total = 0;
    let mut t = 0;
    while t < TABLES {
        total += TABLE_INSTANCES[t];
        t += 1;
    }
    total
};

/// Where each table starts in the weights of one phase.
pub const TABLE_OFFSETS: [usize; TABLES] = {
    let mut offsets = [0; TABLES];
    let mut t = 1;
    while t < TABLES {
        offsets[t] = offsets[t - 1] + TABLE_SIZES[t - 1];
        t += 1;
    }
    offsets
};

/// Weights of one phase: all tables one after the other.
pub const PHASE_LEN: usize = TABLE_OFFSETS[TABLES - 1] + TABLE_SIZES[TABLES - 1];

/// Number of phases (weight sets).
pub const PHASES: usize = 12;

/// Empties per phase: phase `k` serves `5k`–`5k + 4` empties (the last one 55–60).
pub const PHASE_WIDTH: u32 = 5;

/// The phase of a position with `empties` empty squares.
#[inline(always)]
pub const fn phase(empties: u32) -> usize {
    let k = (empties / PHASE_WIDTH) as usize;
    if k < PHASES { k } else { PHASES - 1 }
}

/// Largest mobility told apart by the mobility tables (higher counts share the last entry).
const MOBILITY_MAX: u32 = 35;

/// `TERNARY[b]`: the bits of `b` as base-3 digits 0/1, bit 0 the lowest digit.
static TERNARY: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut value = 0u16;
        let mut power = 1u16;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[b] = value;
        b += 1;
    }
    table
};

/// `REVERSED_3[b]`: three bits as base-3 digits, bit 0 the highest digit.
static REVERSED_3: [u16; 8] = [0, 9, 3, 12, 1, 10, 4, 13];

/// `REVERSED_5[b]`: five bits as base-3 digits, bit 0 the highest digit.
static REVERSED_5: [u16; 32] = {
    let mut table = [0u16; 32];
    let mut b = 0;
    while b < 32 {
        let mut value = 0u16;
        let mut bit = 0;
        while bit < 5 {
            if b & (1 << bit) != 0 {
                value += [81, 27, 9, 3, 1][bit];
            }
            bit += 1;
        }
        table[b] = value;
        b += 1;
    }
    table
};

/// The board flipped top to bottom (row 1 becomes row 8).
#[inline(always)]
pub(crate) const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// The board mirrored left to right (column a becomes column h).
#[inline(always)]
pub(crate) const fn mirror_horizontal(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// The board reflected in the `a1`–`h8` diagonal: the square in row r, column c goes to
/// row c, column r.
#[inline(always)]
pub(crate) const fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The image of `x` under symmetry `s` (0–7): bit 0 flips top–bottom, bit 1 mirrors
/// left–right, bit 2 transposes (applied first).
#[inline]
pub(crate) const fn symmetry(x: u64, s: u8) -> u64 {
    let mut x = if s & 4 != 0 { transpose(x) } else { x };
    if s & 2 != 0 {
        x = mirror_horizontal(x);
    }
    if s & 1 != 0 {
        x = flip_vertical(x);
    }
    x
}

/// The smallest of the 8 symmetric images of the position (mover, opponent): equal for two
/// positions exactly when one is a symmetric image of the other.
pub fn canonical(p: u64, o: u64) -> (u64, u64) {
    (0..8).map(|s| (symmetry(p, s), symmetry(o, s))).min().unwrap_or((p, o))
}

/// Base-3 digits of the top edge and its two X-squares (`a1`…`h1`, `b2`, `g2`).
#[inline(always)]
fn edge(x: u64) -> usize {
    TERNARY[(x & 0xFF) as usize] as usize
        + 6561 * ((x >> 9) & 1) as usize
        + 19683 * ((x >> 14) & 1) as usize
}

/// The 3×3 corner at `a1` (`a1 b1 c1 a2 b2 c2 a3 b3 c3`).
#[inline(always)]
fn corner_3x3_a1(x: u64) -> usize {
    TERNARY[(x & 7) as usize] as usize
        + 27 * TERNARY[((x >> 8) & 7) as usize] as usize
        + 729 * TERNARY[((x >> 16) & 7) as usize] as usize
}

/// The 3×3 corner at `h1`, mirrored (`h1 g1 f1 h2 g2 f2 h3 g3 f3`).
#[inline(always)]
fn corner_3x3_h1(x: u64) -> usize {
    REVERSED_3[((x >> 5) & 7) as usize] as usize
        + 27 * REVERSED_3[((x >> 13) & 7) as usize] as usize
        + 729 * REVERSED_3[((x >> 21) & 7) as usize] as usize
}

/// The 2×5 corner at `a1` (`a1`…`e1`, `a2`…`e2`).
#[inline(always)]
fn corner_2x5_a1(x: u64) -> usize {
    TERNARY[(x & 31) as usize] as usize + 243 * TERNARY[((x >> 8) & 31) as usize] as usize
}

/// The 2×5 corner at `h1`, mirrored (`h1`…`d1`, `h2`…`d2`).
#[inline(always)]
fn corner_2x5_h1(x: u64) -> usize {
    REVERSED_5[((x >> 3) & 31) as usize] as usize
        + 243 * REVERSED_5[((x >> 11) & 31) as usize] as usize
}

/// Row `r` (0-based), `a` first.
#[inline(always)]
fn row(x: u64, r: u32) -> usize {
    TERNARY[((x >> (8 * r)) & 0xFF) as usize] as usize
}

/// The `a1`–`h8` diagonal and those `k` columns to its right (`c - r = k`) or `k` rows below
/// it (`r - c = k`), gathered into one byte by column, then as base-3 digits (column `a` or
/// the leftmost square first).
#[inline(always)]
fn diagonal(x: u64, mask: u64, shift: u32) -> usize {
    TERNARY[(((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> shift) as usize & 0xFF] as usize
}

/// The `a1`–`h8` diagonal.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The diagonal `c - r = k` above the `a1`–`h8` one: `DIAGONAL` moved `k` columns right,
/// without the squares that wrapped into the next row.
const fn above(k: u32) -> u64 {
    let columns = (0xFFu64 << k) & 0xFF;
    (DIAGONAL << k) & (columns * 0x0101_0101_0101_0101)
}

/// Masks of the diagonals `c - r = k` (above) and `r - c = k` (below) for k = 1–4. After
/// gathering, the squares of `above(k)` sit in bits `k`–7 of the top byte, those of the one
/// below in bits 0–(7 - k).
const DIAGONALS: [(u64, u64, u32); 4] = [
    (above(1), DIAGONAL << 8, 57),
    (above(2), DIAGONAL << 16, 58),
    (above(3), DIAGONAL << 24, 59),
    (above(4), DIAGONAL << 32, 60),
];

/// Gives each feature of the position (mover `p`, opponent `o`, with `moves_p` and `moves_o`
/// legal moves) to `emit` as an index into the weights of one phase
/// (see [`TABLE_OFFSETS`]), table by table in the order of [`TABLE_SIZES`].
#[inline(always)]
pub fn features(p: u64, o: u64, moves_p: u32, moves_o: u32, mut emit: impl FnMut(usize)) {
    let vp = flip_vertical(p);
    let vo = flip_vertical(o);
    let tp = transpose(p);
    let to = transpose(o);
    let tvp = flip_vertical(tp);
    let tvo = flip_vertical(to);
    let views = [(p, o), (vp, vo), (tp, to), (tvp, tvo)];

    for &(x, y) in &views {
        emit(TABLE_OFFSETS[0] + edge(x) + 2 * edge(y));
    }
    for &(x, y) in &views[..2] {
        emit(TABLE_OFFSETS[1] + corner_3x3_a1(x) + 2 * corner_3x3_a1(y));
        emit(TABLE_OFFSETS[1] + corner_3x3_h1(x) + 2 * corner_3x3_h1(y));
    }
    for &(x, y) in &views {
        emit(TABLE_OFFSETS[2] + corner_2x5_a1(x) + 2 * corner_2x5_a1(y));
        emit(TABLE_OFFSETS[2] + corner_2x5_h1(x) + 2 * corner_2x5_h1(y));
    }
    for r in 1..4 {
        let offset = TABLE_OFFSETS[2 + r as usize];
        for &(x, y) in &views {
            emit(offset + row(x, r) + 2 * row(y, r));
        }
    }
    for &(x, y) in &views[..2] {
        emit(TABLE_OFFSETS[6] + diagonal(x, DIAGONAL, 56) + 2 * diagonal(y, DIAGONAL, 56));
    }
    for (k, &(above, below, shift)) in DIAGONALS.iter().enumerate() {
        let offset = TABLE_OFFSETS[7 + k];
        for &(x, y) in &views[..2] {
            emit(offset + diagonal(x, above, shift) + 2 * diagonal(y, above, shift));
            emit(offset + diagonal(x, below, 56) + 2 * diagonal(y, below, 56));
        }
    }
    emit(TABLE_OFFSETS[11] + moves_p.min(MOBILITY_MAX) as usize);
    emit(TABLE_OFFSETS[12] + moves_o.min(MOBILITY_MAX) as usize);
    let empties = (!(p | o)).count_ones();
    emit(TABLE_OFFSETS[13] + (empties & 1) as usize);
}

/// The index of `index` (of table `table`) with its squares permuted by the symmetry that maps
/// the pattern onto itself, or `index` itself for a pattern without one (the 2×5 corner and
/// the scalar features). Training ties the weights of an index and its mirror image.
pub fn mirror_index(table: usize, index: usize) -> usize {
    // For each table, the digit that each digit moves to.
    let permutation: &[usize] = match table {
        0 => &[7, 6, 5, 4, 3, 2, 1, 0, 9, 8],
        1 => &[0, 3, 6, 1, 4, 7, 2, 5, 8],
        3..=6 => &[7, 6, 5, 4, 3, 2, 1, 0],
        7 => &[6, 5, 4, 3, 2, 1, 0],
        8 => &[5, 4, 3, 2, 1, 0],
        9 => &[4, 3, 2, 1, 0],
        10 => &[3, 2, 1, 0],
        _ => return index,
    };
    let mut digits = [0usize; 10];
    let mut rest = index;
    for digit in digits.iter_mut().take(permutation.len()) {
        *digit = rest % 3;
        rest /= 3;
    }
    let mut mirrored = 0;
    let mut power = 1;
    for (d, _) in permutation.iter().enumerate() {
        // Digit d of the mirrored index is the digit that moves to position d.
        let source = permutation.iter().position(|&to| to == d).unwrap_or(d);
        mirrored += digits[source] * power;
        power *= 3;
    }
    mirrored
}
