/** Display helpers shared by server and client components (no server imports). */
export const STATUS_LABELS: Record<string, string> = {
  pending: "Active",
  funded: "Funded",
  charging: "Charging",
  charged: "Confirmed",
  expired: "Expired",
  cancelled: "Cancelled",
};

export const statusLabel = (status: string) => STATUS_LABELS[status] ?? "Active";

export const PAYMENT_TYPE_LABELS: Record<string, string> = { venmo: "Venmo", paypal: "PayPal", other: "Other" };

/** Venmo handles are shown with an @ prefix (SPEC §2). */
export function paymentHandle(type: string | null, method: string | null): string | null {
  if (!method) return null;
  if (type === "venmo") return method.startsWith("@") ? method : `@${method}`;
  return method;
}

export const isCrowdfund = (c: { pactType: string | null }) => c.pactType === "crowdfund";
