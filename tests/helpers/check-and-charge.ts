import { expect } from "vitest";
import type { Viewer } from "@/lib/access/viewer";

/** check-and-charge's answer (SPEC §5), as the tests read it. */
export type ChargeSummary = {
  successful: { pledgeId: string; userId: string; paymentIntentId: string }[];
  failed: { pledgeId: string; userId: string; code: string }[];
  totalCharged: number;
  totalFailed: number;
};

/**
 * POSTs `campaignId` to the check-and-charge route handler (whose viewer the calling test has
 * mocked) from `ip`, expects a 200 and returns its JSON.
 */
export async function postCheckAndCharge(
  route: (req: Request) => Promise<Response>,
  campaignId: string,
  ip = "198.51.100.7",
): Promise<ChargeSummary> {
  const res = await route(
    new Request("http://test/api/check-and-charge", {
      method: "POST",
      headers: { "content-type": "application/json", "x-pactnexus-client-ip": ip },
      body: JSON.stringify({ campaignId }),
    }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** A user row as the session's viewer. */
export const asViewer = (u: {
  id: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
}): Viewer => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
});
