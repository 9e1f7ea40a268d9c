import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, links, markdownFiles, rel, root, slug } from "./markdown";

/**
 * Issue 33: every relative link in README.md and docs/ leads somewhere. A link's file must exist
 * and its `#anchor` must be a heading of that file, by GitHub's rules. External links are not
 * fetched (http, https, mailto).
 */

const EXTERNAL = /^(https?:|mailto:)/i;

/** What is wrong with one link of `from`, or null. */
function linkProblem(from: string, target: string): string | null {
  if (EXTERNAL.test(target)) return null;
  if (target === "") return "empty link";
  const hash = target.indexOf("#");
  const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const file =
    filePart === ""
      ? from
      : filePart.startsWith("/")
        ? path.join(root, filePart)
        : path.resolve(path.dirname(from), filePart);
  if (!file.startsWith(root)) return `leads out of the repository (${rel(file)})`;
  if (!fs.existsSync(file)) return `no such file: ${rel(file)}`;
  if (anchor === null || anchor === "") return null;
  if (!file.endsWith(".md")) return null; // an anchor into code (#L10) is GitHub's, not a heading
  if (!anchors(fs.readFileSync(file, "utf8")).has(anchor)) return `no heading for #${anchor} in ${rel(file)}`;
  return null;
}

describe("GitHub's heading anchors", () => {
  it.each([
    ["§1 What the product does and for whom", "1-what-the-product-does-and-for-whom"],
    ["The event's status", "the-events-status"],
    ["anonymity (identity revelation)", "anonymity-identity-revelation"],
    ["check-and-charge", "check-and-charge"],
    ["Toolchain notes (things that surprised us)", "toolchain-notes-things-that-surprised-us"],
    ["`lib/` layers_and [links](x.md)", "lib-layers_and-links"],
  ])("%s → #%s", (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it("numbers repeated headings as GitHub does, and skips code", () => {
    expect([...anchors("# A\n## Notes\n## Notes\n```\n# not a heading\n```\n")]).toEqual([
      "a",
      "notes",
      "notes-1",
    ]);
  });
});

describe("the documentation's links", () => {
  const files = markdownFiles();

  it("covers the README and docs/", () => {
    expect(files.map(rel)).toContain("README.md");
    expect(files.map(rel)).toContain("docs/README.md");
  });

  it("finds a broken link and a broken anchor", () => {
    const readme = path.join(root, "README.md");
    expect(linkProblem(readme, "docs/no-such-page.md")).toBe("no such file: docs/no-such-page.md");
    expect(linkProblem(readme, "docs/glossary.md#no-such-heading")).toBe(
      "no heading for #no-such-heading in docs/glossary.md",
    );
    expect(linkProblem(readme, "#quick-start")).toBeNull();
    expect(linkProblem(readme, "https://example.com/not-fetched")).toBeNull();
  });

  it("every relative link in README.md and docs/**/*.md resolves, anchors included", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const { line, target } of links(fs.readFileSync(file, "utf8"))) {
        checked++;
        const problem = linkProblem(file, target);
        if (problem) problems.push(`${rel(file)}:${line}: (${target}) ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });
});
