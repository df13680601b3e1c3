//! The store of each file's unit vectors (the sentence encoder's, one per
//! unit of [`units::texts`]), so that a file is embedded once per change
//! and a question reads a whole tree's vectors in a few file opens.
//!
//! This module owns `<cache>/vectors/` (with `<cache>` from
//! [`crate::dirs::cache_dir`]): one store per repository root (the
//! nearest directory above a file with a `.git`), named for the FNV-1a 64
//! hash of the root's real path in 16 hex digits, `.store`; files outside
//! any repository share `outside.store`. A question opens one store per
//! repository its tree spans, however many files it holds. What a store
//! holds changes how long a question takes, never what it compares.
//!
//! A store is a header (format, model, text and definition rules), then
//! records appended one after another, one per file embedded: its
//! absolute real path, its [`Stamp`], and each unit's line, scale and
//! vector (384 signed bytes: a quarter of the `f32`s' size, and a cosine
//! within about 1e-3 of theirs), its length before it and a CRC-32 of it
//! after. A reader streams a store through a buffer of 1 MB and uses a
//! record only when its path is a file it asks about and its stamp that
//! file's stamp now; a later record for a path supersedes the earlier
//! ones. A store whose header differs from this build's is foreign: read
//! as empty, started anew by the next writer.
//!
//! Writers (`scout index`, `scout smart` embedding what it compares)
//! append under an exclusive lock on the store, after checking that what
//! follows the last record they know is whole: a writer stopped mid-record
//! (a kill, a full disk) leaves a torn tail, which readers stop at and the
//! next writer cuts. When superseded and outdated records pass half a
//! store's bytes, it is compacted: its current records copied to a new
//! file renamed over it, so that a reader holding the old one reads it
//! whole. A file whose stamp had not [settled](Stamp::settled) when it was
//! read is embedded but not stored. No failure of the store is an
//! error, and deleting it changes no answer, only how long the next
//! questions take.
//!
//! [`units::texts`]: crate::smart::units::texts

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::cache::{prune_if_due, touch};
use crate::encoder::{DIM, MODEL};
use crate::hash::fnv1a64;
use crate::smart::units::TEXT_RULES;
use crate::stamp::Stamp;

/// The layout of a store (3: one store per repository).
const FORMAT: u32 = 3;
/// Name of the subdirectory of scout's cache directory.
pub const SUBDIR: &str = "vectors";
/// A store's file name ends so.
pub const SUFFIX: &str = ".store";
/// Beside a store, named as it is, the mark `scout index` left before
/// questions compared a set of units of their own: pruned with the stores.
const INDEXED_SUFFIX: &str = ".indexed";
/// The store of the files outside any repository.
const OUTSIDE: &str = "outside";
/// The per-file entries of format 2, removed when a store is first made.
const OLD_SUFFIX: &str = ".vectors";
/// A store's first bytes.
const MAGIC: &[u8; 8] = b"scoutvec";
/// A record's body holds at least its path's length, its stamp and its
/// unit count.
const MIN_BODY: usize = 4 + Stamp::BYTES + 4;
/// A record larger than this is torn or foreign (a file of 1 MB, the
/// largest embedded, has far fewer units).
const MAX_BODY: usize = 64 << 20;
/// Bytes a reader reads at a time, at least.
const READ_BUFFER: usize = 1 << 20;
/// A store is compacted when its superseded and outdated records pass
/// this share of its bytes...
const STALE_SHARE: f64 = 0.5;
/// ...and it has at least this many bytes.
const COMPACT_FROM: u64 = 1 << 20;

/// One unit's vector, quantised.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitVector {
    /// The line the unit's hit points at.
    pub line: u32,
    /// Multiplies `components` back to the vector.
    pub scale: f32,
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
    pub fn similarity(&self, query: &Query) -> f32 {
        cosine(&self.components, self.scale, query)
    }
}

/// The question's vector as stored vectors are compared with it: in
/// 16-bit integers (a step of 1/32767 of its largest component, far below
/// the stored vectors' own of 1/127), so that a cosine is a sum of
/// integer products, exact whatever order they are added in.
#[derive(Debug, Clone)]
pub struct Query {
    components: [i16; DIM],
    /// Multiplies `components` back to the vector.
    scale: f32,
}

impl Query {
    pub fn new(vector: &[f32; DIM]) -> Query {
        let max = vector.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let scale = if max > 0.0 { max / 32767.0 } else { 1.0 };
        Query {
            components: vector.map(|v| (v / scale).round().clamp(-32767.0, 32767.0) as i16),
            scale,
        }
    }
}

/// The cosine of a quantised vector with the normalised `query`.
///
/// Sixteen lanes of 32-bit sums, written as whole chunks so that the
/// compiler keeps them in vector registers and multiplies pairs of 16-bit
/// lanes at once: 13 ms for the 813,895 vectors of a 1 GB tree, against
/// 37 ms multiplying in `f32` (a scratch program, this machine's baseline
/// x86-64 build). No sum can overflow: 384 products of at most 127 ×
/// 32767 stay under 2^31.
fn cosine(components: &[i8], scale: f32, query: &Query) -> f32 {
    let mut acc = [0i32; 16];
    for (c, q) in components
        .chunks_exact(16)
        .zip(query.components.chunks_exact(16))
    {
        for lane in 0..16 {
            acc[lane] += i32::from(c[lane]) * i32::from(q[lane]);
        }
    }
    acc.iter().sum::<i32>() as f32 * scale * query.scale
}

/// A file as the store keys it: its absolute path, its stamp, and the
/// repository whose store holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub absolute: PathBuf,
    pub stamp: Stamp,
    /// Whether the stamp had settled when it was read: only then is a
    /// record stored for it.
    pub settled: bool,
    /// The root of the repository holding the file; `None` outside one.
    pub root: Option<Arc<Path>>,
}

impl Key {
    /// The key of the file at `absolute` (in the repository at `root`)
    /// whose metadata is `meta`, just read, the clock reading `now` (read
    /// after `meta`, before the file's bytes).
    pub fn of(
        absolute: PathBuf,
        root: Option<Arc<Path>>,
        meta: &fs::Metadata,
        now: SystemTime,
    ) -> Key {
        let stamp = Stamp::of(meta);
        Key {
            absolute,
            stamp,
            settled: stamp.settled(now),
            root,
        }
    }
}

/// The units of one record, as they lie in the store.
pub struct Stored<'a> {
    lines: &'a [u8],
    scales: &'a [u8],
    components: &'a [i8],
}

impl Stored<'_> {
    pub fn len(&self) -> usize {
        self.lines.len() / 4
    }

    /// The line of unit `j`.
    pub fn line(&self, j: usize) -> u32 {
        u32::from_le_bytes(self.lines[4 * j..4 * j + 4].try_into().unwrap_or_default())
    }

    fn scale(&self, j: usize) -> f32 {
        f32::from_le_bytes(self.scales[4 * j..4 * j + 4].try_into().unwrap_or_default())
    }

    /// The cosine of unit `j` with the normalised `query`.
    pub fn similarity(&self, j: usize, query: &Query) -> f32 {
        cosine(
            &self.components[j * DIM..(j + 1) * DIM],
            self.scale(j),
            query,
        )
    }

    /// The units, copied out.
    #[cfg(test)]
    pub fn units(&self) -> Vec<UnitVector> {
        (0..self.len())
            .map(|j| UnitVector {
                line: self.line(j),
                scale: self.scale(j),
                components: self.components[j * DIM..(j + 1) * DIM].to_vec(),
            })
            .collect()
    }
}

/// What one reading of the stores saw.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// Stores opened.
    pub stores: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Files whose current vectors were found.
    pub files: usize,
    /// Units of those.
    pub units: usize,
}

/// What this process knows of a store it read or wrote.
#[derive(Debug, Clone, Copy)]
struct Known {
    /// The file it read (a compaction renames a new one into place).
    ino: u64,
    /// Where its last whole record ends.
    end: u64,
    /// Bytes of records superseded by a later one, or made for another
    /// version of a file asked about.
    stale: u64,
}

/// The vector stores under scout's cache directory.
#[derive(Debug)]
pub struct VectorStore {
    /// `<cache>/vectors`; `None`: nothing is stored.
    dir: Option<PathBuf>,
    known: RefCell<HashMap<PathBuf, Known>>,
}

impl VectorStore {
    /// The stores under scout's cache directory (`None`: none).
    pub fn new(cache_dir: Option<PathBuf>) -> VectorStore {
        VectorStore {
            dir: cache_dir.map(|d| d.join(SUBDIR)),
            known: RefCell::default(),
        }
    }

    /// The store of the repository at `root`.
    fn store_path(&self, root: Option<&Path>) -> Option<PathBuf> {
        let name = match root {
            Some(root) => format!("{:016x}", fnv1a64(root.as_os_str().as_bytes())),
            None => OUTSIDE.to_string(),
        };
        Some(self.dir.as_ref()?.join(name + SUFFIX))
    }

    /// Bytes of every store on disk, and how many there are.
    pub fn size_on_disk(&self) -> (u64, usize) {
        let Some(entries) = self.dir.as_ref().and_then(|d| fs::read_dir(d).ok()) else {
            return (0, 0);
        };
        entries
            .flatten()
            .filter(|e| e.file_name().as_bytes().ends_with(SUFFIX.as_bytes()))
            .filter_map(|e| e.metadata().ok())
            .fold((0, 0), |(bytes, n), m| (bytes + m.len(), n + 1))
    }

    /// Streams the stores of `keys`' repositories, and calls `found(i,
    /// units)` once for each key `i` whose file, as it is now, has
    /// vectors stored.
    pub fn read(&self, keys: &[&Key], mut found: impl FnMut(usize, &Stored<'_>)) -> Reading {
        let mut by_store: HashMap<PathBuf, HashMap<&[u8], usize>> = HashMap::new();
        for (i, key) in keys.iter().enumerate() {
            if let Some(store) = self.store_path(key.root.as_deref()) {
                by_store
                    .entry(store)
                    .or_default()
                    .insert(key.absolute.as_os_str().as_bytes(), i);
            }
        }
        let mut reading = Reading::default();
        let mut seen = vec![false; keys.len()];
        let mut stores: Vec<_> = by_store.into_iter().collect();
        stores.sort_by(|a, b| a.0.cmp(&b.0));
        for (store, wanted) in stores {
            let Ok(file) = File::open(&store) else {
                continue;
            };
            let Ok(meta) = file.metadata() else {
                continue;
            };
            reading.stores += 1;
            reading.bytes += meta.len();
            let mut last_of_path: HashMap<u64, u64> = HashMap::new();
            let mut stale = 0;
            let end = walk(file, |_, record| {
                let size = record.size();
                if let Some(before) = last_of_path.insert(fnv1a64(record.path), size) {
                    stale += before;
                }
                let Some(&i) = wanted.get(record.path) else {
                    return;
                };
                if record.stamp != keys[i].stamp {
                    stale += size;
                    return;
                }
                if !std::mem::replace(&mut seen[i], true) {
                    let stored = record.stored();
                    reading.files += 1;
                    reading.units += stored.len();
                    found(i, &stored);
                }
            });
            let Some(end) = end else {
                continue;
            };
            touch(&store);
            self.known.borrow_mut().insert(
                store,
                Known {
                    ino: meta.ino(),
                    end,
                    stale,
                },
            );
        }
        reading
    }

    /// Appends a record of `units` for each key (those whose stamp had
    /// settled), one store at a time under its lock. Failures are ignored:
    /// the next run embeds again.
    pub fn append(&self, records: &[(&Key, &[UnitVector])]) {
        let mut by_store: HashMap<PathBuf, Vec<u8>> = HashMap::new();
        for (key, units) in records {
            if !key.settled {
                continue;
            }
            if let Some(store) = self.store_path(key.root.as_deref()) {
                encode(by_store.entry(store).or_default(), key, units);
            }
        }
        let mut stores: Vec<_> = by_store.into_iter().collect();
        stores.sort_by(|a, b| a.0.cmp(&b.0));
        for (store, bytes) in stores {
            let _ = self.append_to(&store, &bytes);
        }
    }

    fn append_to(&self, store: &Path, bytes: &[u8]) -> Option<()> {
        let dir = store.parent()?;
        fs::create_dir_all(dir).ok()?;
        let (mut file, meta) = locked(store)?;
        let known = self
            .known
            .borrow()
            .get(store)
            .copied()
            .filter(|k| k.ino == meta.ino() && k.end <= meta.len());
        let end = match known {
            Some(known) if known.end == meta.len() => known.end,
            // Another writer appended, or left a torn tail: walk what
            // follows what this process knows.
            Some(known) => {
                file.seek(SeekFrom::Start(known.end)).ok()?;
                records(&file, known.end, |_, _| {})?
            }
            None => walk(file.try_clone().ok()?, |_, _| {}).unwrap_or(0),
        };
        let end = if end == 0 {
            // New, foreign or torn in its header: started anew.
            file.set_len(0).ok()?;
            file.seek(SeekFrom::Start(0)).ok()?;
            file.write_all(&header()).ok()?;
            remove_old_entries(dir);
            header().len() as u64
        } else {
            if end < meta.len() {
                file.set_len(end).ok()?;
            }
            end
        };
        file.seek(SeekFrom::Start(end)).ok()?;
        file.write_all(bytes).ok()?;
        let stale = known.map_or(0, |k| k.stale);
        self.known.borrow_mut().insert(
            store.to_path_buf(),
            Known {
                ino: meta.ino(),
                end: end + bytes.len() as u64,
                stale,
            },
        );
        prune_if_due(dir, &[SUFFIX, INDEXED_SUFFIX], std::time::SystemTime::now());
        Some(())
    }

    /// Compacts every store read whose superseded and outdated records
    /// pass [`STALE_SHARE`] of its bytes: its current records (the last of
    /// each path whose file is still as stamped) copied to a new store
    /// renamed over it. Returns the stores compacted.
    pub fn compact_stale(&self) -> usize {
        let due: Vec<PathBuf> = self
            .known
            .borrow()
            .iter()
            .filter(|(_, k)| k.end >= COMPACT_FROM && k.stale as f64 > STALE_SHARE * k.end as f64)
            .map(|(store, _)| store.clone())
            .collect();
        due.iter()
            .filter(|store| self.compact(store).is_some())
            .count()
    }

    fn compact(&self, store: &Path) -> Option<()> {
        let (file, _) = locked(store)?;
        // The last record of each path, by its offset.
        let mut last: HashMap<Vec<u8>, u64> = HashMap::new();
        walk(file.try_clone().ok()?, |at, record| {
            last.insert(record.path.to_vec(), at);
        })?;
        let keep: std::collections::HashSet<u64> = last.into_values().collect();
        let dir = store.parent()?;
        let mut temp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(dir)
            .ok()?;
        temp.write_all(&header()).ok()?;
        let mut end = header().len() as u64;
        let mut copied = Ok(());
        walk(file.try_clone().ok()?, |at, record| {
            if copied.is_err() || !keep.contains(&at) {
                return;
            }
            let path = Path::new(std::ffi::OsStr::from_bytes(record.path));
            if Stamp::read(path) != Some(record.stamp) {
                return;
            }
            copied = temp.write_all(record.bytes);
            end += record.bytes.len() as u64;
        })?;
        copied.ok()?;
        let new_ino = temp.as_file().metadata().ok()?.ino();
        temp.persist(store).ok()?;
        // The lock on the old file is released with it.
        drop(file);
        self.known.borrow_mut().insert(
            store.to_path_buf(),
            Known {
                ino: new_ino,
                end,
                stale: 0,
            },
        );
        Some(())
    }
}

/// The store at `path`, opened for writing and locked, made when missing;
/// the store in place when the lock is held (a compaction may have
/// renamed a new one over the file first opened).
fn locked(path: &Path) -> Option<(File, fs::Metadata)> {
    use rustix::fs::{flock, FlockOperation};
    for _ in 0..4 {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .ok()?;
        flock(&file, FlockOperation::LockExclusive).ok()?;
        let meta = file.metadata().ok()?;
        if fs::metadata(path).is_ok_and(|m| m.ino() == meta.ino() && m.dev() == meta.dev()) {
            return Some((file, meta));
        }
    }
    None
}

/// This build's header of a store.
fn header() -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    for n in [
        FORMAT,
        TEXT_RULES,
        crate::defs::RULES_VERSION,
        MODEL.len() as u32,
    ] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    bytes.extend_from_slice(MODEL.as_bytes());
    bytes
}

/// The format-2 entries (one file each) are no use to this build.
fn remove_old_entries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .as_bytes()
            .ends_with(OLD_SUFFIX.as_bytes())
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Appends the record of `units` for `key` to `out`.
fn encode(out: &mut Vec<u8>, key: &Key, units: &[UnitVector]) {
    let path = key.absolute.as_os_str().as_bytes();
    let body_len = MIN_BODY + path.len() + units.len() * (8 + DIM);
    out.reserve(4 + body_len + 4);
    out.extend_from_slice(&(body_len as u32).to_le_bytes());
    let body = out.len();
    out.extend_from_slice(&(path.len() as u32).to_le_bytes());
    out.extend_from_slice(path);
    out.extend_from_slice(&key.stamp.to_bytes());
    out.extend_from_slice(&(units.len() as u32).to_le_bytes());
    for u in units {
        out.extend_from_slice(&u.line.to_le_bytes());
    }
    for u in units {
        out.extend_from_slice(&u.scale.to_le_bytes());
    }
    for u in units {
        let mut components = [0u8; DIM];
        for (c, &v) in components.iter_mut().zip(&u.components) {
            *c = v as u8;
        }
        out.extend_from_slice(&components);
    }
    let crc = crc32fast::hash(&out[body..]);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// One record, as read.
struct Record<'a> {
    /// The whole record: length, body, CRC.
    bytes: &'a [u8],
    path: &'a [u8],
    stamp: Stamp,
    units: usize,
    /// Where the units' lines start in `bytes`.
    lines_at: usize,
}

impl<'a> Record<'a> {
    fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// `bytes` (length, body, CRC) as a record, when they are one.
    fn parse(bytes: &'a [u8]) -> Option<Record<'a>> {
        let body = bytes.get(4..bytes.len().checked_sub(4)?)?;
        let crc = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().ok()?);
        if crc32fast::hash(body) != crc {
            return None;
        }
        let u32_at = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(body.get(at..at + 4)?.try_into().ok()?))
        };
        let path_len = u32_at(0)? as usize;
        let path = body.get(4..4 + path_len)?;
        let at = 4 + path_len;
        let stamp = Stamp::from_bytes(body.get(at..at + Stamp::BYTES)?.try_into().ok()?);
        let units = u32_at(at + Stamp::BYTES)? as usize;
        let lines_at = at + Stamp::BYTES + 4;
        if body.len() != lines_at + units * (8 + DIM) {
            return None;
        }
        Some(Record {
            bytes,
            path,
            stamp,
            units,
            lines_at: 4 + lines_at,
        })
    }

    fn stored(&self) -> Stored<'a> {
        let n = self.units;
        let lines = &self.bytes[self.lines_at..self.lines_at + 4 * n];
        let scales = &self.bytes[self.lines_at + 4 * n..self.lines_at + 8 * n];
        let components: &[u8] = &self.bytes[self.lines_at + 8 * n..self.lines_at + 8 * n + DIM * n];
        Stored {
            lines,
            scales,
            components: bytemuck::cast_slice(components),
        }
    }
}

/// Reads the store in `file` from its start: `each(offset, record)` for
/// every whole record, in order. The offset where the last whole record
/// ends; `None` when the header is not this build's (or the file is
/// empty).
fn walk(mut file: File, each: impl FnMut(u64, &Record<'_>)) -> Option<u64> {
    let start = past_header(&mut file)?;
    records(file, start, each)
}

/// Reads `file`'s header from its start; where its records start, or
/// `None` when the header is not this build's.
fn past_header(file: &mut File) -> Option<u64> {
    // A clone of a descriptor shares its offset.
    file.seek(SeekFrom::Start(0)).ok()?;
    let header = header();
    let mut first = vec![0u8; header.len()];
    file.read_exact(&mut first).ok()?;
    (first == header).then_some(header.len() as u64)
}

/// The records from `offset`, where `reader` stands (a record's start),
/// each parsed where
/// it lies in a buffer of [`READ_BUFFER`] bytes or more (a record larger
/// than the buffer grows it): the bytes are copied by the read, and a
/// record the buffer's end cuts once more, to the buffer's start.
fn records(
    mut reader: impl Read,
    mut offset: u64,
    mut each: impl FnMut(u64, &Record<'_>),
) -> Option<u64> {
    let mut buffer = vec![0u8; READ_BUFFER];
    // `buffer[start..filled]`: read, not yet parsed.
    let (mut start, mut filled) = (0, 0);
    let mut eof = false;
    loop {
        let have = &buffer[start..filled];
        let whole = match have.get(..4) {
            Some(len) => {
                let body_len = u32::from_le_bytes(len.try_into().ok()?) as usize;
                if !(MIN_BODY..=MAX_BODY).contains(&body_len) {
                    return Some(offset);
                }
                Some(4 + body_len + 4)
            }
            None => None,
        };
        match whole {
            Some(size) if have.len() >= size => {
                let Some(record) = Record::parse(&have[..size]) else {
                    return Some(offset);
                };
                each(offset, &record);
                offset += size as u64;
                start += size;
            }
            _ if eof => return Some(offset),
            _ => {
                // Too few bytes for the next record: keep them at the
                // buffer's start, make room for the record, read more.
                buffer.copy_within(start..filled, 0);
                filled -= start;
                start = 0;
                if let Some(size) = whole.filter(|&size| size > buffer.len()) {
                    buffer.resize(size, 0);
                }
                match reader.read(&mut buffer[filled..]) {
                    Ok(0) => eof = true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return Some(offset),
                }
            }
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

    /// A tree and a cache directory, with files written a minute ago
    /// (settled) and keys read with the clock a minute on.
    struct Fixture {
        cache: tempfile::TempDir,
        tree: tempfile::TempDir,
        /// Every file's mtime: only sizes tell versions apart.
        written: SystemTime,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                cache: tempfile::tempdir().unwrap(),
                tree: tempfile::tempdir().unwrap(),
                written: SystemTime::now() - Duration::from_secs(60),
            }
        }

        fn store(&self) -> VectorStore {
            VectorStore::new(Some(self.cache.path().to_path_buf()))
        }

        fn write(&self, name: &str, text: &str) -> PathBuf {
            let file = self.tree.path().join(name);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(&file, text).unwrap();
            set_mtime(&file, self.written);
            file
        }

        fn key(&self, file: &Path, root: Option<&Path>) -> Key {
            let later = SystemTime::now() + Duration::from_secs(60);
            Key::of(
                file.to_path_buf(),
                root.map(Arc::from),
                &fs::metadata(file).unwrap(),
                later,
            )
        }
    }

    /// What a new reader finds for `keys`: per key, its units' lines.
    fn found(store: &VectorStore, keys: &[&Key]) -> Vec<Option<Vec<u32>>> {
        let mut got = vec![None; keys.len()];
        store.read(keys, |i, stored| {
            assert!(got[i].is_none(), "key {i} found twice");
            got[i] = Some((0..stored.len()).map(|j| stored.line(j)).collect());
        });
        got
    }

    fn store_files(cache: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = fs::read_dir(cache.join(SUBDIR))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(SUFFIX))
            .collect();
        files.sort();
        files
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
        let (query_a, query_b) = (Query::new(&a), Query::new(&b));
        assert!(
            (q.similarity(&query_b) - exact).abs() < 1e-3,
            "{} vs {exact}",
            q.similarity(&query_b)
        );
        assert!((q.similarity(&query_a) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn the_cosine_is_the_exact_sum_of_the_integer_products() {
        // Added one term at a time in 64 bits, no lanes: the same number,
        // so that a stored ranking never moves with how the sum is split.
        for seed in 0..200 {
            let u = unit(1, seed as f32 * 0.7);
            let q = unit(2, seed as f32 * 1.3 + 0.1);
            let vector: [f32; DIM] = std::array::from_fn(|i| f32::from(q.components[i]) * q.scale);
            let query = Query::new(&vector);
            let sum: i64 = u
                .components
                .iter()
                .zip(&query.components)
                .map(|(&c, &q)| i64::from(c) * i64::from(q))
                .sum();
            let reference = sum as f32 * u.scale * query.scale;
            assert_eq!(
                u.similarity(&query).to_bits(),
                reference.to_bits(),
                "seed {seed}"
            );
        }
        // The largest products, every one of the same sign, do not
        // overflow.
        let top = UnitVector {
            line: 1,
            scale: 1.0,
            components: vec![127; DIM],
        };
        let query = Query::new(&[1.0; DIM]);
        let expected = (127 * DIM) as f32;
        let got = top.similarity(&query);
        assert!(
            (got - expected).abs() < expected * 1e-6,
            "{got} vs {expected}"
        );
    }

    #[test]
    fn records_read_a_byte_at_a_time_and_interrupted_stop_at_a_torn_tail() {
        /// Gives a byte a read, and `Interrupted` every third call.
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                self.1 += 1;
                if self.1.is_multiple_of(3) {
                    return Err(std::io::ErrorKind::Interrupted.into());
                }
                let n = self.0.len().min(out.len()).min(1);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let fx = Fixture::new();
        let keys: Vec<Key> = (0..3)
            .map(|n| fx.key(&fx.write(&format!("f{n}.py"), "x"), None))
            .collect();
        let mut bytes = Vec::new();
        for (n, key) in keys.iter().enumerate() {
            encode(&mut bytes, key, &[unit(n as u32 + 1, n as f32)]);
        }
        let whole = bytes.len() as u64;
        // A fourth record cut short: its length, half its body.
        let mut torn = Vec::new();
        encode(&mut torn, &keys[0], &[unit(9, 9.0)]);
        bytes.extend_from_slice(&torn[..torn.len() / 2]);
        let mut seen = Vec::new();
        let end = records(Trickle(&bytes, 0), 0, |_, record| {
            seen.push(record.stored().line(0));
        });
        assert_eq!(end, Some(whole));
        assert_eq!(seen, [1, 2, 3]);
        // A length no record has ends the walk where it stands.
        let mut zero = bytes[..whole as usize].to_vec();
        zero.extend_from_slice(&[0; 8]);
        assert_eq!(records(&zero[..], 0, |_, _| {}), Some(whole));
    }

    #[test]
    fn records_across_the_read_buffer_and_larger_than_it_are_read_whole() {
        let fx = Fixture::new();
        // Records of 1,000 units (about 392 KB) cross the 1 MB buffer's
        // end; one of 3,000 (1.2 MB) does not fit in it.
        let sizes = [1000, 1000, 1000, 3000, 1000, 7];
        let keys: Vec<Key> = sizes
            .iter()
            .enumerate()
            .map(|(n, _)| fx.key(&fx.write(&format!("f{n}.py"), &"x".repeat(n + 1)), None))
            .collect();
        let units: Vec<Vec<UnitVector>> = sizes
            .iter()
            .map(|&k| (0..k).map(|j| unit(j as u32 + 1, j as f32)).collect())
            .collect();
        let records: Vec<(&Key, &[UnitVector])> = keys
            .iter()
            .zip(&units)
            .map(|(k, u)| (k, u.as_slice()))
            .collect();
        fx.store().append(&records);
        let wanted: Vec<&Key> = keys.iter().collect();
        let mut got = vec![0; keys.len()];
        let mut last = vec![None; keys.len()];
        fx.store().read(&wanted, |i, stored| {
            got[i] = stored.len();
            last[i] = Some(stored.similarity(stored.len() - 1, &Query::new(&[0.05; DIM])));
        });
        assert_eq!(got, sizes);
        for (i, units) in units.iter().enumerate() {
            let expected = units.last().unwrap().similarity(&Query::new(&[0.05; DIM]));
            assert_eq!(last[i], Some(expected), "record {i}");
        }
    }

    #[test]
    fn a_record_gives_back_its_units_and_serves_only_the_file_as_it_was() {
        let fx = Fixture::new();
        let file = fx.write("a.py", "def f(): pass\n");
        let first = fx.key(&file, None);
        let store = fx.store();
        assert_eq!(found(&store, &[&first]), [None]);
        let units = [unit(1, 0.0), unit(3, 1.0)];
        store.append(&[(&first, &units)]);
        let mut back = Vec::new();
        let reading = fx
            .store()
            .read(&[&first], |_, stored| back = stored.units());
        assert_eq!(back, units);
        assert_eq!(
            reading,
            Reading {
                stores: 1,
                bytes: fs::metadata(&store_files(fx.cache.path())[0])
                    .unwrap()
                    .len(),
                files: 1,
                units: 2
            }
        );
        let query = {
            let mut v = [0.0f32; DIM];
            v[0] = 1.0;
            Query::new(&v)
        };
        let mut cosines = Vec::new();
        fx.store().read(&[&first], |_, stored| {
            cosines = (0..stored.len())
                .map(|j| stored.similarity(j, &query))
                .collect();
        });
        assert_eq!(
            cosines,
            units
                .iter()
                .map(|u| u.similarity(&query))
                .collect::<Vec<_>>()
        );
        // A changed file misses.
        fx.write("a.py", "def g(): pass\n\n");
        let changed = fx.key(&file, None);
        assert_eq!(found(&fx.store(), &[&changed]), [None]);
        // A file changed a moment ago is not stored, even with its mtime
        // set back.
        let now = Key::of(
            file.clone(),
            None,
            &fs::metadata(&file).unwrap(),
            SystemTime::now(),
        );
        assert!(!now.settled);
        store.append(&[(&now, &[unit(1, 2.0)])]);
        assert_eq!(found(&fx.store(), &[&now]), [None]);
    }

    /// A file renamed into place with the old one's size and mtime had
    /// been served the old one's vectors.
    #[test]
    fn regression_a_file_renamed_into_place_with_its_size_and_mtime_misses() {
        let fx = Fixture::new();
        let file = fx.write("a.py", "def f(): pass\n");
        let next = fx.write("a.py.new", "def g(): pass\n");
        let store = fx.store();
        let first = fx.key(&file, None);
        store.append(&[(&first, &[unit(1, 0.0)])]);
        assert_eq!(found(&fx.store(), &[&first]), [Some(vec![1])]);
        fs::rename(&next, &file).unwrap();
        let renamed = fx.key(&file, None);
        assert_eq!(
            (renamed.stamp.size, renamed.stamp.mtime_ns),
            (first.stamp.size, first.stamp.mtime_ns)
        );
        assert_eq!(found(&fx.store(), &[&renamed]), [None]);
    }

    /// A question opens one store per repository, however many
    /// files the tree holds.
    #[test]
    fn files_are_stored_per_repository_and_read_in_one_open_each() {
        let fx = Fixture::new();
        let (one, two) = (fx.tree.path().join("one"), fx.tree.path().join("two"));
        let mut keys = Vec::new();
        for i in 0..60 {
            let root = if i % 2 == 0 { &one } else { &two };
            let file = fx.write(
                &format!("{}/f{i}.py", root.display()),
                &format!("x = {i}\n"),
            );
            keys.push(fx.key(&file, Some(root)));
        }
        let outside = fx.write("loose.py", "y = 1\n");
        keys.push(fx.key(&outside, None));
        let units: Vec<Vec<UnitVector>> = (0..keys.len())
            .map(|i| vec![unit(i as u32 + 1, i as f32)])
            .collect();
        // Stored in three appends, as embedding groups are.
        let store = fx.store();
        for chunk in keys.iter().zip(&units).collect::<Vec<_>>().chunks(25) {
            let records: Vec<(&Key, &[UnitVector])> =
                chunk.iter().map(|(k, u)| (*k, u.as_slice())).collect();
            store.append(&records);
        }
        assert_eq!(store_files(fx.cache.path()).len(), 3);
        let refs: Vec<&Key> = keys.iter().collect();
        let fresh = fx.store();
        let mut lines = vec![0; keys.len()];
        let reading = fresh.read(&refs, |i, stored| lines[i] = stored.line(0));
        assert_eq!(reading.stores, 3);
        assert_eq!(reading.files, keys.len());
        assert_eq!(lines, (1..=keys.len() as u32).collect::<Vec<_>>());
        // Asked about a few: only those, from their stores.
        let some = [&keys[3], &keys[60]];
        let reading = fx.store().read(&some, |_, _| {});
        assert_eq!((reading.stores, reading.files), (2, 2));
    }

    /// A writer stopped mid-record leaves a torn tail: readers keep
    /// every whole record before it, and the next writer cuts it.
    #[test]
    fn a_torn_tail_is_skipped_by_readers_and_cut_by_the_next_writer() {
        let fx = Fixture::new();
        let (a, b, c) = (
            fx.write("a.py", "a = 1\n"),
            fx.write("b.py", "b = 1\n"),
            fx.write("c.py", "c = 1\n"),
        );
        let (ka, kb, kc) = (fx.key(&a, None), fx.key(&b, None), fx.key(&c, None));
        fx.store().append(&[(&ka, &[unit(1, 0.0)])]);
        fx.store().append(&[(&kb, &[unit(2, 0.0)])]);
        let path = store_files(fx.cache.path()).remove(0);
        let whole = fs::metadata(&path).unwrap().len();
        // b's record loses its last 10 bytes.
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(whole - 10)
            .unwrap();
        assert_eq!(found(&fx.store(), &[&ka, &kb]), [Some(vec![1]), None]);
        // A writer that knows the store as it was (read before the tear).
        let writer = fx.store();
        writer.read(&[&ka], |_, _| {});
        writer.append(&[(&kc, &[unit(3, 0.0)])]);
        assert_eq!(
            found(&fx.store(), &[&ka, &kb, &kc]),
            [Some(vec![1]), None, Some(vec![3])]
        );
        // And one that read nothing first.
        fx.store().append(&[(&kb, &[unit(4, 0.0)])]);
        assert_eq!(
            found(&fx.store(), &[&ka, &kb, &kc]),
            [Some(vec![1]), Some(vec![4]), Some(vec![3])]
        );
        // A bit flipped inside a record: that record and what follows are
        // not used.
        let mut bytes = fs::read(&path).unwrap();
        let flip = header().len() + 40;
        bytes[flip] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(found(&fx.store(), &[&ka, &kb, &kc]), [None, None, None]);
    }

    #[test]
    fn a_foreign_store_is_read_as_empty_and_started_anew() {
        let fx = Fixture::new();
        let a = fx.write("a.py", "a = 1\n");
        let ka = fx.key(&a, None);
        fx.store().append(&[(&ka, &[unit(1, 0.0)])]);
        let path = store_files(fx.cache.path()).remove(0);
        let mut bytes = fs::read(&path).unwrap();
        bytes[MAGIC.len()] ^= 0xff; // another format
        fs::write(&path, &bytes).unwrap();
        assert_eq!(found(&fx.store(), &[&ka]), [None]);
        // A format-2 entry beside it goes when the store is made anew.
        let old = fx
            .cache
            .path()
            .join(SUBDIR)
            .join("0123456789abcdef.vectors");
        fs::write(&old, b"old").unwrap();
        fx.store().append(&[(&ka, &[unit(2, 0.0)])]);
        assert_eq!(found(&fx.store(), &[&ka]), [Some(vec![2])]);
        assert!(!old.exists());
    }

    #[test]
    fn a_store_mostly_stale_is_compacted_to_its_current_records() {
        let fx = Fixture::new();
        let a = fx.write("a.py", "a = 1\n");
        let b = fx.write("b.py", "b = 1\n");
        let gone = fx.write("gone.py", "g = 1\n");
        let many: Vec<UnitVector> = (0..400).map(|j| unit(j, j as f32)).collect();
        let store = fx.store();
        let (kb, kgone) = (fx.key(&b, None), fx.key(&gone, None));
        store.append(&[(&kb, &many[..1]), (&kgone, &many[..1])]);
        // a, rewritten ten times, each version embedded.
        let mut ka = fx.key(&a, None);
        for version in 0..10 {
            fx.write("a.py", &"a = 1\n".repeat(version + 2));
            ka = fx.key(&a, None);
            store.append(&[(&ka, &many)]);
        }
        fs::remove_file(&gone).unwrap();
        let path = store_files(fx.cache.path()).remove(0);
        let before = fs::metadata(&path).unwrap().len();
        let reader = fx.store();
        reader.read(&[&ka, &kb], |_, _| {});
        assert_eq!(reader.compact_stale(), 1);
        let after = fs::metadata(&path).unwrap().len();
        assert!(after < before / 5, "{before} -> {after}");
        assert_eq!(
            found(&fx.store(), &[&ka, &kb, &kgone]),
            [Some((0..400).collect()), Some(vec![0]), None]
        );
        // Nothing stale now: nothing to do.
        let reader = fx.store();
        reader.read(&[&ka, &kb], |_, _| {});
        assert_eq!(reader.compact_stale(), 0);
        // And the compacting reader appends to the new store.
        let c = fx.write("c.py", "c = 1\n");
        let kc = fx.key(&c, None);
        reader.append(&[(&kc, &many[..2])]);
        assert_eq!(
            found(&fx.store(), &[&kc, &kb]),
            [Some(vec![0, 1]), Some(vec![0])]
        );
    }
}
