"use client";

import { useCallback, useEffect, useState } from "react";
import { useServerActions } from "@/components/actions/server-actions";
import { Button } from "@/components/ui/button";
import type { MyInvites } from "@/lib/pledges/friends";

/**
 * Named friends (issue 37), on the holder's card: for each guest seat, the friend it is for, by email.
 * The friend gets a link to claim the seat into their own account (their own ticket and calendar
 * entry). Sending again for a seat replaces its invitation: the old link stops working. The holder
 * sees only the addresses they typed themselves.
 */
export function InviteGuests({ campaignId }: { campaignId: string }) {
  const { inviteFriendAction, myInvitesAction } = useServerActions();
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<MyInvites | null>(null);
  const [emails, setEmails] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await myInvitesAction({ campaignId }).catch(() => null);
    setData(res?.ok ? res.data : null);
  }, [campaignId, myInvitesAction]);
  useEffect(() => {
    if (!open) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [open, load]);

  async function send(guestSlot: number) {
    setBusy(guestSlot);
    setError(null);
    setNotice(null);
    const res = await inviteFriendAction({ campaignId, guestSlot, email: emails[guestSlot] ?? "" }).catch(
      () => null,
    );
    setBusy(null);
    if (!res?.ok) return setError(res?.error ?? "Could not send the invitation. Please try again.");
    setNotice(res.data.message);
    setEmails((e) => ({ ...e, [guestSlot]: "" }));
    await load();
  }

  if (!open)
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} data-testid="invite-guests">
        Invite your guests
      </Button>
    );
  return (
    <section
      className="mt-3 w-full rounded-lg border border-slate-200 bg-slate-50 p-3"
      aria-label="Invite your guests"
    >
      <h3 className="text-sm font-semibold text-slate-900">Invite your guests</h3>
      <p className="mt-1 text-sm text-slate-700">
        Name a friend for a guest seat: they get a link to claim it into their own account, with their own
        ticket. Sending again for a seat replaces the old link.
      </p>
      {data === null && <p className="mt-2 text-sm text-slate-600">Loading…</p>}
      {data?.seats.map((s) => (
        <form
          key={s.guestSlot}
          className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            void send(s.guestSlot);
          }}
        >
          <label className="flex min-w-0 flex-1 flex-col text-sm wrap-anywhere text-slate-800">
            <span>
              Guest {s.guestSlot}
              {s.invited && <span className="text-slate-600"> — invited: {s.invited}</span>}
            </span>
            <input
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              value={emails[s.guestSlot] ?? ""}
              onChange={(e) => setEmails((all) => ({ ...all, [s.guestSlot]: e.target.value }))}
              placeholder="friend@example.com"
              className="mt-1 w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5 text-base"
              data-testid={`invite-email-${s.guestSlot}`}
            />
          </label>
          <Button
            size="sm"
            type="submit"
            className="self-start sm:self-auto"
            disabled={busy !== null}
            data-testid={`invite-send-${s.guestSlot}`}
          >
            {busy === s.guestSlot ? "Sending…" : s.invited ? "Send again" : "Send"}
          </Button>
        </form>
      ))}
      {data && data.claimed.length > 0 && (
        <p className="mt-2 text-sm text-slate-700" data-testid="invites-claimed">
          Claimed: {data.claimed.join(", ")}
        </p>
      )}
      {notice && (
        <p role="status" className="mt-2 text-sm text-emerald-800">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}
