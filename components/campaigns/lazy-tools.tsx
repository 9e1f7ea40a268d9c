"use client";

import dynamic from "next/dynamic";

// The organizer's and the admin's tools on the event page (cancel, approve or reject, post an update)
// render only for them. Loaded on demand, they stay out of the first load of every visitor and backer
// (issue 34's budget: first-load JS ≤ 150 kB gzipped). Rendered in the browser only (ssr: false), so
// nothing can be typed into a form before it is live (a server-rendered copy waiting for its code
// would drop what was typed: e2e/emails.spec's update).

export const CancelEvent = dynamic(
  () => import("@/components/cancellation/cancel-event").then((m) => m.CancelEvent),
  { ssr: false },
);

export const ApprovalButtons = dynamic(
  () => import("@/components/campaigns/approval-buttons").then((m) => m.ApprovalButtons),
  { ssr: false },
);

export const UpdateForm = dynamic(
  () => import("@/components/updates/update-form").then((m) => m.UpdateForm),
  { ssr: false },
);
