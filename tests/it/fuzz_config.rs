//! The property tests' configuration, shared by the fuzz_* test files.

use proptest::test_runner::Config as ProptestConfig;

/// 64 cases per property unless `PROPTEST_CASES` says otherwise (the
/// long campaign, bench/fuzz.py); failures are reported, not persisted.
pub fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 64;
    }
    config.failure_persistence = None;
    config
}
