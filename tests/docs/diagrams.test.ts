import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAMPAIGN_STATUSES } from "@/lib/events/lifecycle";
import { MOVES, STANDINGS, type Transition } from "@/lib/events/standing";
import { fencedBlocks, rel, root, walk } from "./markdown";

/**
 * Issue 33: the state diagrams of docs/domain/ are drawn from the code, and stay so. A standing
 * diagram may only draw moves of MOVES (lib/events/standing.ts), and the lifecycle
 * page draws every one of them; an event-status diagram names the moves of lib/events/status.ts;
 * every other diagram's states are an enum of prisma/schema.prisma.
 */

type Edge = { from: string; to: string; label: string; line: number };

function edgesOf(body: string[], firstLine: number): Edge[] {
  return body.flatMap((text, i) => {
    const m = text.match(/^\s*(\[\*\]|[^\s:-]+)\s*-->\s*(\[\*\]|[^\s:-]+)\s*(?::\s*(.*?))?\s*$/);
    return m ? [{ from: m[1], to: m[2], label: m[3] ?? "", line: firstLine + i + 1 }] : [];
  });
}

const schema = fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
const enumValues = (name: string) => {
  const body = schema.match(new RegExp(`enum ${name} \\{([^}]*)\\}`))?.[1] ?? "";
  return body
    .split("\n")
    .map((l) => l.trim().split(/\s|\/\//)[0])
    .filter(Boolean);
};
const statusMoves = [
  ...fs
    .readFileSync(path.join(root, "lib/events/status.ts"), "utf8")
    .matchAll(/export async function (\w+)/g),
].map((m) => m[1]);

const isTransition = (word: string): word is Transition => word in MOVES;
const within = (states: string[], set: readonly string[]) => states.every((s) => set.includes(s));

/** What is wrong with one diagram (its edges), given what its states are. */
function diagramProblems(edges: Edge[]): string[] {
  const states = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((s) => s !== "[*]");
  const problems: string[] = [];
  if (within(states, STANDINGS)) {
    for (const e of edges) {
      const word = e.label.split(/\s/)[0];
      if (e.from === "[*]") {
        if (word !== "commit") problems.push(`line ${e.line}: a commitment enters only by a commit`);
      } else if (!isTransition(word)) {
        problems.push(`line ${e.line}: "${e.label}" is not a transition of MOVES`);
      } else if (!MOVES[word].some(([from, to]) => from === e.from && to === e.to)) {
        problems.push(`line ${e.line}: MOVES has no ${word} from ${e.from} to ${e.to}`);
      }
    }
  } else if (within(states, CAMPAIGN_STATUSES)) {
    for (const e of edges) {
      if (e.to === "[*]" && e.label === "") continue; // an end state needs no move
      const moves = e.label.split(/\s+or\s+/).map((part) => part.split(/\s/)[0]);
      for (const move of moves)
        if (move !== "created" && !statusMoves.includes(move))
          problems.push(`line ${e.line}: "${move}" is not a move of lib/events/status.ts`);
    }
  } else if (
    within(states, enumValues("PledgeChargeStatus")) ||
    within(states, enumValues("PayoutStatus")) ||
    within(states, enumValues("ApprovalStatus"))
  ) {
    // charge states, payout rows and moderation (issue 34): the states are the schema's
  } else if (edges.every((e) => enumValues("MoneyKind").includes(e.label))) {
    // which way money goes: every arrow is a kind of money movement
  } else {
    problems.push(`states ${states.join(", ")} are not the standings, statuses or an enum of the schema`);
  }
  return problems;
}

const pages = walk(path.join(root, "docs/domain"), (n) => n.endsWith(".md"));
const diagrams = pages.flatMap((file) =>
  fencedBlocks(fs.readFileSync(file, "utf8"), "mermaid").map((b) => ({
    file,
    line: b.line,
    body: b.body,
    edges: edgesOf(b.body, b.line),
  })),
);

describe("the domain pages' diagrams", () => {
  it("each domain page has a Mermaid state diagram", () => {
    expect(pages.map(rel).sort()).toEqual(
      ["conditions", "lifecycle", "money-flow", "waitlist"].map((p) => `docs/domain/${p}.md`),
    );
    for (const file of pages)
      expect(
        diagrams.some((d) => d.file === file && d.body[0]?.trim() === "stateDiagram-v2"),
        rel(file),
      ).toBe(true);
  });

  it("a diagram drawing a transition the table does not allow fails", () => {
    expect(diagramProblems([{ from: "waiting", to: "gave_up", label: "giveUp", line: 3 }])).toEqual([
      "line 3: MOVES has no giveUp from waiting to gave_up",
    ]);
    expect(diagramProblems([{ from: "in", to: "released", label: "demote", line: 4 }])).toEqual([
      "line 4: MOVES has no demote from in to released",
    ]);
    expect(diagramProblems([{ from: "in", to: "waiting", label: "teleport", line: 5 }])).toEqual([
      'line 5: "teleport" is not a transition of MOVES',
    ]);
  });

  it("draws only what the code allows", () => {
    const problems = diagrams.flatMap((d) =>
      diagramProblems(d.edges).map((p) => `${rel(d.file)} (diagram at line ${d.line}) ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it("the lifecycle page draws every move of MOVES", () => {
    const lifecycle = diagrams.filter((d) => rel(d.file) === "docs/domain/lifecycle.md");
    const drawn = new Set(
      lifecycle.flatMap((d) => d.edges.map((e) => `${e.from} ${e.label.split(/\s/)[0]} ${e.to}`)),
    );
    const missing = Object.entries(MOVES).flatMap(([t, moves]) =>
      moves
        .filter(([from, to]) => !drawn.has(`${from} ${t} ${to}`))
        .map(([from, to]) => `${t}: ${from} → ${to}`),
    );
    expect(missing).toEqual([]);
  });

  it("the lifecycle page draws every status and every move of lib/events/status.ts", () => {
    const lifecycle = diagrams.filter((d) => rel(d.file) === "docs/domain/lifecycle.md");
    const labels = lifecycle.flatMap((d) => d.edges.flatMap((e) => e.label.split(/\s+or\s+/)));
    const states = new Set(lifecycle.flatMap((d) => d.edges.flatMap((e) => [e.from, e.to])));
    expect(statusMoves.filter((m) => !labels.some((l) => l.split(/\s/)[0] === m))).toEqual([]);
    expect(CAMPAIGN_STATUSES.filter((s) => !states.has(s))).toEqual([]);
    expect(STANDINGS.filter((s) => !states.has(s))).toEqual([]);
  });
});
