//! Blending two weight files: each weight the share-weighted mean, rounded to nearest.

use outflank_engine::ai::pattern::layout::{PHASE_LEN, PHASES};
use outflank_engine::ai::pattern::weights::Weights;
use outflank_train::blend::{BlendError, blend, blend_files};

/// Weights whose every value is `value`, except the first, which is `first`.
fn weights(first: i16, value: i16) -> Weights {
    let mut values = vec![value; PHASES * PHASE_LEN];
    values[0] = first;
    Weights::from_values(values)
}

#[test]
fn each_weight_is_the_share_weighted_mean_rounded_to_nearest() {
    let blended = blend(&weights(-7, 100), &weights(9, 0), 0.7).unwrap();
    // 0.7 × -7 + 0.3 × 9 = -2.2; 0.7 × 100 = 70.
    assert_eq!(blended.values()[0], -2);
    assert!(blended.values()[1..].iter().all(|&v| v == 70));
    // Halves go away from zero: (-7 + 8) / 2 and (-8 + 7) / 2.
    assert_eq!(blend(&weights(-7, 0), &weights(8, 0), 0.5).unwrap().values()[0], 1);
    assert_eq!(blend(&weights(-8, 0), &weights(7, 0), 0.5).unwrap().values()[0], -1);
}

#[test]
fn a_share_of_one_or_zero_gives_one_file_unchanged() {
    let (first, second) = (weights(-300, 12), weights(41, -9));
    assert_eq!(blend(&first, &second, 1.0).unwrap().values(), first.values());
    assert_eq!(blend(&first, &second, 0.0).unwrap().values(), second.values());
}

#[test]
fn a_file_blended_with_itself_is_unchanged_even_at_the_extremes() {
    let blended = blend(&weights(i16::MIN, i16::MAX), &weights(i16::MIN, i16::MAX), 0.3).unwrap();
    assert_eq!(blended.values()[0], i16::MIN);
    assert_eq!(blended.values()[1], i16::MAX);
}

#[test]
fn a_share_outside_zero_to_one_is_refused() {
    for share in [-0.1, 1.5, f64::NAN] {
        let refused = blend(&weights(0, 0), &weights(0, 0), share);
        assert!(matches!(refused, Err(BlendError::Share(_))), "{share}");
    }
}

#[test]
fn files_are_read_checked_and_the_blend_written() {
    let dir = std::env::temp_dir().join(format!("outflank-blend-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (first, second, out) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("out.bin"));
    std::fs::write(&first, weights(10, 20).to_bytes()).unwrap();
    std::fs::write(&second, weights(30, 40).to_bytes()).unwrap();
    blend_files(&first, &second, 0.5, &out).unwrap();
    let written = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written.values()[..2], [20, 30]);
    assert!(!dir.join("out.bin.partial").exists(), "written in place of the partial file");

    // A damaged file is refused and nothing is written.
    std::fs::write(&second, b"not weights").unwrap();
    std::fs::remove_file(&out).unwrap();
    let refused = blend_files(&first, &second, 0.5, &out);
    assert!(matches!(refused, Err(BlendError::Weights { path, .. }) if path == second));
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
