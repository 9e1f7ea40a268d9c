import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOME_FILTER_LABELS } from "@/lib/campaigns/filters";
import { APPROVAL_BADGES, eventBadge, PHASE_BADGES } from "@/lib/events/lifecycle";
import { STANDING_BADGES, STANDINGS } from "@/lib/events/standing";
import { MONEY_WORDS, organizerStory, paymentBadge, type CommitmentFacts } from "@/lib/events/story";
import { rel, root, walk } from "./markdown";

/**
 * Issue 34.5: one status word per state. The glossary's "Status words" table is the vocabulary;
 * every status word the product shows (badges, the manage page's and the CSV's status, the home
 * filters, the roadmap) must be one of its words, or one of SPEC's own strings.
 */

function glossaryWords(): Set<string> {
  const text = fs.readFileSync(path.join(root, "docs/glossary.md"), "utf8");
  const section = text.split("## Status words")[1]?.split("\n## ")[0] ?? "";
  const words = section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| status word") && !l.startsWith("| ---"))
    .map((l) => l.split("|")[1].trim());
  return new Set(words);
}

/** SPEC's strings (docs/spec.md holds the specification in the repository). */
const specText = fs.readFileSync(path.join(root, "docs/spec.md"), "utf8");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const inSpec = (word: string) => new RegExp(`(^|[^A-Za-z])${escape(word)}([^A-Za-z]|$)`).test(specText);

const WORDS = glossaryWords();
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether a shown label is the vocabulary's: whole (numbers read as N), or each of its comma parts. */
export function isKnown(label: string, words = WORDS): boolean {
  const norm = label
    .replace(/ #\d+$/, "")
    .replace(/\d+/g, "N")
    .trim();
  if (words.has(norm) || inSpec(norm)) return true;
  const parts = norm.split(", ").map(capital);
  return parts.length > 1 && parts.every((p) => words.has(p) || inSpec(p));
}

/** The status words written in the source: Badge children, `{ label, tone }` badges, the roadmap's stages. */
function sourceLabels(): { file: string; label: string }[] {
  const files = ["app", "components", "lib"].flatMap((d) =>
    walk(path.join(root, d), (n) => /\.(ts|tsx)$/.test(n) && !/\.test\./.test(n)),
  );
  const out: { file: string; label: string }[] = [];
  for (const file of files) {
    const src = fs.readFileSync(file, "utf8");
    const add = (label: string) => out.push({ file: rel(file), label });
    for (const m of src.matchAll(/<Badge\b[^>]*>([\s\S]*?)<\/Badge>/g)) {
      const inner = m[1].trim();
      if (!inner.includes("{")) add(inner);
      // the shown strings of a ternary, not the codes it compares ("succeeded")
      else for (const s of inner.matchAll(/"([^"]+)"/g)) if (/[A-Z]/.test(s[1])) add(s[1]);
    }
    for (const m of src.matchAll(/label:\s*"([^"]+)",\s*tone:|tone:\s*"[a-z]+",\s*label:\s*"([^"]+)"/g))
      add(m[1] ?? m[2]);
    if (file.includes("roadmap")) for (const m of src.matchAll(/status:\s*"([^"]+)"/g)) add(m[1]);
  }
  return out;
}

const base: CommitmentFacts = {
  standing: "in",
  chargeStatus: "none",
  charged: false,
  refund: "none",
  eventCancelled: false,
  paid: true,
  cents: 3500,
  recovery: null,
  failureCode: "card_declined",
  promoted: false,
  verified: true,
  minPeople: 8,
  waitlist: { position: 3, paused: false },
};

/** Every organizer's and pay-page label the story can produce. */
function storyLabels(): string[] {
  const out: string[] = [];
  const statuses = ["none", "processing", "succeeded", "failed", "requires_action", "refunded"] as const;
  for (const standing of STANDINGS)
    for (const chargeStatus of statuses)
      for (const refund of ["none", "pending", "refunded"] as const)
        for (const flag of [false, true])
          for (const other of [false, true]) {
            const f: CommitmentFacts = {
              ...base,
              standing,
              chargeStatus,
              charged: chargeStatus === "succeeded",
              refund,
              promoted: flag,
              verified: other,
              eventCancelled: flag && other,
              recovery: other ? "retrying" : null,
              waitlist: { position: 3, paused: flag },
            };
            out.push(organizerStory(f).label, paymentBadge(f).label);
          }
  return [...new Set(out)];
}

describe("one status word per state (issue 34.5)", () => {
  it("the glossary's table names each word once", () => {
    const text = fs.readFileSync(path.join(root, "docs/glossary.md"), "utf8");
    const section = text.split("## Status words")[1]?.split("\n## ")[0] ?? "";
    const rows = section
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| ---"))
      .slice(1);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.length).toBe(WORDS.size);
  });

  it("the checker refuses a word outside the table and SPEC (it can fail)", () => {
    expect(isKnown("Funded")).toBe(false);
    expect(isKnown("Awaiting approval")).toBe(false);
    expect(isKnown("Planned")).toBe(false);
    expect(isKnown("Paid, refund pending")).toBe(true);
    expect(isKnown("Waitlisted #12")).toBe(true);
  });

  it("every badge table of lib/ speaks the vocabulary", () => {
    const labels = [
      ...Object.values(PHASE_BADGES).map((b) => b.label),
      ...Object.values(APPROVAL_BADGES).map((b) => b.label),
      ...Object.values(STANDING_BADGES).map((b) => b.label),
      ...Object.values(MONEY_WORDS),
      ...Object.values(HOME_FILTER_LABELS),
    ];
    expect(labels.filter((l) => !isKnown(l))).toEqual([]);
  });

  it("every story the manage page, its CSV and the pay page can tell speaks it", () => {
    const labels = storyLabels();
    expect(labels.length).toBeGreaterThan(15);
    expect(labels.filter((l) => !isKnown(l))).toEqual([]);
  });

  it("every status word written in the source speaks it", () => {
    const found = sourceLabels();
    expect(found.length).toBeGreaterThan(30);
    expect(found.filter((f) => !isKnown(f.label))).toEqual([]);
  });

  it("a rejected or unapproved event is never badged Active; the Confirmed filter matches Confirmed badges", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    const open = { status: "pending", deadline: new Date("2026-12-26T12:00:00Z") };
    expect(eventBadge({ ...open, approvalStatus: "rejected" }, now).label).toBe("REJECTED");
    expect(eventBadge({ ...open, approvalStatus: "pending" }, now).label).toBe("PENDING");
    expect(eventBadge({ ...open, approvalStatus: "approved" }, now).label).toBe("Active");
    expect(eventBadge({ ...open, approvalStatus: null }, now).label).toBe("Active");
    expect(HOME_FILTER_LABELS.funded).toBe(PHASE_BADGES.confirmed.label);
    expect(eventBadge({ ...open, status: "funded", approvalStatus: "approved" }, now).label).toBe(
      HOME_FILTER_LABELS.funded,
    );
  });
});
