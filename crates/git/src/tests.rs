use std::process::Command;

use super::*;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn lists_the_commits_that_touched_a_file_and_reads_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    std::fs::write(d.join("g.json"), "one").expect("write");
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "first"]);
    std::fs::write(d.join("other.txt"), "x").expect("write");
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "unrelated"]);
    std::fs::write(d.join("g.json"), "two").expect("write");
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "second\n\nbody"]);
    git(d, &["branch", "side", "HEAD~1"]);

    let located = locate(&d.join("g.json")).expect("in a repository");
    assert_eq!(located.path, "g.json");
    let h = history(&located.repo, &located.path, 10).expect("history");
    let summaries: Vec<&str> = h.iter().map(|r| r.summary.as_str()).collect();
    assert_eq!(summaries, ["second", "first"], "only the commits that changed the file, newest first");
    assert_eq!(read_at(&located.repo, &h[1].rev, "g.json").expect("reads"), b"one");
    assert_eq!(h[0].label.len(), 7);

    let b = branches(&located.repo, "g.json").expect("branches");
    assert_eq!(b.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(), ["side"]);
    assert_eq!(read_at(&located.repo, "side", "g.json").expect("reads"), b"one");
    assert_eq!(current_branch(&located.repo).as_deref(), Some("main"));

    let e = read_at(&located.repo, "nope", "g.json").expect_err("unknown revision");
    assert!(e.contains("no revision \"nope\""), "{e}");
    let e = read_at(&located.repo, "HEAD", "missing.json").expect_err("no such file");
    assert!(e.contains("there is no missing.json"), "{e}");
}

#[test]
fn a_file_outside_any_repository_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("g.json"), "{}").expect("write");
    let e = locate(&dir.path().join("g.json")).expect_err("the temp folder is not in a repository");
    assert!(e.contains("is not in a Git repository"), "{e}");
}
