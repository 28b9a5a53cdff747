// The import-cycle check on small trees planted with cycles (and trees that only look like
// one): `node --test scripts/import-cycles.test.mjs` (scripts/test.sh runs it).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "import-cycles.mjs");
const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A tree of `files` (path -> text) with a Cargo package at its root; the check run on it. */
function check(files, allow) {
  const root = mkdtempSync(join(tmpdir(), "cycles-"));
  made.push(root);
  const all = { "Cargo.toml": '[package]\nname = "planted"\n', "src/lib.rs": "", ...files };
  if (allow !== undefined) all["allow.txt"] = allow;
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT, "--root", root, "--allow", "allow.txt"], { encoding: "utf8" });
  return { code: run.status, out: run.stdout + run.stderr };
}

test("a cycle of three Rust modules through use, super:: and crate:: paths is found", () => {
  const { code, out } = check({
    "src/lib.rs": "mod a;\nmod b;\nmod c;\n",
    "src/a.rs": "use crate::b::B;\npub struct A(B);\n",
    "src/b.rs": "pub struct B;\nfn f() -> super::c::C { todo!() }\n",
    "src/c.rs": "pub struct C;\nfn g(_: crate::a::A) {}\n",
  });
  assert.equal(code, 1, out);
  assert.match(out, /CYCLE \(Rust, crate src\/lib\.rs\): .*src\/a\.rs/);
  for (const edge of ["src/a.rs -> src/b.rs  (src/a.rs:1)", "src/b.rs -> src/c.rs  (src/b.rs:2)", "src/c.rs -> src/a.rs  (src/c.rs:2)"])
    assert.ok(out.includes(edge), `${edge} in:\n${out}`);
});

test("a parent using its child while the child uses the parent is a cycle; a name is followed through a re-export", () => {
  const { code, out } = check({
    "src/lib.rs": "mod shapes;\nmod draw;\npub use shapes::Square;\n",
    "src/shapes.rs": "mod corner;\npub struct Square;\npub fn area() -> f64 { corner::size() }\n",
    "src/shapes/corner.rs": "use super::*;\npub fn size() -> f64 { let _ = Square; 1.0 }\n",
    "src/draw.rs": "fn draw(_: crate::Square) {}\n",
  });
  assert.equal(code, 1, out);
  assert.ok(out.includes("src/shapes.rs -> src/shapes/corner.rs  (src/shapes.rs:3)"), out);
  assert.ok(out.includes("src/shapes/corner.rs -> src/shapes.rs  (src/shapes/corner.rs:2)"), out);
  assert.doesNotMatch(out, /src\/draw\.rs ->/, "draw uses shapes (through the root's re-export), and nothing uses draw");
});

test("declaring children, a test module using its parent, a glob that brings nothing used, comments and strings are no cycle", () => {
  const { code, out } = check({
    "src/lib.rs": "mod a;\nmod b;\npub use a::A;\n",
    "src/a.rs": [
      "mod inner;",
      "pub struct A;",
      '// uses crate::b::B in a comment, and "crate::b::B" in a string',
      "#[cfg(test)]",
      "mod tests {",
      "    use super::*;",
      "    #[test]",
      "    fn t() { let _ = (A, crate::b::B); }",
      "}",
    ].join("\n"),
    "src/a/inner.rs": "use super::*;\npub fn free() {}\n",
    "src/b.rs": "pub struct B;\nfn f(_: crate::a::A) {}\n",
  });
  assert.equal(code, 0, out);
  assert.match(out, /import cycles: 0 failing/);
});

test("a cycle of TypeScript files through `import type` and `export ... from` is found", () => {
  const { code, out } = check({
    "ui/src/scene.ts": 'import type { Overview } from "./overview";\nexport type Scene = { owner: Overview };\n',
    "ui/src/overview.ts": 'export { type Scene } from "./scene";\nexport type Overview = { n: number };\n',
    "ui/src/free.ts": 'import type { Scene } from "./scene";\nexport const none: Scene[] = [];\n',
  });
  assert.equal(code, 1, out);
  assert.match(out, /CYCLE \(TypeScript\): ui\/src\/(scene|overview)\.ts, ui\/src\/(overview|scene)\.ts/);
  assert.doesNotMatch(out, /free\.ts/);
});

test("a cycle under a prefix of the allow-list is listed as allowed and does not fail", () => {
  const files = {
    "src/lib.rs": "mod a;\nmod b;\n",
    "src/a.rs": "pub fn a() { crate::b::b() }\n",
    "src/b.rs": "pub fn b() { super::a::a() }\n",
  };
  const allowed = check(files, "# the reader's modules, until that branch lands\nsrc/\n");
  assert.equal(allowed.code, 0, allowed.out);
  assert.match(allowed.out, /allowed \(Rust, crate src\/lib\.rs\): src\/(a|b)\.rs/);
  assert.match(allowed.out, /import cycles: 0 failing, 1 allowed/);
  const elsewhere = check(files, "ui/src/\n");
  assert.equal(elsewhere.code, 1, elsewhere.out);
});
