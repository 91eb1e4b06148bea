//! Every file a tool writes is written whole or not at all, through this one module.
//!
//! [`check_output`] runs before any work: it refuses an output that is the same file as one of
//! the inputs (after resolving links, hard links included), an output that is a directory, and
//! an output whose directory does not accept a new file (it creates and removes a probe file
//! there). [`AtomicFile`] then writes a temporary file in the target's directory
//! (`.NAME.lull-tmp-PID-N`), and [`AtomicFile::commit`] flushes it to the disk and renames it
//! over the target. On every other way out the temporary file is removed: a file dropped
//! without `commit` (an error, a panic) and a `commit` that fails (a full disk, the file-size
//! limit of `ulimit -f`: the process ignores SIGXFSZ, so a write past it is the error EFBIG)
//! leave the old file as it was and no temporary file. Only a process killed while writing
//! leaves its temporary file behind (which nothing reads).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Temporary files made by this process so far (part of their names).
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The file `path` will replace when written: a link is followed to the file it names, so
/// the link stays a link.
fn resolved(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The directory that holds `path` (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A new temporary file next to `target`, opened for writing, and its path.
fn temp_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    let dir = parent_dir(target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.lull-tmp-{}-{n}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Whether `a` and `b` name the same file (the same device and inode on Unix, the same
/// resolved path elsewhere). A path that does not exist is no file.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// Checks, before any work, that `output` can be written without harm: it is not the same
/// file as any of `inputs` (links resolved), not a directory, and its directory accepts a new
/// file. The error says which and is meant for `error: …`.
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    for input in inputs {
        if same_file(output, input) {
            return Err(format!(
                "the output {} is the input {}: choose another output name",
                output.display(),
                input.display()
            ));
        }
    }
    if output.is_dir() {
        return Err(format!("the output {} is a directory", output.display()));
    }
    let target = resolved(output);
    let dir = parent_dir(&target);
    match temp_beside(&target) {
        Ok((file, tmp)) => {
            drop(file);
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) => Err(format!(
            "cannot write {}: the directory {} does not take a new file ({e})",
            output.display(),
            dir.display()
        )),
    }
}

/// A file being written under a temporary name; [`commit`](Self::commit) puts it in place.
pub struct AtomicFile {
    target: PathBuf,
    shown: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
    /// Set once the temporary file has been renamed over the target; until then dropping
    /// the value removes the temporary file (the guard of every error path).
    renamed: bool,
}

impl AtomicFile {
    /// Starts writing `path` (the old file, if any, stays untouched until `commit`).
    pub fn create(path: &Path) -> Result<Self, String> {
        if path.is_dir() {
            return Err(format!("the output {} is a directory", path.display()));
        }
        let target = resolved(path);
        let (file, tmp) =
            temp_beside(&target).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Self {
            target,
            shown: path.to_path_buf(),
            tmp,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
            renamed: false,
        })
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// Flushes the file to the disk and renames it over the target. On an error the old file
    /// stays and the temporary file is removed (when `self` is dropped on the way out).
    pub fn commit(mut self) -> Result<(), String> {
        let err = |e: io::Error| format!("cannot write {}: {e}", self.shown.display());
        let out = self.out.take().expect("an uncommitted file");
        let file = out.into_inner().map_err(|e| err(e.into_error()))?;
        // The new file keeps the old one's permissions (a 0600 file stays private).
        if let Ok(old) = std::fs::metadata(&self.target) {
            let _ = file.set_permissions(old.permissions());
        }
        file.sync_all().map_err(err)?;
        drop(file);
        std::fs::rename(&self.tmp, &self.target).map_err(err)?;
        self.renamed = true;
        // The rename itself reaches the disk with the directory.
        if let Ok(dir) = File::open(parent_dir(&self.target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("an uncommitted file").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("an uncommitted file").flush()
    }
}

/// Seeking flushes what is buffered first (a shard's header is written again at its end).
impl io::Seek for AtomicFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.out.as_mut().expect("an uncommitted file").seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // The buffered bytes go with the writer (dropping a `BufWriter` would write them).
        if let Some(out) = self.out.take() {
            let _ = out.into_parts();
        }
        if !self.renamed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lull-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("lull-tmp"))
            .collect()
    }

    #[test]
    fn a_commit_replaces_the_file_and_a_drop_leaves_it() {
        let dir = scratch("commit");
        let path = dir.join("out.bin");
        std::fs::write(&path, b"old").unwrap();
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new and longer").unwrap();
        // Not yet in place.
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        drop(f);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(leftovers(&dir), Vec::<String>::new());
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(leftovers(&dir), Vec::<String>::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A `commit` that fails (here the rename: the target became a directory meanwhile; on a
    /// full disk the flush) leaves no temporary file behind.
    #[test]
    fn a_failed_commit_removes_its_temporary_file() {
        let dir = scratch("failed-commit");
        let path = dir.join("out.bin");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"new").unwrap();
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), b"x").unwrap();
        let e = f.commit().unwrap_err();
        assert!(e.contains("cannot write"), "{e}");
        assert_eq!(leftovers(&dir), Vec::<String>::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_an_input_is_never_the_output() {
        let dir = scratch("links");
        let data = dir.join("d.txt");
        std::fs::write(&data, b"data").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&data, &link).unwrap();
        let hard = dir.join("hard.txt");
        std::fs::hard_link(&data, &hard).unwrap();
        let dotted = dir.join(".").join("d.txt");
        for out in [&data, &link, &hard, &dotted] {
            let e = check_output(out, &[Path::new("/nonexistent/x"), &data]).unwrap_err();
            assert!(e.contains("is the input"), "{e}");
        }
        check_output(&dir.join("other.bin"), &[&data]).unwrap();
        // Writing through the link changes the file it names and keeps the link, and the
        // file keeps its permissions.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&link, b"new").unwrap();
        let mode = std::fs::metadata(&data).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&data).unwrap(), b"new");
        let e = check_output(&dir, &[]).unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
        let e = check_output(&dir.join("no/such/dir/x.bin"), &[]).unwrap_err();
        assert!(e.contains("does not take a new file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
