//! Helpers shared by the crate's unit tests.

/// Pseudo-random numbers, the same every run (xorshift64 from `state`, which must not be 0).
pub(crate) fn numbers(mut state: u64) -> impl Iterator<Item = u64> {
    std::iter::repeat_with(move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    })
}
