import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { unsealTicketToken } from "@/lib/security/ticket-token";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { chargedPlace } from "@/tests/tickets/places";
import { decodeQr } from "@/tests/tickets/qr";

// The route resolves the viewer from the session; the test chooses who is asking.
let viewer: Viewer | null = null;
vi.mock("@/lib/access/viewer", () => ({ getViewer: async () => viewer }));

const { GET } = await import("@/app/api/me/tickets/[campaignId]/route");

const asViewer = (u: { id: string; email: string; name: string | null }, isAdmin = false): Viewer => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin,
});

async function ask(campaignId: string) {
  const res = await GET(new Request(`http://localhost/api/me/tickets/${campaignId}`), {
    params: Promise.resolve({ campaignId }),
  });
  return {
    res,
    text: await res.clone().text(),
    body: (await res.json()) as { ticket: Record<string, unknown> | null },
  };
}

describe("the holder-only ticket route (issue 36)", () => {
  it("gives the holder their ticket's QR (decoding to its token) and code, private and never stored; a visitor, another member, the organizer and an admin get nothing", async () => {
    const organizer = await createUser();
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 1,
      ticketPriceCents: 2000,
      status: "charged",
    });
    const [holder, other, admin] = [
      await createUser(),
      await createUser(),
      await createUser({ isAdmin: true }),
    ];
    const pledges = [];
    for (const u of [holder, other]) {
      const p = await chargedPlace(c.id, u.id);
      pledges.push(p);
    }

    viewer = asViewer(holder);
    const mine = await ask(c.id);
    expect(mine.res.status).toBe(200);
    expect(mine.res.headers.get("cache-control")).toBe("private, no-store");
    const t = await db.ticket.findUniqueOrThrow({ where: { pledgeId: pledges[0].id } });
    const token = unsealTicketToken(t.tokenSealed)!;
    expect(mine.body.ticket).toMatchObject({
      campaignId: c.id,
      code: `${t.code.slice(0, 4)}-${t.code.slice(4)}`,
      void: null,
    });
    expect(Object.keys(mine.body.ticket!).sort()).toEqual(["campaignId", "code", "qr", "void"]);
    expect(await decodeQr(mine.body.ticket!.qr as string)).toBe(token);
    // no id of the pledge or ticket, no hash, no seal
    for (const secret of [pledges[0].id, t.id, t.tokenHash, t.tokenSealed, token])
      expect(mine.text).not.toContain(secret);

    const otherTicket = await db.ticket
      .findUniqueOrThrow({ where: { pledgeId: pledges[1].id } })
      .catch(() => null);
    for (const who of [null, asViewer(organizer), asViewer(admin, true)]) {
      viewer = who;
      const r = await ask(c.id);
      expect(r.res.status).toBe(200);
      expect(r.body).toEqual({ ticket: null });
    }
    // another member gets their own ticket (issued on their read), never the holder's
    viewer = asViewer(other);
    const theirs = await ask(c.id);
    expect(await decodeQr(theirs.body.ticket!.qr as string)).not.toBe(token);
    expect(theirs.text).not.toContain(t.code);
    expect(otherTicket).toBeNull(); // it did not exist before their own read

    // a malformed or unknown event id: nothing, not an error
    viewer = asViewer(holder);
    expect((await ask("../../etc")).body).toEqual({ ticket: null });
    expect((await ask("cnosuchevent0000000000000")).body).toEqual({ ticket: null });
  });

  it("shows the holder a void ticket as void", async () => {
    const c = await createCampaign({ goal: 1, status: "charged" });
    const u = await createUser();
    const p = await createPledge(c.id, u.id);
    await db.pledge.update({
      where: { id: p.id },
      data: { charged: true, chargeType: "free", chargedAt: new Date(), memberSince: new Date() },
    });
    viewer = asViewer(u);
    expect((await ask(c.id)).body.ticket?.void).toBeNull();
    await db.pledge.update({ where: { id: p.id }, data: { withdrawnAt: new Date() } });
    expect((await ask(c.id)).body.ticket?.void).toEqual({
      reason: "withdrawn",
      text: "Void: this commitment was withdrawn.",
    });
  });
});
