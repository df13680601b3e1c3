//! What the crate's own property tests share.

use proptest::test_runner::Config;

/// `cases` per property unless `PROPTEST_CASES` says otherwise (the long
/// campaign, bench/fuzz.py); failures are reported, not persisted.
pub fn proptest_config(cases: u32) -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config.failure_persistence = None;
    config
}
