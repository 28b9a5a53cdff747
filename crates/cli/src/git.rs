//! The command line's side of Git: `REV:PATH` arguments read relative to the current folder
//! (the reading itself is trellis-git's, shared with the app), and the repository for
//! `trellis git-setup`'s config.

use std::path::{Component, Path, PathBuf};

/// An argument that names a file at a revision: `REV:PATH`. A path that exists as a file is
/// always a file, so `a:b.json` on disk is read from disk.
pub fn as_revision(arg: &str) -> Option<(&str, &str)> {
    if Path::new(arg).exists() {
        return None;
    }
    let (rev, path) = arg.split_once(':')?;
    (!rev.is_empty() && !path.is_empty()).then_some((rev, path))
}

/// The repository around the current folder.
pub fn discover() -> Result<gix::Repository, String> {
    gix::discover(".").map_err(|e| format!("not in a Git repository ({e})"))
}

/// `path` relative to the work tree's root: `./x` and `../x` are taken from the current folder
/// (as Git does), anything else from the root.
fn repo_relative(repo: &gix::Repository, path: &str) -> Result<String, String> {
    if !(path.starts_with("./") || path.starts_with("../")) {
        return Ok(path.trim_start_matches('/').to_owned());
    }
    let root = repo.workdir().ok_or("the repository has no work tree, so `./` paths mean nothing")?;
    let cwd = std::env::current_dir().map_err(|e| format!("cannot tell the current folder: {e}"))?;
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let mut full = PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            Component::ParentDir => {
                full.pop();
            }
            Component::CurDir => {}
            other => full.push(other),
        }
    }
    let rel = full.strip_prefix(&root).map_err(|_| format!("{path} is outside the repository"))?;
    Ok(rel.to_string_lossy().replace('\\', "/"))
}

/// The bytes of `path` at revision `rev` in `repo`, with the path as the repository names it.
pub fn read_in(repo: &gix::Repository, rev: &str, path: &str) -> Result<(Vec<u8>, String), String> {
    let rel = repo_relative(repo, path)?;
    let bytes = trellis_git::read_at(repo, rev, &rel)?;
    Ok((bytes, rel))
}
