import fs from "node:fs";
import path from "node:path";

/** Reading the repository's Markdown the way GitHub renders it (issue 33: docs a newcomer can hold). */

export const root = path.resolve(__dirname, "../..");

export const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");

/** Every file under `dir` (absolute) whose name passes `keep`, skipping dependencies and generated code. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "generated" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, keep));
    else if (keep(entry.name)) out.push(full);
  }
  return out.sort();
}

/** README.md and every Markdown file under docs/. */
export const markdownFiles = () => [
  path.join(root, "README.md"),
  ...walk(path.join(root, "docs"), (n) => n.endsWith(".md")),
];

export type Line = { n: number; text: string };

/**
 * The lines of a Markdown text outside fenced code blocks, with inline code spans blanked, so a
 * link or heading written as an example inside code is not read as one. Line numbers are 1-based.
 */
export function proseLines(text: string): Line[] {
  const out: Line[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, i) => {
    const marker = line.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      return;
    }
    if (marker) {
      fence = marker[1];
      return;
    }
    out.push({ n: i + 1, text: line.replace(/(`+)[^`]*?\1/g, (m) => " ".repeat(m.length)) });
  });
  return out;
}

/** The fenced blocks of one language, e.g. every ```mermaid block, with the line each starts on. */
export function fencedBlocks(text: string, lang: string): { line: number; body: string[] }[] {
  const blocks: { line: number; body: string[] }[] = [];
  let open: { line: number; body: string[]; keep: boolean } | null = null;
  text.split("\n").forEach((line, i) => {
    const marker = line.match(/^\s{0,3}```\s*(\S*)/);
    if (open) {
      if (marker && marker[1] === "") {
        if (open.keep) blocks.push({ line: open.line, body: open.body });
        open = null;
      } else open.body.push(line);
    } else if (marker) open = { line: i + 1, body: [], keep: marker[1] === lang };
  });
  return blocks;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped (but `-` and `_`), each space a `-`. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link counts by its text
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The raw text of every ATX heading outside code, in order. */
export function headings(text: string): string[] {
  return proseLines(text)
    .map((l) => l.text.match(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => m[1]);
}

/** Every anchor the file's headings make, with GitHub's `-1`, `-2` suffixes for repeats. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(text)) {
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The links of a Markdown text: inline `[text](target)`, images, and `[ref]: target` definitions. */
export function links(text: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  for (const { n, text: line } of proseLines(text)) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ line: n, target: m[1] });
    const def = line.match(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/);
    if (def) out.push({ line: n, target: def[1] });
  }
  return out;
}
