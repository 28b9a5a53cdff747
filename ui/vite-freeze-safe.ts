// The desktop app freezes Object.prototype (tauri.conf.json `app.security.freezePrototype`), so
// a prototype-pollution bug in any dependency cannot change how every object behaves. In strict
// code, assigning a property that an object only *inherits* from a frozen prototype throws
// ("Attempted to assign to readonly property"): d3-color (under React Flow's zoom) does
// `prototype.constructor = constructor` on a plain object and the canvas never starts.
// This build step rewrites that one statement to `Object.defineProperty`, which creates the
// own property without going through the frozen one. Each rewrite must match exactly once, so a
// dependency update that changes the code fails the build instead of failing at run time.
import type { Plugin } from "vite";

type Rewrite = { module: RegExp; from: string; to: string };

const REWRITES: Rewrite[] = [
  {
    module: /[\\/]d3-color[\\/]dist[\\/]d3-color\.mjs$/,
    from: "prototype.constructor = constructor;",
    to: 'Object.defineProperty(prototype, "constructor", { value: constructor, writable: true, enumerable: true, configurable: true });',
  },
];

export function freezeSafe(): Plugin {
  return {
    name: "trellis-freeze-safe",
    enforce: "pre",
    transform(code, id) {
      const path = id.split("?")[0];
      for (const r of REWRITES) {
        if (!r.module.test(path)) continue;
        const count = code.split(r.from).length - 1;
        if (count !== 1) {
          this.error(`freeze-safe: expected "${r.from}" once in ${path}, found it ${count} times`);
        }
        return { code: code.replace(r.from, r.to), map: null };
      }
      return null;
    },
  };
}
