"use client";

import dynamic from "next/dynamic";

// The organizer's and the admin's tools on the event page (cancel, approve or reject, post an update)
// render only for them. Loaded on demand, they stay out of the first load of every visitor and backer
// (issue 34's budget: first-load JS ≤ 150 kB gzipped); server-rendered as before for those who see them.

export const CancelEvent = dynamic(() =>
  import("@/components/cancellation/cancel-event").then((m) => m.CancelEvent),
);

export const ApprovalButtons = dynamic(() =>
  import("@/components/campaigns/approval-buttons").then((m) => m.ApprovalButtons),
);

export const UpdateForm = dynamic(() => import("@/components/updates/update-form").then((m) => m.UpdateForm));
