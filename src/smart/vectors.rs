//! A disk cache of each file's unit vectors (the sentence encoder's, one
//! per unit of [`units::texts`]), so a file is embedded once per change.
//!
//! This module owns `<cache>/vectors/` (with `<cache>` from
//! [`crate::dirs::cache_dir`]). One entry per source file, named for the
//! FNV-1a 64 hash of its real path (its directory's `..` and links
//! resolved) in 16 hex digits, `.vectors`; an
//! entry is one [`Entry`] in postcard's encoding: format, the model, the
//! text and definition rules, the absolute path, the file's [`Stamp`]
//! (size, mtime, ctime, inode, device), then each unit's line and vector. A vector is kept as 384
//! signed bytes and one scale (the largest component over 127): a
//! quarter of the `f32`s' size, and a cosine within about 1e-3 of theirs.
//!
//! An entry is used only when every field but the units matches the file
//! as it is now; anything else, a torn or foreign file among them, is a
//! miss, and the file is embedded again. A file whose stamp had not
//! [settled](Stamp::settled) when it was read is embedded but not
//! stored (#34). No
//! failure of the cache is an error. Entries are written to a temporary
//! file and renamed over the old one, so concurrent writers (`scout
//! index` beside `scout smart`) leave a whole old entry or a whole new
//! one; hits touch and writes prune as the code graph's cache does (an
//! entry untouched for a month is removed).
//!
//! [`units::texts`]: crate::smart::units::texts

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::encoder::{DIM, MODEL};
use crate::graph::cache::{entry_path, touch, write_entry};
use crate::smart::units::TEXT_RULES;
use crate::stamp::Stamp;

/// The layout of an entry (2: the whole stamp, #34).
const FORMAT: u32 = 2;
/// Name of the subdirectory of scout's cache directory.
pub const SUBDIR: &str = "vectors";
const SUFFIX: &str = ".vectors";

/// One unit's vector, quantised.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnitVector {
    /// The line the unit's hit points at.
    pub line: u32,
    /// Multiplies `components` back to the vector.
    pub scale: f32,
    #[serde(with = "bytes_i8")]
    pub components: Vec<i8>,
}

impl UnitVector {
    /// `vector` quantised to signed bytes.
    pub fn quantise(line: u32, vector: &[f32; DIM]) -> UnitVector {
        let max = vector.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        UnitVector {
            line,
            scale,
            components: vector
                .iter()
                .map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8)
                .collect(),
        }
    }

    /// The cosine with the normalised `query` (this vector was normalised
    /// before it was quantised).
    pub fn similarity(&self, query: &[f32; DIM]) -> f32 {
        let mut acc = [0.0f32; 8];
        for (i, (&c, &q)) in self.components.iter().zip(query).enumerate() {
            acc[i % 8] += f32::from(c) * q;
        }
        acc.iter().sum::<f32>() * self.scale
    }
}

/// postcard writes a `Vec<i8>` one element at a time; as bytes it is one
/// length and one copy.
mod bytes_i8 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[i8], s: S) -> Result<S::Ok, S::Error> {
        let bytes: Vec<u8> = v.iter().map(|&c| c as u8).collect();
        s.serialize_bytes(&bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i8>, D::Error> {
        let bytes: &[u8] = Deserialize::deserialize(d)?;
        Ok(bytes.iter().map(|&b| b as i8).collect())
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    format: u32,
    model: String,
    text_rules: u32,
    defs_rules: u32,
    path: String,
    stamp: Stamp,
    units: Vec<UnitVector>,
}

/// A file as the cache keys it: its absolute path and its stamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub absolute: PathBuf,
    pub stamp: Stamp,
    /// Whether the stamp had settled when it was read: only then is an
    /// entry stored for it.
    pub settled: bool,
}

impl Key {
    /// The key of the file at `absolute` whose metadata is `meta`, just
    /// read, the clock reading `now` (read after `meta`, before the
    /// file's bytes).
    pub fn of(absolute: PathBuf, meta: &fs::Metadata, now: SystemTime) -> Key {
        let stamp = Stamp::of(meta);
        Key {
            absolute,
            stamp,
            settled: stamp.settled(now),
        }
    }
}

/// The unit vectors of files, from the disk cache.
#[derive(Debug, Clone)]
pub struct VectorCache {
    /// `<cache>/vectors`; `None`: no caching.
    dir: Option<PathBuf>,
}

impl VectorCache {
    /// The cache under scout's cache directory (`None`: none).
    pub fn new(cache_dir: Option<PathBuf>) -> VectorCache {
        VectorCache {
            dir: cache_dir.map(|d| d.join(SUBDIR)),
        }
    }

    fn entry_path(&self, absolute: &Path) -> Option<PathBuf> {
        Some(entry_path(self.dir.as_ref()?, absolute, SUFFIX))
    }

    /// The vectors stored for the file of `key`, when its entry is
    /// whole and made for the file as it is now.
    pub fn get(&self, key: &Key) -> Option<Vec<UnitVector>> {
        let entry_path = self.entry_path(&key.absolute)?;
        let bytes = fs::read(&entry_path).ok()?;
        let entry: Entry = postcard::from_bytes(&bytes).ok()?;
        let fits = entry.format == FORMAT
            && entry.model == MODEL
            && entry.text_rules == TEXT_RULES
            && entry.defs_rules == crate::defs::RULES_VERSION
            && entry.path.as_bytes() == key.absolute.as_os_str().as_bytes()
            && entry.stamp == key.stamp
            && entry.units.iter().all(|u| u.components.len() == DIM);
        if !fits {
            return None;
        }
        touch(&entry_path);
        Some(entry.units)
    }

    /// Stores `units` for the file of `key` (unless its stamp had not
    /// settled). Failures are ignored: the next run embeds again.
    pub fn put(&self, key: &Key, units: &[UnitVector]) {
        let (Some(dir), Some(entry_path)) = (&self.dir, self.entry_path(&key.absolute)) else {
            return;
        };
        let Some(path) = key.absolute.to_str() else {
            return;
        };
        if !key.settled {
            return;
        }
        let entry = Entry {
            format: FORMAT,
            model: MODEL.to_string(),
            text_rules: TEXT_RULES,
            defs_rules: crate::defs::RULES_VERSION,
            path: path.to_string(),
            stamp: key.stamp,
            units: units.to_vec(),
        };
        if let Ok(bytes) = postcard::to_stdvec(&entry) {
            write_entry(dir, &entry_path, &bytes, SUFFIX);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stamp::set_mtime;
    use std::time::Duration;

    fn unit(line: u32, seed: f32) -> UnitVector {
        let mut v = [0.0f32; DIM];
        for (i, x) in v.iter_mut().enumerate() {
            *x = ((i as f32 + seed) * 0.37).sin();
        }
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter_mut().for_each(|x| *x /= n);
        UnitVector::quantise(line, &v)
    }

    #[test]
    fn quantised_vectors_keep_their_cosines() {
        let mut a = [0.0f32; DIM];
        let mut b = [0.0f32; DIM];
        for i in 0..DIM {
            a[i] = ((i as f32) * 0.37).sin();
            b[i] = ((i as f32) * 0.37 + 0.5).sin();
        }
        let norm = |v: &mut [f32; DIM]| {
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.iter_mut().for_each(|x| *x /= n);
        };
        norm(&mut a);
        norm(&mut b);
        let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let q = UnitVector::quantise(1, &a);
        assert!(
            (q.similarity(&b) - exact).abs() < 1e-3,
            "{} vs {exact}",
            q.similarity(&b)
        );
        assert!((q.similarity(&a) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn an_entry_serves_only_the_file_as_it_was() {
        let cache_dir = tempfile::tempdir().unwrap();
        let tree = tempfile::tempdir().unwrap();
        let file = tree.path().join("a.py");
        // Written a minute ago: settled, so stored. The same time each
        // time, so that only the size tells a change.
        let old = SystemTime::now() - Duration::from_secs(60);
        let settled = |text: &str| {
            fs::write(&file, text).unwrap();
            set_mtime(&file, old);
        };
        // The clock a minute on: the file has settled.
        let key = |at: SystemTime| Key::of(file.clone(), &fs::metadata(&file).unwrap(), at);
        let later = SystemTime::now() + Duration::from_secs(60);
        settled("def f(): pass\n");
        let first = key(later);
        let cache = VectorCache::new(Some(cache_dir.path().to_path_buf()));
        assert!(cache.get(&first).is_none());
        cache.put(&first, &[unit(1, 0.0), unit(3, 1.0)]);
        let got = cache.get(&first).unwrap();
        assert_eq!(got.iter().map(|u| u.line).collect::<Vec<_>>(), [1, 3]);
        // A changed file misses.
        settled("def g(): pass\n\n");
        assert!(cache.get(&key(later)).is_none());
        // A torn entry misses, and is no error.
        let entry = cache.entry_path(&file).unwrap();
        let bytes = fs::read(&entry).unwrap();
        fs::write(&entry, &bytes[..bytes.len() / 2]).unwrap();
        assert!(cache.get(&first).is_none());
        // A file changed a moment ago is not stored, even with its mtime
        // set back.
        settled("def h(): pass\n");
        let now = key(SystemTime::now());
        assert!(!now.settled);
        cache.put(&now, &[unit(1, 2.0)]);
        assert!(cache.get(&now).is_none());
    }

    /// #34: a file renamed into place with the old one's size and mtime
    /// was served the old one's vectors.
    #[test]
    fn regression_a_file_renamed_into_place_with_its_size_and_mtime_misses() {
        let cache_dir = tempfile::tempdir().unwrap();
        let tree = tempfile::tempdir().unwrap();
        let (file, next) = (tree.path().join("a.py"), tree.path().join("a.py.new"));
        let old = SystemTime::now() - Duration::from_secs(60);
        let later = SystemTime::now() + Duration::from_secs(60);
        for (path, text) in [(&file, "def f(): pass\n"), (&next, "def g(): pass\n")] {
            fs::write(path, text).unwrap();
            set_mtime(path, old);
        }
        let cache = VectorCache::new(Some(cache_dir.path().to_path_buf()));
        let first = Key::of(file.clone(), &fs::metadata(&file).unwrap(), later);
        cache.put(&first, &[unit(1, 0.0)]);
        assert!(cache.get(&first).is_some());
        fs::rename(&next, &file).unwrap();
        let renamed = Key::of(file.clone(), &fs::metadata(&file).unwrap(), later);
        assert_eq!(
            (renamed.stamp.size, renamed.stamp.mtime_ns),
            (first.stamp.size, first.stamp.mtime_ns)
        );
        assert!(cache.get(&renamed).is_none());
    }
}
