//! Paths named on the command line (or in a JSON request) that can be
//! searched or read: a regular file, a directory, or a symlink to one.
//! A FIFO, a socket or a device is never handed to rg nor opened: rg
//! (and a plain `read`) would wait on it forever (#26).

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// What a special file is, for messages; `None` for a regular file, a
/// directory, or a path that does not exist (or cannot be looked at:
/// rg says why).
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_fifo() {
        Some("a FIFO (named pipe)")
    } else if kind.is_socket() {
        Some("a socket")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_sockets_and_fifos_are_named_files_and_directories_not() {
        assert_eq!(
            special_kind(Path::new("/dev/zero")),
            Some("a character device")
        );
        assert_eq!(special_kind(Path::new("/")), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(special_kind(&file), None);
        assert_eq!(special_kind(&dir.path().join("missing")), None);
        let socket = dir.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        assert_eq!(special_kind(&socket), Some("a socket"));
        let fifo = dir.path().join("p");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .unwrap();
        assert_eq!(special_kind(&fifo), Some("a FIFO (named pipe)"));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        assert_eq!(special_kind(&link), Some("a FIFO (named pipe)"));
    }
}
