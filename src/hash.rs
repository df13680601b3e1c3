//! FNV-1a, 64 bits: the one hash scout computes itself. It names cache
//! entries and memory files after a path or an id, so it must never
//! change (std's `DefaultHasher` may change between Rust releases and
//! would orphan every entry); and it keys in-memory maps of short words,
//! for which SipHash costs more than the lookup.

use std::hash::{BuildHasherDefault, Hasher};

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// The hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hasher = Fnv1a::default();
    hasher.write(bytes);
    hasher.finish()
}

/// FNV-1a as a [`Hasher`], for maps keyed by short strings.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

/// Builds [`Fnv1a`] hashers: `HashMap<K, V, FnvBuild>`.
pub type FnvBuild = BuildHasherDefault<Fnv1a>;

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(OFFSET)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes
            .iter()
            .fold(self.0, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_has_the_published_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn writes_in_pieces_hash_as_one() {
        let mut hasher = Fnv1a::default();
        hasher.write(b"foo");
        hasher.write(b"bar");
        assert_eq!(hasher.finish(), fnv1a64(b"foobar"));
    }
}
