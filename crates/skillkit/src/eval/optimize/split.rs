//! The stratified, seeded train/test split of a suite's queries for one skill (see the
//! optimizer's module doc): each class shuffled with a generator fixed here and
//! `max(1, floor(n × holdout))` of it, at most `n − 1`, in the test split.

use super::types::{OptimizeError, Split};
use crate::eval::suite::Case;

/// The stratified split of `cases` for `skill` (see the module doc).
pub fn split(cases: &[Case], skill: &str, holdout: f64, seed: u64) -> Result<Split, OptimizeError> {
    if !(holdout > 0.0 && holdout < 1.0) {
        return Err(OptimizeError::Options(format!("--holdout {holdout}: a share strictly between 0 and 1")));
    }
    let (pos, neg): (Vec<usize>, Vec<usize>) = (0..cases.len()).partition(|&i| cases[i].expect == skill);
    if pos.len() < 2 || neg.len() < 2 {
        return Err(OptimizeError::Suite(format!(
            "the suite has {} quer{} that should trigger `{skill}` and {} that should not; the split needs at least 2 of each",
            pos.len(),
            if pos.len() == 1 { "y" } else { "ies" },
            neg.len()
        )));
    }
    let mut rng = SplitMix(seed);
    let mut test = vec![false; cases.len()];
    for mut class in [pos, neg] {
        // Fisher–Yates with the seeded generator: the same seed, the same split, everywhere.
        for i in (1..class.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            class.swap(i, j);
        }
        let n = class.len();
        let k = ((n as f64 * holdout).floor() as usize).clamp(1, n - 1);
        for &i in &class[..k] {
            test[i] = true;
        }
    }
    let ids = |want: bool| cases.iter().zip(&test).filter(|(_, &t)| t == want).map(|(c, _)| c.id.clone()).collect();
    Ok(Split { train: ids(false), test: ids(true) })
}

/// SplitMix64: a small generator whose sequence is fixed here, not by a crate's version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
