// The import graph between lib/ folders (issue 32 item 5), read with the TypeScript compiler's own
// parser: static imports, re-exports and dynamic import() of `@/lib/…` or relative paths. A folder
// is lib/<name>/; a file directly in lib/ (db.ts, env.ts, …) is a node of its own named by its base
// name. Tests (*.test.ts) and lib/generated are out of scope. Used by scripts/check-structure.mjs;
// run directly it prints the picture as Markdown: `node scripts/lib/folder-graph.mjs`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const rel = (f) => path.relative(root, f).split(path.sep).join("/");

/** Every lib/ source file (ts/tsx), without tests and lib/generated. */
export function libSources() {
  const out = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "generated") walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(rel(p));
    }
  })(path.join(root, "lib"));
  return out.sort();
}

/** The node a lib/ file belongs to: its folder, or its own base name for a file directly in lib/. */
export function nodeOf(file) {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.(ts|tsx|mjs|cjs)$/, "");
}

function resolveSpec(spec, from) {
  let base;
  if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(path.join(root, from)), spec);
  else return null;
  for (const c of ["", ".ts", ".tsx", "/index.ts"]) {
    const p = base + c;
    if (fs.existsSync(p) && fs.statSync(p).isFile()) return rel(p);
  }
  return null;
}

/** The files a source imports: [{ target, typeOnly, line }], targets resolved to repo-relative paths. */
export function importsOf(file, text = fs.readFileSync(path.join(root, file), "utf8")) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out = [];
  const add = (spec, typeOnly, node) => {
    const target = resolveSpec(spec, file);
    if (target)
      out.push({ target, typeOnly, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      const typeOnly =
        !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly, node);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly, node);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * The folder graph: edges "from→to" with the importing files (type-only imports included unless
 * `{ runtimeOnly: true }`). Imports inside one node are not edges.
 */
export function folderGraph({ runtimeOnly = false } = {}) {
  const files = libSources();
  const nodes = [...new Set(files.map(nodeOf))].sort();
  /** @type {Map<string, {from: string, to: string, imports: {file: string, target: string, line: number, typeOnly: boolean}[]}>} */
  const edges = new Map();
  for (const file of files)
    for (const imp of importsOf(file)) {
      if (runtimeOnly && imp.typeOnly) continue;
      if (!imp.target.startsWith("lib/") || imp.target.startsWith("lib/generated/")) continue;
      const from = nodeOf(file);
      const to = nodeOf(imp.target);
      if (from === to) continue;
      const key = `${from}→${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, imports: [] });
      edges.get(key).imports.push({ file, ...imp });
    }
  return { nodes, edges: [...edges.values()].sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to)) };
}

/** Strongly connected components (Tarjan), largest first; singletons included. */
export function components({ nodes, edges }) {
  const next = new Map(nodes.map((n) => [n, []]));
  for (const e of edges) next.get(e.from).push(e.to);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      out.push(c.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) strong(n);
  return out.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** The picture as Markdown: nodes with file counts, arrows with import counts, components. */
export function describe() {
  const lines = [];
  for (const runtimeOnly of [false, true]) {
    const g = folderGraph({ runtimeOnly });
    const comps = components(g);
    const loops = comps.filter((c) => c.length > 1);
    lines.push(
      `## ${runtimeOnly ? "Runtime imports only (type-only imports left out)" : "All imports (type-only included)"}`,
    );
    lines.push("");
    lines.push(
      `${g.nodes.length} nodes, ${g.edges.length} arrows, ${g.edges.reduce((s, e) => s + e.imports.length, 0)} file imports.`,
    );
    lines.push(
      loops.length
        ? `Folder cycles: ${loops.map((c) => `{${c.join(", ")}} (${c.length})`).join("; ")}`
        : "Folder cycles: none.",
    );
    lines.push("");
    lines.push("| from → to | file imports | in a cycle |");
    lines.push("| --- | --- | --- |");
    const compOf = new Map();
    comps.forEach((c, i) => c.forEach((n) => compOf.set(n, i)));
    for (const e of g.edges)
      lines.push(
        `| ${e.from} → ${e.to} | ${e.imports.length} | ${compOf.get(e.from) === compOf.get(e.to) ? "yes" : ""} |`,
      );
    lines.push("");
  }
  const files = libSources();
  const counts = new Map();
  for (const f of files) counts.set(nodeOf(f), (counts.get(nodeOf(f)) ?? 0) + 1);
  lines.unshift("## Nodes (files)", "", [...counts].map(([n, c]) => `${n} (${c})`).join(", "), "");
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  console.log(describe());
