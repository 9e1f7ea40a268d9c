import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { entryKey, PAGES, REGISTRY } from "@/tests/security/registry";

const ROOT = path.resolve(__dirname, "../..");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|js|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const rel = (p: string) => path.relative(ROOT, p).split(path.sep).join("/");
/** Code without comments, so a commented-out export or directive does not count. */
const code = (p: string) =>
  readFileSync(p, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** Names exported by `export function/const/let` and `export { a as b }`. */
function exportedNames(src: string): string[] {
  const names = [
    ...src.matchAll(
      /export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var)\s+([A-Za-z_$][\w$]*)/g,
    ),
  ].map((m) => m[1]);
  for (const m of src.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.push(name);
    }
  }
  if (/export\s+default\s+(?!async\s+function|function)/.test(src)) names.push("default");
  return names;
}

/** Every entry point in the source tree: route handler methods and server actions. */
function scanEntryPoints(): string[] {
  const found: string[] = [];
  for (const file of walk(path.join(ROOT, "app"))) {
    const src = code(file);
    if (/(^|\/)route\.(ts|js|mjs)$/.test(rel(file))) {
      for (const name of exportedNames(src))
        if (METHODS.includes(name)) found.push(entryKey({ file: rel(file), name }));
    }
  }
  for (const dir of ["app", "lib", "components"]) {
    for (const file of walk(path.join(ROOT, dir))) {
      const src = code(file);
      const fileLevel = /^\s*(?:["']use strict["'];?\s*)?["']use server["']/.test(src);
      if (fileLevel) {
        for (const name of exportedNames(src)) found.push(entryKey({ file: rel(file), name }));
      } else {
        // inline server actions: a "use server" directive inside a function body
        src.split("\n").forEach((line, i) => {
          if (/^\s*["']use server["'];?\s*$/.test(line))
            found.push(entryKey({ file: rel(file), name: `inline@${i + 1}` }));
        });
      }
    }
  }
  return found.sort();
}

describe("authorization registry", () => {
  const registered = REGISTRY.map(entryKey).sort();
  const present = scanEntryPoints();

  it("lists every route handler and server action in the source tree", () => {
    const missing = present.filter((k) => !registered.includes(k));
    expect(
      missing,
      "entry points missing from tests/security/registry.ts (add them with their access level and a matrix scenario)",
    ).toEqual([]);
  });

  it("lists nothing that no longer exists, and nothing twice", () => {
    expect(
      registered.filter((k) => !present.includes(k)),
      "registry entries with no matching export",
    ).toEqual([]);
    expect(new Set(registered).size).toBe(registered.length);
  });

  it("the scanner finds the kinds of entry point it claims to (guards against a scanner that finds nothing)", () => {
    expect(present).toEqual(
      expect.arrayContaining([
        "app/api/auth/[...nextauth]/route.ts#GET",
        "app/api/auth/[...nextauth]/route.ts#POST",
        "app/admin/actions.ts#setApprovalStatusAction",
      ]),
    );
    expect(present.length).toBeGreaterThanOrEqual(20);
  });

  it("lists every page (and generated image), so the response-level privacy matrix requests it", () => {
    const pages = walk(path.join(ROOT, "app"))
      .map(rel)
      .filter((f) => /(^|\/)(page|opengraph-image)\.tsx?$/.test(f))
      .sort();
    const listed = PAGES.map((p) => p.file).sort();
    expect(
      pages.filter((f) => !listed.includes(f)),
      "pages missing from PAGES in tests/security/registry.ts",
    ).toEqual([]);
    expect(
      listed.filter((f) => !pages.includes(f)),
      "PAGES entries with no file",
    ).toEqual([]);
    expect(pages.length).toBeGreaterThanOrEqual(15);
  });
});
