import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  unsubscribe,
  unsubscribeLinks,
  unsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from "@/lib/email/unsubscribe";
import { createUser } from "@/tests/helpers/factories";

describe("unsubscribe links", () => {
  it("accept the signed token of a user and set their opt-out", async () => {
    const user = await createUser();
    const token = unsubscribeToken(user.id);
    expect(verifyUnsubscribeToken(token)).toBe(user.id);
    expect(unsubscribeUrl(user.id)).toContain(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await unsubscribe(token)).toBe(true);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).emailOptOut).toBe(true);
  });

  it("refuse forged, tampered or malformed tokens and change nothing", async () => {
    const victim = await createUser();
    const attacker = await createUser();
    const attackerSig = unsubscribeToken(attacker.id).split(".")[1];
    for (const bad of [
      `${victim.id}.${attackerSig}`,
      `${victim.id}.`,
      victim.id,
      "",
      null,
      42,
      "x".repeat(400),
    ]) {
      expect(verifyUnsubscribeToken(bad)).toBeNull();
      expect(await unsubscribe(bad)).toBe(false);
    }
    expect((await db.user.findUniqueOrThrow({ where: { id: victim.id } })).emailOptOut).toBe(false);
  });

  it("one click: the List-Unsubscribe address takes a POST with the token; a GET only leads to the page", async () => {
    const { GET, POST } = await import("@/app/api/unsubscribe/route");
    const user = await createUser();
    const { page, oneClick } = unsubscribeLinks(user.id);
    expect(page).toBe(unsubscribeUrl(user.id));
    const optedOut = async () => (await db.user.findUniqueOrThrow({ where: { id: user.id } })).emailOptOut;

    const opened = await GET(new Request(oneClick));
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(new URL(page).pathname + new URL(page).search);
    expect(await optedOut()).toBe(false);

    const forged = await POST(
      new Request(oneClick.replace(/token=[^&]+/, `token=${encodeURIComponent(`${user.id}.forged`)}`), {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
      }),
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toMatch(/not valid/);
    expect(await optedOut()).toBe(false);

    const clicked = await POST(new Request(oneClick, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(clicked.status).toBe(200);
    expect(await optedOut()).toBe(true);
  });
});
