// Function lengths in lib/ (issue 32 item 5), measured with the TypeScript compiler's own parser:
// every function declaration, function expression, arrow function, method, constructor and
// accessor with a body, from the line of its start to the line of its body's closing brace. A
// nested function counts inside its parent too (the parent's length is its whole text). Used by
// scripts/check-structure.mjs; run directly it lists the longest: `node scripts/lib/function-length.mjs [min]`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { libSources, root } from "./folder-graph.mjs";

/**
 * The name a function is known by: its own, its variable's or property's; a callback is named
 * after the function it is written in ("updateCampaign callback").
 */
function nameOf(node, sf, outer) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return outer ? `${outer} callback` : "(anonymous)";
}

/** [{ file, name, line, lines }] for every function with a body in `file`. */
export function functionsOf(file, text = fs.readFileSync(path.join(root, file), "utf8")) {
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out = [];
  const visit = (node, outer) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const end = sf.getLineAndCharacterOfPosition(node.body.getEnd()).line + 1;
      const name = nameOf(node, sf, outer);
      out.push({ file, name, line: start, lines: end - start + 1 });
      outer = name;
    }
    ts.forEachChild(node, (child) => visit(child, outer));
  };
  visit(sf, null);
  return out;
}

export const allFunctions = () => libSources().flatMap((f) => functionsOf(f));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const min = Number(process.argv[2] ?? 60);
  for (const f of allFunctions()
    .filter((f) => f.lines > min)
    .sort((a, b) => b.lines - a.lines))
    console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
}
