import type { MyCommitment } from "@/lib/pledges/mine";

/** The backer's own commitment in words, shared by the event page's card and My commitments. */
export const STATE_TONE_CLASS: Record<MyCommitment["tone"], string> = {
  brand: "text-brand-700",
  green: "text-emerald-700",
  slate: "text-slate-600",
  red: "text-red-700",
  amber: "text-amber-800",
};

/** "Visa ···· 4242" */
export const cardLabel = (c: { brand: string; last4: string }) =>
  `${c.brand.charAt(0).toUpperCase()}${c.brand.slice(1)} ···· ${c.last4}`;
