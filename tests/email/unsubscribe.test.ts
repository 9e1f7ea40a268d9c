import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  unsubscribe,
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
});
