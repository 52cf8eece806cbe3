//! The outside world, for every other module: which tools are installed
//! (and whether a missing one fails the run), commands run with a time
//! limit, where `generated/` and the build cache are, files written whole.
//! It imports no other module of this crate.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Is `tool` a file on `$PATH`?
pub fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

/// The first of `tools` that is not on `$PATH`, as an error naming the
/// Debian package that brings it: what every engine and the proof say when
/// they cannot start.
pub fn require(what: &str, tools: &[&str], package: &str) -> Result<(), String> {
    match tools.iter().find(|t| !on_path(t)) {
        None => Ok(()),
        Some(t) => Err(format!("{what} could not start: '{t}' is not installed (apt-get install {package})")),
    }
}

/// Where builds are cached: `$CROSSLANE_CACHE_DIR`; else the workspace's
/// `target/crosslane-cache` when the binary runs beside its workspace; else
/// `crosslane-cache` in the system's temporary directory (an installed
/// binary). Entries are keyed by a hash of what they were built from.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("CROSSLANE_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target");
    if target.is_dir() {
        target.join("crosslane-cache")
    } else {
        std::env::temp_dir().join("crosslane-cache")
    }
}

/// FNV-1a, 64 bits: a build key that never changes across Rust versions.
pub fn fnv1a(data: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for d in data {
        for &b in d.iter() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The checked-in `generated/` the simulators run: `$CROSSLANE_GENERATED_DIR`,
/// else the workspace's `generated/`.
pub fn generated_dir() -> PathBuf {
    std::env::var_os("CROSSLANE_GENERATED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated"))
}

/// The last `lines` lines of `s`.
pub fn tail(s: &str, lines: usize) -> String {
    let all: Vec<&str> = s.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Write `contents` to `path` through a temporary file renamed into place,
/// so a failure leaves no partial file. The temporary file is new, in the
/// target's folder, named after the target, this process and a counter
/// (`.NAME.PID-N.tmp`): no other file, nor another writer's, is touched.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), String> {
    use std::io::Write;
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = path.file_name().ok_or_else(|| format!("cannot write {}: not a file name", path.display()))?;
    let (tmp, mut file) = loop {
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot write {}: {e}", tmp.display())),
        }
    };
    file.write_all(contents).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", tmp.display())
    })?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot rename {} into place: {e}", path.display())
    })
}

/// Whether [`write_atomic`] could write `path`: its folder is (or can be
/// made) a folder where a new file can be created, and `path` is no folder.
/// Checked before long work whose result goes there.
pub fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{} is a folder", path.display()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if dir.exists() && !dir.is_dir() {
        return Err(format!("cannot write {}: {} is not a folder", path.display(), dir.display()));
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let probe = dir.join(format!(".crosslane-probe.{}.tmp", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A temporary file in the cache (its path `.0`), removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(stem: &str) -> Result<TempFile, String> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = cache_root().join("tmp");
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(TempFile(dir.join(format!("{stem}-{}-{n}", std::process::id()))))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Run `cmd`, killing it after `limit`: `Ok(None)` on a time-out.
pub fn run_limited(cmd: &mut Command, limit: Duration) -> Result<Option<Output>, String> {
    run_limited_input(cmd, None, limit)
}

/// [`run_limited`] with `input`, when given, written to the command's stdin
/// (on a thread, so that a tool that answers as it reads never blocks).
pub fn run_limited_input(cmd: &mut Command, input: Option<Vec<u8>>, limit: Duration) -> Result<Option<Output>, String> {
    let what = format!("{:?}", cmd.get_program());
    let mut child = cmd
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    let t_in = match (input, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => {
            Some(std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &bytes)))
        }
        _ => None,
    };
    // Drain the pipes on threads so a chatty tool never blocks.
    fn drain(mut pipe: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = pipe.read_to_end(&mut b);
            b
        })
    }
    let t_out = drain(child.stdout.take().ok_or("no stdout")?);
    let t_err = drain(child.stderr.take().ok_or("no stderr")?);
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| format!("{what}: {e}"))? {
            Some(s) => break Some(s),
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    // The writer ends when the child exits (a closed pipe); its error, if
    // any, shows in the child's output.
    if let Some(t) = t_in {
        let _ = t.join();
    }
    Ok(status.map(|status| Output { status, stdout, stderr }))
}

/// Every shard 1..=`count` listed exactly once by the reports (`name`, the
/// shards it lists): a doubled or missing shard is an error naming it.
pub fn every_shard_once<'a>(reports: impl Iterator<Item = (&'a str, &'a [usize])>, count: usize) -> Result<(), String> {
    // Owners by shard, for the shards the reports list (never `count` slots:
    // a forged count must not allocate).
    let mut owner: std::collections::BTreeMap<usize, &str> = std::collections::BTreeMap::new();
    for (name, shards) in reports {
        for &i in shards {
            if let Some(other) = owner.insert(i, name) {
                return Err(format!("shard {i}/{count} is in both {other} and {name}"));
            }
        }
    }
    if owner.len() != count {
        let missing: Vec<String> =
            (1..=count).filter(|i| !owner.contains_key(i)).take(10).map(|i| format!("{i}/{count}")).collect();
        let more = count - owner.len() - missing.len();
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        return Err(format!("shards missing: {}{more}", missing.join(", ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_key_depends_on_every_part() {
        assert_ne!(fnv1a(&[b"ab", b"c"]), fnv1a(&[b"a", b"bc"]));
        assert_eq!(fnv1a(&[b"x"]), fnv1a(&[b"x"]));
    }

    #[test]
    fn writes_whole_touch_no_other_file() {
        let dir = std::env::temp_dir().join(format!("crosslane-write-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A file named as the target with `.tmp` survives (it was the old
        // fixed temporary name), and so does anything else in the folder.
        std::fs::write(dir.join("keep.tmp"), "mine").unwrap();
        write_atomic(&dir.join("keep.json"), b"{}").unwrap();
        write_atomic(&dir.join("keep.json"), b"{\"a\": 1}").unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("keep.tmp")).unwrap(), "mine");
        assert_eq!(std::fs::read_to_string(dir.join("keep.json")).unwrap(), "{\"a\": 1}");
        let mut left: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        left.sort();
        assert_eq!(left, ["keep.json", "keep.tmp"]);
        // A folder where the file should be: an error, the folder untouched.
        std::fs::create_dir_all(dir.join("d.json")).unwrap();
        assert!(write_atomic(&dir.join("d.json"), b"x").is_err());
        assert!(dir.join("d.json").is_dir());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        // Checked before: a folder, a file where the folder should be.
        assert!(check_writable(&dir.join("d.json")).unwrap_err().contains("is a folder"));
        assert!(check_writable(&dir.join("keep.tmp/r.json")).unwrap_err().contains("is not a folder"));
        assert_eq!(check_writable(&dir.join("new/r.json")), Ok(()));
        assert!(!dir.join("new/r.json").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_tool_is_named_with_its_package() {
        let e = require("engine 'x'", &["sh", "no-such-tool-crosslane"], "pkg").unwrap_err();
        assert_eq!(e, "engine 'x' could not start: 'no-such-tool-crosslane' is not installed (apt-get install pkg)");
        assert_eq!(require("engine 'x'", &["sh"], "pkg"), Ok(()));
    }
}
