import { describe, expect, it } from "vitest";
import {
  contributorText,
  numberByFirstAppearance,
  presentAttendees,
  presentComments,
} from "@/lib/privacy/present";
import { type IdentityFacts } from "@/lib/access/rules";

const t = (min: number) => new Date(Date.UTC(2026, 10, 1, 12, min));
const campaign: IdentityFacts = {
  creatorId: "u-creator",
  attendeesAnonymous: true,
  identityRevelationType: "never",
  status: "pending",
  startsAt: null,
  deadline: new Date(Date.UTC(2026, 11, 1)),
  goal: 10,
  committedCount: 3,
};
const people = {
  ann: { name: "Ann Secret", email: "ann.secret@example.test" },
  bob: { name: null, email: "bob.hidden@example.test" },
  cat: { name: "Cat Private", email: "cat.private@example.test" },
};
const pledges = [
  {
    id: "p3",
    userId: "u-cat",
    createdAt: t(3),
    amountCents: 500,
    contributor: "Cat Private",
    user: people.cat,
  },
  {
    id: "p1",
    userId: "u-ann",
    createdAt: t(1),
    amountCents: 500,
    contributor: "Ann Secret",
    user: people.ann,
  },
  {
    id: "p2",
    userId: "u-bob",
    createdAt: t(2),
    amountCents: 500,
    contributor: "bob.hidden@example.test",
    user: people.bob,
  },
];
const NOW = t(10);

describe("presentAttendees", () => {
  it("removes every trace of hidden people for a visitor and numbers them by commit order", () => {
    const out = presentAttendees(null, campaign, pledges, NOW);
    expect(out.map((p) => p.label)).toEqual([
      "Anonymous Attendee #3",
      "Anonymous Attendee #1",
      "Anonymous Attendee #2",
    ]);
    const json = JSON.stringify(out);
    for (const secret of [
      "u-ann",
      "u-bob",
      "u-cat",
      "Ann Secret",
      "Cat Private",
      "ann.secret",
      "bob.hidden",
      "cat.private",
    ]) {
      expect(json).not.toContain(secret);
    }
    // keyed by an opaque value, not the pledge id (another response could tie a pledge id to a person)
    expect(out[0]).toEqual({
      id: out[0].key,
      createdAt: t(3),
      amountCents: 500,
      key: expect.stringMatching(/^h[\w-]{16}$/),
      label: "Anonymous Attendee #3",
      email: null,
      anonymous: true,
      isViewer: false,
    });
    for (const id of ["p1", "p2", "p3"]) expect(json).not.toContain(`"${id}"`);
    expect(presentAttendees(null, campaign, pledges, NOW)[0].key).toBe(out[0].key); // stable: "Show more" dedupes by it
  });

  it("lets the attendee see himself (name, else email) and nobody else", () => {
    const out = presentAttendees({ id: "u-bob", isAdmin: false }, campaign, pledges, NOW);
    const bob = out.find((p) => p.key === "p2")!;
    expect(bob).toMatchObject({
      label: "bob.hidden@example.test",
      email: "bob.hidden@example.test",
      anonymous: false,
      isViewer: true,
    });
    expect(out.filter((p) => p.anonymous).map((p) => p.label)).toEqual([
      "Anonymous Attendee #3",
      "Anonymous Attendee #1",
    ]);
    expect(JSON.stringify(out)).not.toContain("Ann Secret");
    expect(JSON.stringify(out)).not.toContain("u-bob"); // no user ids, even one's own
  });

  it.each([
    ["creator", { id: "u-creator", isAdmin: false }],
    ["admin", { id: "u-admin", isAdmin: true }],
  ])("shows the %s every identity", (_, viewer) => {
    const out = presentAttendees(viewer, campaign, pledges, NOW);
    expect(out.map((p) => p.label)).toEqual(["Cat Private", "Ann Secret", "bob.hidden@example.test"]);
    expect(out.every((p) => !p.anonymous && p.email)).toBe(true);
    expect(out.some((p) => "userId" in p || "contributor" in p || "user" in p)).toBe(false);
  });

  it("shows everyone to everyone when anonymity is off, but an email only to its owner, the organizer and admins", () => {
    // (this test used to expect Bob's email for a visitor: DESIGN §1 "public names" numbers him instead)
    const out = presentAttendees(null, { ...campaign, attendeesAnonymous: false }, pledges, NOW);
    expect(out.map((p) => p.label)).toEqual(["Cat Private", "Ann Secret", "Attendee #2"]);
    expect(JSON.stringify(out)).not.toContain("@example.test");
    const other = presentAttendees(
      { id: "u-ann", isAdmin: false },
      { ...campaign, attendeesAnonymous: false },
      pledges,
      NOW,
    );
    expect(other.map((p) => [p.label, p.email])).toEqual([
      ["Cat Private", null],
      ["Ann Secret", "ann.secret@example.test"],
      ["Attendee #2", null],
    ]);
    const himself = presentAttendees(
      { id: "u-bob", isAdmin: false },
      { ...campaign, attendeesAnonymous: false },
      pledges,
      NOW,
    );
    expect(himself[2]).toMatchObject({ label: "bob.hidden@example.test", isViewer: true });
    const organizer = presentAttendees(
      { id: "u-creator", isAdmin: false },
      { ...campaign, attendeesAnonymous: false },
      pledges,
      NOW,
    );
    expect(organizer[2]).toMatchObject({
      label: "bob.hidden@example.test",
      email: "bob.hidden@example.test",
    });
  });
});

describe("presentComments", () => {
  const comments = [
    { id: "c4", authorId: "u-ann", createdAt: t(9), text: "again", author: people.ann },
    { id: "c3", authorId: "u-cat", createdAt: t(8), text: "hi", author: people.cat },
    { id: "c2", authorId: "u-bob", createdAt: t(7), text: "yo", author: people.bob },
  ];
  // Ann commented first (an older comment not on this page), then Bob, then Cat.
  const firsts = [
    { authorId: "u-cat", at: t(8) },
    { authorId: "u-ann", at: t(1) },
    { authorId: "u-bob", at: t(7) },
  ];

  it("numbers commenters by their first comment, so a person keeps one number", () => {
    const out = presentComments(
      null,
      campaign,
      [...comments, { id: "c0", authorId: "u-ann", createdAt: t(1), text: "first", author: people.ann }],
      firsts,
      NOW,
    );
    expect(out.map((c) => c.label)).toEqual([
      "Anonymous Commenter #1",
      "Anonymous Commenter #3",
      "Anonymous Commenter #2",
      "Anonymous Commenter #1",
    ]);
    const json = JSON.stringify(out);
    for (const secret of ["u-ann", "u-cat", "u-bob", "Ann Secret", "ann.secret", "bob.hidden", "Cat Private"])
      expect(json).not.toContain(secret);
    expect(out[0]).toEqual({
      id: out[0].key,
      createdAt: t(9),
      text: "again",
      key: expect.stringMatching(/^h[\w-]{16}$/),
      label: "Anonymous Commenter #1",
      email: null,
      anonymous: true,
      isViewer: false,
      isOrganizer: false,
    });
    for (const id of ["c0", "c2", "c3", "c4"]) expect(json).not.toContain(`"${id}"`);
  });

  it("reveals commenters under onStart from the deadline on", () => {
    const c = { ...campaign, identityRevelationType: "onStart" as const };
    expect(
      presentComments(null, c, comments, firsts, new Date(c.deadline.getTime() - 1)).every(
        (x) => x.anonymous,
      ),
    ).toBe(true);
    // Bob has no display name: the public sees his number, not his email (was: his email — DESIGN §1 "public names")
    expect(presentComments(null, c, comments, firsts, c.deadline).map((x) => x.label)).toEqual([
      "Ann Secret",
      "Cat Private",
      "Commenter #2",
    ]);
  });

  it("labels the organizer's comments 'Event organizer' unless the viewer may see the organizer, without a number", () => {
    const org = { name: null, email: "olga.organizer@example.test" };
    const withOrganizer = [
      { id: "c9", authorId: "u-creator", createdAt: t(9), text: "welcome", author: org },
      ...comments.slice(1),
    ];
    const orgFirsts = [{ authorId: "u-creator", at: t(0) }, ...firsts.slice(1)];

    const visitor = presentComments(null, campaign, withOrganizer, orgFirsts, NOW);
    expect(visitor.map((c) => [c.label, c.isOrganizer])).toEqual([
      ["Event organizer", true],
      ["Anonymous Commenter #3", false],
      ["Anonymous Commenter #2", false],
    ]);
    expect(JSON.stringify(visitor)).not.toContain("olga.organizer");

    const committed = presentComments(
      { id: "u-ann", isAdmin: false },
      campaign,
      withOrganizer,
      orgFirsts,
      NOW,
      { seesOrganizer: true },
    );
    expect(committed[0]).toMatchObject({
      label: "olga.organizer@example.test",
      isOrganizer: true,
      isViewer: false,
    });
    expect(committed[1].label).toBe("Anonymous Commenter #3");

    const admin = presentComments({ id: "u-admin", isAdmin: true }, campaign, withOrganizer, orgFirsts, NOW);
    expect(admin[0].label).toBe("olga.organizer@example.test");
  });

  it("numbers consistently when ties share a first time", () => {
    const a = numberByFirstAppearance([
      { userId: "b", at: t(1), tiebreak: "b" },
      { userId: "a", at: t(1), tiebreak: "a" },
    ]);
    expect([...a.entries()]).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
  });
});

describe("contributorText", () => {
  it("is the display name, else Anonymous Backer — never the email (was: the email; DESIGN §1 public names)", () => {
    expect(contributorText("Ann")).toBe("Ann");
    expect(contributorText("  ")).toBe("Anonymous Backer");
    expect(contributorText(null)).toBe("Anonymous Backer");
  });
});
