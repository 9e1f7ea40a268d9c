"use client";

import Link from "next/link";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions";

type Invite = (input: { campaignId: string; email: string }) => Promise<ActionResult<{ message: string }>>;
type Remove = (input: { campaignId: string; email: string }) => Promise<ActionResult>;

/**
 * The manage page's door (issue 36 item 2): checked in of expected, the link to the check-in page,
 * and the door helpers the organizer invites by email.
 */
export function DoorSection({
  campaignId,
  counts,
  helpers,
  actions,
}: {
  /** the page hands its server actions down (components never import from app/) */
  actions: { inviteDoorHelperAction: Invite; removeDoorHelperAction: Remove };
  campaignId: string;
  counts: { checkedIn: number; expected: number } | null;
  helpers: { email: string }[];
}) {
  const [email, setEmail] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [list, setList] = useState(helpers);

  async function invite(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await actions.inviteDoorHelperAction({ campaignId, email });
      if (r.ok) {
        const added = email.trim().toLowerCase();
        setList((l) => (l.some((h) => h.email === added) ? l : [...l, { email: added }]));
        setEmail("");
        setMessage({ ok: true, text: r.data.message });
      } else setMessage({ ok: false, text: r.fieldErrors?.email ?? r.error });
    } catch {
      setMessage({ ok: false, text: "No connection. The invitation was not sent: try again." });
    } finally {
      setBusy(false);
    }
  }

  async function remove(address: string) {
    const r = await actions.removeDoorHelperAction({ campaignId, email: address }).catch(() => null);
    if (r?.ok) setList((l) => l.filter((h) => h.email !== address));
    else setMessage({ ok: false, text: r && !r.ok ? r.error : "No connection: try again." });
  }

  return (
    <section
      className="mb-6 rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
      aria-labelledby="door-heading"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="door-heading" className="text-lg font-bold text-slate-900">
          Check-in
        </h2>
        <Link
          href={`/campaign/${campaignId}/check-in`}
          prefetch={false}
          className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Open the check-in page
        </Link>
      </div>
      {counts && (
        <p className="mt-2 text-slate-800" data-testid="manage-check-in-counts">
          <span className="font-bold">{counts.checkedIn}</span> checked in of{" "}
          <span className="font-bold">{counts.expected}</span> expected
        </p>
      )}
      <form className="mt-4" onSubmit={invite}>
        <label htmlFor="door-helper-email" className="block text-sm font-semibold text-slate-900">
          Invite a door helper by email
        </label>
        <p className="text-sm text-slate-600">
          They can check people in at this event only, and see attendees as members do.
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          <input
            id="door-helper-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2"
            placeholder="helper@example.com"
            autoComplete="off"
          />
          <button
            type="submit"
            disabled={busy}
            className="rounded-lg border border-brand-700 px-3 py-2 font-semibold text-brand-700 disabled:opacity-60"
          >
            Invite
          </button>
        </div>
        {message && (
          <p
            role={message.ok ? "status" : "alert"}
            className={`mt-2 text-sm ${message.ok ? "text-green-800" : "text-red-700"}`}
          >
            {message.text}
          </p>
        )}
      </form>
      {list.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100 text-sm" aria-label="Door helpers">
          {list.map((h) => (
            <li key={h.email} className="flex items-center justify-between gap-2 py-1.5">
              <span className="wrap-anywhere">{h.email}</span>
              <button type="button" className="text-red-700 underline" onClick={() => void remove(h.email)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
