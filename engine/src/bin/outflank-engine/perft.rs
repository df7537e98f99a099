//! `perft <depth>`: leaves of the game tree from the start, with the speed.

use std::time::Instant;

use outflank_engine::{Board, perft};

use crate::CliError;

/// Deepest depth accepted; deeper counts take hours.
const MAX_DEPTH: u32 = 14;

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let [depth] = args else {
        return Err(CliError("perft takes one argument: the depth".into()));
    };
    let depth: u32 = depth.parse().ok().filter(|d| *d <= MAX_DEPTH).ok_or_else(|| {
        CliError(format!("depth {depth:?} is not a number from 0 to {MAX_DEPTH}"))
    })?;
    let started = Instant::now();
    let leaves = perft(&Board::start(), depth);
    let seconds = started.elapsed().as_secs_f64();
    let rate = leaves as f64 / seconds.max(1e-9);
    if json {
        let value = serde_json::json!({
            "depth": depth, "leaves": leaves, "seconds": seconds, "leaves_per_second": rate.round(),
        });
        println!("{value}");
    } else {
        println!("perft({depth}) = {leaves} in {seconds:.3} s ({:.1} M leaves/s)", rate / 1e6);
    }
    Ok(())
}
