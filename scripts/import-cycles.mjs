#!/usr/bin/env node
// Fails on an import cycle between the modules of a Rust crate or between the files of ui/src.
//
//   node scripts/import-cycles.mjs [--root DIR] [--allow FILE]
//
// Rust: every crate target under DIR (crate roots found beside each Cargo.toml with a
// [package]); a module is a file module or an inline `mod x { ... }`. Module A depends on B when
// A names something of B: `use` declarations and paths written in code (`crate::`, `super::`,
// `self::`, a child module, a `use`d module), a glob import by the names the module uses.
// Declaring a child (`mod x;`) is not a use; a re-export (`pub use`) is, and a name is followed
// through re-exports to the module that defines it. A cycle is printed as the modules
// of a strongly connected component with one line per dependency inside it (file:line).
// TypeScript: ui/src through dpdm (static and dynamic imports, `import type`, `export ... from`).
//
// FILE (default scripts/import-cycles.allow): path prefixes, one a line (`#` comments); a cycle
// whose files all lie under one of them is listed as allowed and does not fail the check.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCircular, parseDependencyTree } from "dpdm";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const ROOT = resolve(option("--root", join(dirname(fileURLToPath(import.meta.url)), "..")));
const ALLOW_FILE = resolve(ROOT, option("--allow", "scripts/import-cycles.allow"));
const rel = (p) => relative(ROOT, p);

// ---- Rust: reading a file ------------------------------------------------------------------

/** `text` with comments, string and char literals blanked (same length, newlines kept), so that
 * braces and paths are only code's. */
function codeOnly(text) {
  const out = text.split("");
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i, i + 3);
    if (rest.startsWith("//")) {
      const end = text.indexOf("\n", i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (rest.startsWith("/*")) {
      let depth = 0;
      let j = i;
      do {
        if (text.startsWith("/*", j)) (depth++, (j += 2));
        else if (text.startsWith("*/", j)) (depth--, (j += 2));
        else j++;
      } while (depth > 0 && j < text.length);
      blank(i, j);
      i = j;
    } else if (/^b?r#*"/.test(rest) || /^br#*"/.test(text.slice(i, i + 4))) {
      const m = /^b?r(#*)"/.exec(text.slice(i));
      const end = text.indexOf(`"${m[1]}`, i + m[0].length);
      const to = end < 0 ? text.length : end + 1 + m[1].length;
      blank(i + 1, to - 1);
      i = to;
    } else if (text[i] === '"' && !/\w/.test(text[i - 1] ?? "")) {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (text[i] === "'") {
      const m = /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/.exec(text.slice(i));
      if (m) blank(i + 1, i + m[0].length - 1);
      i += m ? m[0].length : 1;
    } else i++;
  }
  return out.join("");
}

/** The trees of a `use` declaration's text (after `use`): `[path segments, alias | "*"]`. */
function useTrees(text, prefix = []) {
  const out = [];
  let depth = 0;
  let start = 0;
  const parts = [];
  for (let k = 0; k <= text.length; k++) {
    const c = text[k];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    if ((c === "," && depth === 0) || k === text.length) {
      parts.push(text.slice(start, k).trim());
      start = k + 1;
    }
  }
  for (const part of parts.filter(Boolean)) {
    const brace = part.indexOf("{");
    if (brace >= 0) {
      const head = part.slice(0, brace).replace(/::\s*$/, "");
      const path = [...prefix, ...head.split("::").map((s) => s.trim()).filter(Boolean)];
      out.push(...useTrees(part.slice(brace + 1, part.lastIndexOf("}")), path));
      continue;
    }
    const m = /^(.*?)(?:\s+as\s+(\w+))?$/.exec(part);
    const path = [...prefix, ...m[1].split("::").map((s) => s.trim()).filter(Boolean)];
    if (path.at(-1) === "*") out.push([path.slice(0, -1), "*"]);
    else if (path.at(-1) === "self") out.push([path.slice(0, -1), m[2] ?? path.at(-2)]);
    else out.push([path, m[2] ?? path.at(-1)]);
  }
  return out;
}

// ---- Rust: the module tree of a crate ------------------------------------------------------

/** A module: where it is, what it declares, what it names. */
function newModule(id, file, parent) {
  return {
    id,
    file,
    parent,
    children: new Map(),
    defines: new Set(),
    aliases: new Map(), // name -> path (resolved from this module)
    globs: [], // paths of `use ...::*`
    named: [], // [path, line] named by a `use` (a re-export too) or by code
    globbed: [], // [path, line] of glob imports (followed for the names the module uses)
    words: new Map(), // identifier -> first line it appears on in this module's own code
  };
}

/** Reads the file of module `mod` (a crate root, a `mod x;` or a `#[path]` file), its inline
 * modules and its children's files. `dir`: where its children's files are. */
function readModuleFile(crate, mod, file, dir) {
  const text = readFileSync(file, "utf8");
  const code = codeOnly(text);
  const starts = [...text.matchAll(/\n/g)].map((m) => m.index);
  const lineAt = (at) => 1 + starts.filter((s) => s < at).length;
  const pathAttrs = new Map();
  for (const m of text.matchAll(/#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/g))
    pathAttrs.set(m.index + m[0].lastIndexOf("mod"), m[1]);

  const stack = [{ mod, depth: 0, dir }];
  let depth = 0;
  const token = new RegExp(
    [
      /\b(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(?<mod>\w+)\s*(?<body>[;{])/,
      /\buse\s+(?<use>[^;]+);/,
      /\b(?:fn|struct|enum|trait|type|const|static|union)\s+(?<item>\w+)|\bmacro_rules!\s*(?<macro>\w+)/,
      /\b(?<path>(?:crate|super|self|[A-Za-z_]\w*)(?:\s*::\s*\w+)+)/,
      /(?<word>[A-Za-z_]\w*)|(?<brace>[{}])/,
    ]
      .map((r) => r.source)
      .join("|"),
    "g",
  );
  for (const m of code.matchAll(token)) {
    const { mod: name, body, use, item, macro, path, word, brace } = m.groups;
    const top = stack.at(-1);
    const here = top.mod;
    if (brace === "{") depth++;
    else if (brace === "}") {
      depth--;
      if (depth < top.depth) stack.pop();
    } else if (name && body === ";") {
      const at = m.index + m[0].indexOf("mod");
      const childFile = pathAttrs.has(at)
        ? join(dirname(file), pathAttrs.get(at))
        : [join(top.dir, `${name}.rs`), join(top.dir, name, "mod.rs")].find(existsSync);
      if (!childFile) continue; // a module written at build time
      const child = newModule(`${here.id}::${name}`, rel(childFile), here);
      here.children.set(name, child);
      crate.modules.push(child);
      const modRs = /(^|\/)mod\.rs$/.test(childFile);
      readModuleFile(crate, child, childFile, modRs ? dirname(childFile) : join(top.dir, name));
    } else if (name) {
      depth++;
      const child = newModule(`${here.id}::${name}`, `${rel(file)}::${name}`, here);
      here.children.set(name, child);
      crate.modules.push(child);
      stack.push({ mod: child, depth, dir: join(top.dir, name) });
    } else if (use) {
      for (const [target, alias] of useTrees(use.replace(/^::/, ""))) {
        if (alias === "*") here.globs.push(target);
        else here.aliases.set(alias, target);
        (alias === "*" ? here.globbed : here.named).push([target, lineAt(m.index)]);
      }
    } else if (item || macro) {
      if (depth === top.depth) here.defines.add(item ?? macro);
    } else if (path) {
      here.named.push([path.split("::").map((s) => s.trim()), lineAt(m.index)]);
    } else if (word && !here.words.has(word)) here.words.set(word, lineAt(m.index));
  }
}

/** The module a path names from module `from` (`null`: outside the crate), following `use`
 * aliases and re-exports to where the last name is defined. */
function resolvePath(crate, from, path, seen = 0) {
  if (seen > 32 || path.length === 0) return null;
  let [first, ...rest] = path;
  let at;
  if (first === "crate") at = crate.root;
  else if (first === "self") at = from;
  else if (first === "super") at = from.parent;
  else if (from.children.has(first)) at = from.children.get(first);
  else if (from.aliases.has(first)) return resolvePath(crate, from, [...from.aliases.get(first), ...rest], seen + 1);
  else {
    const source = globSource(crate, from, first, seen);
    return source ? resolvePath(crate, source, ["self", first, ...rest], seen + 1) : null;
  }
  while (at && rest.length) {
    const [name, ...more] = rest;
    if (name === "super") at = at.parent;
    else if (name === "self") {
      /* stays */
    } else if (at.children.has(name)) at = at.children.get(name);
    else if (at.defines.has(name)) return at;
    else if (at.aliases.has(name)) return resolvePath(crate, at, [...at.aliases.get(name), ...more], seen + 1);
    else {
      const source = globSource(crate, at, name, seen);
      return source ? resolvePath(crate, source, ["self", ...rest], seen + 1) : at;
    }
    rest = more;
  }
  return at;
}

/** The module a glob import of `mod` brings `name` from, if one does. */
function globSource(crate, mod, name, seen) {
  for (const glob of mod.globs) {
    const source = resolvePath(crate, mod, glob, seen + 1);
    if (source && source !== mod && (source.defines.has(name) || source.children.has(name) || source.aliases.has(name)))
      return source;
  }
  return null;
}

/** The root file of every crate target under ROOT (lib, bins, tests, benches, examples, build script). */
function crateRoots() {
  const roots = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (["target", "node_modules", ".git"].includes(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === "Cargo.toml" && /^\[package\]/m.test(readFileSync(p, "utf8"))) roots.push(...targetsOf(dir));
    }
  };
  walk(ROOT);
  return roots;
}

function targetsOf(pkg) {
  const toml = readFileSync(join(pkg, "Cargo.toml"), "utf8");
  const files = new Set([...toml.matchAll(/^path\s*=\s*"([^"]+\.rs)"/gm)].map((m) => join(pkg, m[1])));
  for (const f of ["src/lib.rs", "src/main.rs", "build.rs"]) files.add(join(pkg, f));
  for (const d of ["src/bin", "tests", "benches", "examples"]) {
    const dir = join(pkg, d);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name.endsWith(".rs")) files.add(p);
      else if (statSync(p).isDirectory() && existsSync(join(p, "main.rs"))) files.add(join(p, "main.rs"));
    }
  }
  return [...files].filter(existsSync);
}

/** The dependencies between a crate's modules: `[from, to, line]`. */
function rustCrate(rootFile) {
  const root = newModule("crate", rel(rootFile), null);
  const crate = { root, modules: [root] };
  readModuleFile(crate, root, rootFile, dirname(rootFile));
  const edges = [];
  for (const mod of crate.modules) {
    const add = (to, line) => to && to !== mod && edges.push([mod, to, line]);
    for (const [path, line] of mod.named) add(resolvePath(crate, mod, path), line);
    // A glob import counts for the names this module uses that the glob brings.
    for (const [glob] of mod.globbed) {
      const source = resolvePath(crate, mod, glob);
      if (!source) continue;
      for (const [word, line] of mod.words) {
        // (A child module it brings counts only as a path's start, read above.)
        if (mod.defines.has(word) || !(source.defines.has(word) || source.aliases.has(word))) continue;
        add(resolvePath(crate, source, ["self", word]), line);
      }
    }
  }
  return { crate, edges };
}

// ---- Cycles --------------------------------------------------------------------------------

/** The strongly connected components of more than one node (Tarjan). */
function components(nodes, next) {
  let index = 0;
  const info = new Map();
  const stack = [];
  const out = [];
  const visit = (v) => {
    info.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of next(v)) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group);
    }
  };
  for (const v of nodes) if (!info.has(v)) visit(v);
  return out;
}

function rustCycles() {
  const cycles = [];
  for (const rootFile of crateRoots()) {
    const { crate, edges } = rustCrate(rootFile);
    const next = new Map(crate.modules.map((m) => [m, new Set()]));
    for (const [from, to] of edges) next.get(from).add(to);
    for (const group of components(crate.modules, (m) => next.get(m))) {
      const inside = new Set(group);
      const lines = new Map();
      for (const [from, to, line] of edges) {
        const key = `${from.file} -> ${to.file}`;
        if (inside.has(from) && inside.has(to) && !lines.has(key)) lines.set(key, `${from.file.split("::")[0]}:${line}`);
      }
      cycles.push({
        kind: `Rust, crate ${rel(rootFile)}`,
        files: group.map((m) => m.file.split("::")[0]),
        lines: [...lines].map(([key, at]) => `${key}  (${at})`),
      });
    }
  }
  return cycles;
}

async function typescriptCycles() {
  const src = join(ROOT, "ui", "src");
  if (!existsSync(src)) return [];
  const tree = await parseDependencyTree(["**/*.ts", "**/*.tsx"], {
    context: src,
    cwd: src,
    transform: false,
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
  return parseCircular(tree).map((files) => ({
    kind: "TypeScript",
    files: files.map((f) => rel(join(src, f))),
    lines: files.map((f, k) => `${rel(join(src, f))} -> ${rel(join(src, files[(k + 1) % files.length]))}`),
  }));
}

const allowed = existsSync(ALLOW_FILE)
  ? readFileSync(ALLOW_FILE, "utf8")
      .split("\n")
      .map((l) => l.replace(/#.*/, "").trim())
      .filter(Boolean)
  : [];
const isAllowed = (cycle) => allowed.some((prefix) => cycle.files.every((f) => f.startsWith(prefix)));

const cycles = [...rustCycles(), ...(await typescriptCycles())];
let failing = 0;
for (const cycle of cycles) {
  const ok = isAllowed(cycle);
  if (!ok) failing++;
  console.log(`${ok ? "allowed" : "CYCLE"} (${cycle.kind}): ${[...new Set(cycle.files)].join(", ")}`);
  for (const line of cycle.lines) console.log(`    ${line}`);
}
console.log(
  `import cycles: ${failing} failing, ${cycles.length - failing} allowed${allowed.length ? ` (${rel(ALLOW_FILE)})` : ""}`,
);
process.exit(failing ? 1 : 0);
