import { notFound } from "next/navigation";

// proxy.ts rewrites an event page here when the event does not exist for the viewer (unknown id,
// or pending/rejected and the viewer is neither its organizer nor an admin): before anything
// streams, so the answer is a 404 (issue 31). The text is SPEC §2's (not-found.tsx beside this file).
export const dynamic = "force-dynamic";

export default function MissingEvent() {
  notFound();
}
