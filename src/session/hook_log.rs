//! The hooks' log, `$XDG_STATE_HOME/scout/hooks.log`: one line per
//! failure inside `scout hook`, which itself prints nothing and exits 0
//! (a hook must never get in the agent's way). Lines are
//! `TIMESTAMP EVENT: WHAT`, UTC. Past [`MAX_LOG_BYTES`] the log is moved
//! to `hooks.log.1` (replacing it) and started again, so it stays small.
//!
//! Writing is best effort: a log that cannot be written is skipped
//! silently; there is nowhere left to report it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The log's file name under the state directory.
pub const LOG_NAME: &str = "hooks.log";

/// Bytes past which the log is rotated.
pub const MAX_LOG_BYTES: u64 = 256 * 1024;

/// The log file under `state_dir` (`$XDG_STATE_HOME/scout`).
pub fn path(state_dir: &Path) -> PathBuf {
    state_dir.join(LOG_NAME)
}

/// Appends one line, `TIMESTAMP EVENT: WHAT`, to the log under
/// `state_dir`; newlines in `what` become spaces, so one failure is one
/// line.
pub fn append(state_dir: &Path, event: &str, what: &str) {
    let _ = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(state_dir)?;
        let log = path(state_dir);
        if std::fs::metadata(&log).is_ok_and(|m| m.len() > MAX_LOG_BYTES) {
            std::fs::rename(&log, log.with_extension("log.1"))?;
        }
        let line = format!(
            "{} {}: {}\n",
            utc_timestamp(SystemTime::now()),
            event.replace(['\n', '\r'], " "),
            what.replace(['\n', '\r'], " ")
        );
        // One write of one line with O_APPEND: concurrent hooks do not
        // interleave within a line.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)?
            .write_all(line.as_bytes())
    })();
}

/// `YYYY-MM-DDTHH:MM:SSZ` for `time` (UTC; the epoch for times before it).
pub fn utc_timestamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_796_083_200 + 3_723);
        assert_eq!(utc_timestamp(t), "2026-12-01T01:02:03Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(utc_timestamp(leap), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn one_failure_is_one_line_and_the_log_rotates() {
        let dir = tempfile::tempdir().unwrap();
        append(dir.path(), "PreToolUse", "bad\njson");
        append(dir.path(), "PostToolUse", "x");
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].ends_with(" PreToolUse: bad json"), "{text}");
        std::fs::write(path(dir.path()), vec![b'x'; MAX_LOG_BYTES as usize + 1]).unwrap();
        append(dir.path(), "PreToolUse", "after");
        assert!(dir.path().join("hooks.log.1").exists());
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}
