//! Output files written whole or not at all.

use std::io;
use std::path::{Path, PathBuf};

/// Writes `bytes` to a file beside `path` and renames it over `path`, so that a failed or
/// interrupted write never leaves a partial file where a complete one is expected.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, path)).inspect_err(
        |_| {
            let _ = std::fs::remove_file(&partial);
        },
    )
}
