import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headings, rel, root, walk } from "./markdown";

/**
 * Issue 33: the code cites the specification and the design by section (`SPEC §4`, `DESIGN §1
 * "failed payments"`). Every such citation must resolve to a heading `§n` of docs/spec.md or
 * docs/decisions/design.md, and a quoted §1 topic to one of design.md's §1 sub-headings.
 */

const DOCS = { SPEC: "docs/spec.md", DESIGN: "docs/decisions/design.md" } as const;
type Doc = keyof typeof DOCS;

const SOURCE_DIRS = ["lib", "app", "components", "scripts", "tests", "e2e", "prisma"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|sql|prisma)$/;

/** One citation and where it is. */
type Citation = { file: string; line: number; doc: Doc; section: number; topic?: string; text: string };

/** DESIGN §1 is a list of topics, each a sub-heading; elsewhere a quote after a citation is a UI string. */
const isTopical = (doc: Doc, section: number) => doc === "DESIGN" && section === 1;

/**
 * The citations in one line: `SPEC §5`, the further sections of a list (`SPEC §5, §9`, `SPEC §4/§6`,
 * `SPEC §2 and §8`), and the quoted topic after a DESIGN §1 citation (also with escaped quotes).
 */
function citationsIn(text: string): Omit<Citation, "file" | "line">[] {
  const out: Omit<Citation, "file" | "line">[] = [];
  const re = /\b(DESIGN|SPEC)(?:\.md)? §(\d+)((?:\s*(?:,|\/|and|&)\s*§\d+)*)(?: \\?"([^"\\]+)\\?")?/g;
  for (const m of text.matchAll(re)) {
    const doc = m[1] as Doc;
    const sections = [Number(m[2]), ...[...(m[3] ?? "").matchAll(/§(\d+)/g)].map((s) => Number(s[1]))];
    sections.forEach((section, i) =>
      out.push({
        doc,
        section,
        text: m[0],
        ...(i === 0 && m[4] && isTopical(doc, section) ? { topic: m[4] } : {}),
      }),
    );
  }
  return out;
}

function sourceFiles(): string[] {
  const inRoot = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => path.join(root, e.name));
  return [...inRoot, ...SOURCE_DIRS.flatMap((d) => walk(path.join(root, d), (n) => SOURCE.test(n)))];
}

function citations(): Citation[] {
  return sourceFiles().flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => citationsIn(line).map((c) => ({ ...c, file: rel(file), line: i + 1 }))),
  );
}

/** The sections a document has (`## §4 States and transitions` → 4) and the sub-headings of each. */
function sectionsOf(doc: Doc): Map<number, string[]> {
  const out = new Map<number, string[]>();
  let current: string[] | null = null;
  for (const h of headings(fs.readFileSync(path.join(root, DOCS[doc]), "utf8"))) {
    const m = h.match(/^§(\d+)(?!\d)/);
    if (m) {
      current = [];
      out.set(Number(m[1]), current);
    } else current?.push(h.toLowerCase());
  }
  return out;
}

/** What is wrong with one citation, or null. */
function problem(c: Omit<Citation, "file" | "line">, docs: Record<Doc, Map<number, string[]>>) {
  const subs = docs[c.doc].get(c.section);
  if (!subs) return `${DOCS[c.doc]} has no heading "§${c.section}"`;
  const topic = c.topic?.toLowerCase();
  if (topic && !subs.some((h) => h.includes(topic)))
    return `${DOCS[c.doc]} §${c.section} has no sub-heading for "${c.topic}"`;
  return null;
}

describe("finding citations", () => {
  const shown = (line: string) =>
    citationsIn(line).map((c) => `${c.doc} §${c.section}${c.topic ? ` "${c.topic}"` : ""}`);
  it.each<[string, string[]]>([
    ["see SPEC §4 commit flow", ["SPEC §4"]],
    ["SPEC §5, §9 and SPEC §4/§6", ["SPEC §5", "SPEC §9", "SPEC §4", "SPEC §6"]],
    ['DESIGN §1 "failed payments": the window', ['DESIGN §1 "failed payments"']],
    ['"DESIGN §1 \\"withdrawing\\": the backer', ['DESIGN §1 "withdrawing"']],
    ["(DESIGN §4)", ["DESIGN §4"]],
    ['SPEC §2 "Manage page"', ["SPEC §2"]],
  ])("%s", (line, expected) => {
    expect(shown(line)).toEqual(expected);
  });
});

describe("every SPEC § and DESIGN § citation in the code resolves to a heading in docs/", () => {
  const docs = { SPEC: sectionsOf("SPEC"), DESIGN: sectionsOf("DESIGN") };
  const found = citations();

  it("the documents keep SPEC's nine and DESIGN's four sections", () => {
    expect([...docs.SPEC.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...docs.DESIGN.keys()]).toEqual([1, 2, 3, 4]);
  });

  it("a citation of a section or topic that is not there fails, naming it", () => {
    expect(problem({ doc: "SPEC", section: 10, text: "" }, docs)).toBe('docs/spec.md has no heading "§10"');
    expect(problem({ doc: "DESIGN", section: 1, topic: "no such topic", text: "" }, docs)).toBe(
      'docs/decisions/design.md §1 has no sub-heading for "no such topic"',
    );
  });

  it("finds the code's citations", () => {
    expect(found.filter((c) => c.doc === "SPEC").length).toBeGreaterThan(50);
    expect(found.filter((c) => c.doc === "DESIGN").length).toBeGreaterThan(50);
  });

  it("each one has its heading", () => {
    const problems = found
      .map((c) => ({ c, why: problem(c, docs) }))
      .filter((p) => p.why !== null)
      .map(({ c, why }) => `${c.file}:${c.line}: ${c.text} — ${why}`);
    expect(problems).toEqual([]);
  });
});
