import { describe, expect, it } from "vitest";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { inviteFriend } from "@/lib/pledges/friends";
import { listOutboxForAdmin } from "@/lib/email/queries";
import { createCampaign } from "@/tests/helpers/factories";
import { nameAndClaim, person } from "@/tests/helpers/friends";

/*
 * Issue 37, named friends, privacy: the admins' outbox (/admin/emails) lists every email's subject. The
 * addresses a holder typed for their friends are the holder's to see (My commitments' "Invite your
 * guests", the claim email's text to them), and a friend's account name and email are theirs: no
 * subject carries any of them — an invitation, a claim or a seat come back says so generically.
 */
describe("named friends in the admins' outbox", () => {
  it("no subject names an invited address, a friend's account or the holder's name", async () => {
    const c = await createCampaign({ goal: 10, maxSeats: 4, attendeesAnonymous: true });
    const ada = await person("Ada Subjecthidden");
    await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    const sam = await person("Sam Subjecthidden");
    await nameAndClaim(ada, c.id, 1, "sam.typed@example.test", sam);
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 2, email: "kim.typed@example.test" });
    await withdrawCommitment(sam, { campaignId: c.id }); // the claimed seat comes back to Ada

    const admin = { id: "admin", isAdmin: true };
    const mine = async (recipient: string) =>
      (await listOutboxForAdmin(admin, { recipient })).entries.map((e) => e.subject);
    const subjects = [
      ...(await mine(ada.email)),
      ...(await mine("sam.typed@example.test")),
      ...(await mine("kim.typed@example.test")),
      ...(await mine(sam.email)),
    ];
    // the three kinds are there: two invitations, one claim, one seat come back
    expect(subjects.filter((s) => s === `A seat for you: ${c.title}`)).toHaveLength(2);
    expect(subjects).toContain(`Your friend claimed their seat: "${c.title}"`);
    expect(subjects).toContain(`A seat came back to you: "${c.title}"`);
    for (const secret of [
      "sam.typed",
      "kim.typed",
      sam.email,
      "Sam Subjecthidden",
      "Subjecthidden",
      ada.email,
    ])
      for (const s of subjects) expect(s).not.toContain(secret);
  });
});
