//! A small seeded random number generator (SplitMix64): the same seed gives the same stream
//! on every machine.

/// SplitMix64 (Steele, Lea and Flood's mixer of a Weyl sequence).
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// Mixes 64 bits into 64 well-spread bits (the SplitMix64 finaliser).
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator for `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for stream `stream` of `seed` (e.g. one per game).
    pub const fn for_stream(seed: u64, stream: u64) -> Rng {
        Rng(mix(seed ^ 0x6A09_E667_F3BC_C909) ^ mix(stream.wrapping_add(0x3C6E_F372_FE94_F82B)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0), by multiply-shift (bias below 2⁻³²).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `0.0..1.0`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
