//! trellis-git: the one door to Git of the command line and the app, through gix (no `git`
//! process). A file's bytes at a revision (`trellis diff REV:PATH`, "Compare with..." in the
//! app), the recent commits of the current branch that touched a file, and the local branches
//! that hold it.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

pub use gix::Repository;

/// How many commits [`history`] walks at most to find the ones that touched a file: enough
/// for a "recent commits" list, bounded so a huge history does not stall the app.
pub const WALK_LIMIT: usize = 2000;

/// The repository around a file and the file's path in it (`/`-separated, from the work
/// tree's root).
#[derive(Debug)]
pub struct Located {
    pub repo: Repository,
    pub path: String,
    /// The work tree's root.
    pub root: PathBuf,
}

/// Finds the repository a file on disk lives in. The message says why not (no repository
/// above it, a bare repository, the file outside the work tree).
pub fn locate(file: &Path) -> Result<Located, String> {
    let file = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let folder = file.parent().ok_or_else(|| format!("{} has no folder", file.display()))?;
    let repo = gix::discover(folder).map_err(|_| format!("{} is not in a Git repository", file.display()))?;
    let root = repo.workdir().ok_or_else(|| "the repository has no work tree".to_owned())?.to_path_buf();
    let root = root.canonicalize().unwrap_or(root);
    let rel = file
        .strip_prefix(&root)
        .map_err(|_| format!("{} is outside the repository's work tree", file.display()))?;
    let path = rel.to_string_lossy().replace('\\', "/");
    Ok(Located { repo, path, root })
}

/// The bytes of `path` (from the work tree's root) at revision `rev` (anything `git rev-parse`
/// takes: a commit id, `HEAD~1`, a branch name).
pub fn read_at(repo: &Repository, rev: &str, path: &str) -> Result<Vec<u8>, String> {
    let id =
        repo.rev_parse_single(rev).map_err(|e| format!("no revision \"{rev}\" in the repository ({e})"))?;
    let object = id.object().map_err(|e| format!("cannot read revision \"{rev}\": {e}"))?;
    let tree = object.peel_to_tree().map_err(|_| format!("revision \"{rev}\" is not a commit or a tree"))?;
    let entry = tree
        .lookup_entry_by_path(path)
        .map_err(|e| format!("cannot read {path} at \"{rev}\": {e}"))?
        .ok_or_else(|| format!("there is no {path} at revision \"{rev}\""))?;
    let blob = entry.object().map_err(|e| format!("cannot read {path} at \"{rev}\": {e}"))?;
    if blob.kind != gix::object::Kind::Blob {
        return Err(format!("{path} at \"{rev}\" is a folder, not a file"));
    }
    Ok(blob.detach().data)
}

/// A commit or branch to compare with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// What [`read_at`] takes: the full commit id, or the branch name.
    pub rev: String,
    /// The short id (commits) or the branch name.
    pub label: String,
    /// The commit's first line.
    pub summary: String,
    pub author: String,
    /// Seconds since the Unix epoch.
    pub time: i64,
}

/// The id of `path`'s blob in a commit's tree (`None`: not there).
fn blob_id(commit: &gix::Commit<'_>, path: &str) -> Option<gix::ObjectId> {
    let tree = commit.tree().ok()?;
    let entry = tree.lookup_entry_by_path(path).ok()??;
    Some(entry.object_id())
}

fn describe(commit: &gix::Commit<'_>, rev: String, label: String) -> Revision {
    let summary = commit.message().map(|m| m.summary().to_string()).unwrap_or_default();
    let author = commit.author().map(|a| a.name.to_string()).unwrap_or_default();
    let time = commit.time().map(|t| t.seconds).unwrap_or(0);
    Revision { rev, label, summary, author, time }
}

/// The commits of the current branch (from HEAD, first parents) that changed `path`, newest
/// first, at most `max`: a commit is listed when the file's content differs from its first
/// parent's (added, changed, or removed). Walks at most [`WALK_LIMIT`] commits.
pub fn history(repo: &Repository, path: &str, max: usize) -> Result<Vec<Revision>, String> {
    let head = match repo.head_id() {
        Ok(id) => id.detach(),
        // An unborn branch (no commit yet): nothing to list.
        Err(_) => return Ok(Vec::new()),
    };
    let walk = repo
        .rev_walk([head])
        .first_parent_only()
        .all()
        .map_err(|e| format!("cannot walk the history: {e}"))?;
    let mut out = Vec::new();
    for info in walk.take(WALK_LIMIT) {
        let info = info.map_err(|e| format!("cannot walk the history: {e}"))?;
        let commit = info.object().map_err(|e| format!("cannot read commit {}: {e}", info.id))?;
        let mine = blob_id(&commit, path);
        let parent = commit
            .parent_ids()
            .next()
            .and_then(|p| p.object().ok())
            .map(gix::Object::into_commit)
            .and_then(|c| blob_id(&c, path));
        if mine != parent && mine.is_some() {
            let id = info.id.to_string();
            let short = id.chars().take(7).collect();
            out.push(describe(&commit, id, short));
            if out.len() >= max {
                break;
            }
        }
    }
    Ok(out)
}

/// The current branch's short name (`None` when HEAD is detached or unborn).
pub fn current_branch(repo: &Repository) -> Option<String> {
    repo.head_name().ok().flatten().map(|n| n.shorten().to_string())
}

/// The local branches other than the current one that hold `path`, by name, each with its
/// tip commit.
pub fn branches(repo: &Repository, path: &str) -> Result<Vec<Revision>, String> {
    let current = current_branch(repo);
    let platform = repo.references().map_err(|e| format!("cannot list the branches: {e}"))?;
    let iter = platform.local_branches().map_err(|e| format!("cannot list the branches: {e}"))?;
    let mut out = Vec::new();
    for r in iter {
        let Ok(mut r) = r else { continue };
        let name = r.name().shorten().to_string();
        if Some(&name) == current.as_ref() {
            continue;
        }
        let Ok(commit) = r.peel_to_commit() else { continue };
        if blob_id(&commit, path).is_none() {
            continue;
        }
        out.push(describe(&commit, name.clone(), name));
    }
    out.sort_by(|a, b| a.label.cmp(&b.label));
    Ok(out)
}

#[cfg(test)]
mod tests;
