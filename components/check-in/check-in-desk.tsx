"use client";

import dynamic from "next/dynamic";
import { useCallback, useRef, useState } from "react";
import type { ActionResult } from "@/lib/actions";
import { formatCents } from "@/lib/format";
import type { CheckInAnswer, DoorSearchRow } from "@/lib/tickets/check-in";

// The camera scanner (and its fallback decoder) is loaded only when the door person opens it.
const Scanner = dynamic(() => import("@/components/check-in/scanner").then((m) => m.Scanner), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-600">Starting the camera…</p>,
});

type Counts = { checkedIn: number; expected: number };

/** The page hands its server actions down (components never import from app/). */
export type DoorActions = {
  checkInAction: (campaignId: string, input: unknown) => Promise<ActionResult<CheckInAnswer>>;
  searchAtDoorAction: (
    campaignId: string,
    query: string,
  ) => Promise<ActionResult<{ rows: DoorSearchRow[]; counts: Counts }>>;
};
type Shown = { answer: CheckInAnswer } | { error: string } | { retrying: number } | null;

/** A time in the viewer's zone, with its abbreviation. */
const timeText = (iso: string) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));

const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 8000];

/** Calls a server action, retrying while the connection fails; never invents an answer. */
async function withRetry<T>(call: () => Promise<T>, onRetry: (attempt: number) => void): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch {
      if (attempt >= RETRY_DELAYS_MS.length) return null;
      onRetry(attempt + 1);
      await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
    }
  }
}

function AnswerPanel({ shown }: { shown: Shown }) {
  if (!shown) return null;
  const box = "rounded-2xl border-4 p-4 sm:p-6";
  if ("retrying" in shown)
    return (
      <div role="status" className={`${box} border-amber-400 bg-amber-50 text-amber-950`}>
        <p className="text-2xl font-extrabold sm:text-3xl">No connection</p>
        <p className="mt-1 text-lg">Not checked in yet. Retrying (attempt {shown.retrying})…</p>
      </div>
    );
  if ("error" in shown)
    return (
      <div role="alert" className={`${box} border-red-500 bg-red-50 text-red-950`}>
        <p className="text-2xl font-extrabold sm:text-3xl">Not checked in</p>
        <p className="mt-1 text-lg">{shown.error}</p>
      </div>
    );
  const a = shown.answer;
  switch (a.kind) {
    case "checked_in":
      return (
        <div role="status" className={`${box} border-green-600 bg-green-50 text-green-950`}>
          <p className="text-3xl font-extrabold sm:text-4xl">Checked in</p>
          <p className="mt-2 wrap-anywhere text-2xl font-bold sm:text-3xl">{a.person}</p>
          <p className="mt-1 text-lg">
            {a.paidCents > 0 ? `Paid ${formatCents(a.paidCents)}` : "Free ticket"}
          </p>
          {a.depositCents > 0 && (
            <p className="mt-1 text-lg font-semibold" data-testid="check-in-deposit">
              Deposit {formatCents(a.depositCents)} refunded
            </p>
          )}
        </div>
      );
    case "already":
      return (
        <div role="status" className={`${box} border-amber-500 bg-amber-50 text-amber-950`}>
          <p className="text-3xl font-extrabold sm:text-4xl">Already checked in</p>
          <p className="mt-2 wrap-anywhere text-2xl font-bold sm:text-3xl">{a.person}</p>
          <p className="mt-1 text-lg">
            At {timeText(a.at)}, by {a.by}.
          </p>
        </div>
      );
    case "void":
      return (
        <div role="alert" className={`${box} border-red-600 bg-red-50 text-red-950`}>
          <p className="text-3xl font-extrabold sm:text-4xl">Void ticket</p>
          <p className="mt-2 wrap-anywhere text-2xl font-bold sm:text-3xl">{a.person}</p>
          <p className="mt-1 text-lg">{a.reason}</p>
        </div>
      );
    case "wrong_event":
      return (
        <div role="alert" className={`${box} border-red-600 bg-red-50 text-red-950`}>
          <p className="text-3xl font-extrabold sm:text-4xl">Not this event</p>
          <p className="mt-1 text-lg">This ticket is for another event.</p>
        </div>
      );
    default:
      return (
        <div role="alert" className={`${box} border-red-600 bg-red-50 text-red-950`}>
          <p className="text-3xl font-extrabold sm:text-4xl">Not found</p>
          <p className="mt-1 text-lg">{a.message}</p>
        </div>
      );
  }
}

/** The door: camera, typed code, search; every answer at once, in large type, with the counts. */
export function CheckInDesk({
  campaignId,
  role,
  initialCounts,
  actions,
}: {
  actions: DoorActions;
  campaignId: string;
  role: "organizer" | "helper";
  initialCounts: Counts;
}) {
  const [shown, setShown] = useState<Shown>(null);
  const [counts, setCounts] = useState(initialCounts);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState("");
  const [query, setQuery] = useState("");
  const [rows, setRows] = useState<DoorSearchRow[] | null>(null);
  const [camera, setCamera] = useState(false);
  const inFlight = useRef(false);

  const send = useCallback(
    async (input: { token: string } | { code: string } | { number: number }) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setBusy(true);
      try {
        const r = await withRetry(
          () => actions.checkInAction(campaignId, input),
          (n) => setShown({ retrying: n }),
        );
        if (!r)
          setShown({ error: "No connection. Nothing was checked in: try again when you are back online." });
        else if (!r.ok) setShown({ error: r.error });
        else {
          setShown({ answer: r.data });
          if ("code" in input) setCode("");
          if (r.data.kind === "checked_in") setCounts((c) => ({ ...c, checkedIn: c.checkedIn + 1 }));
          if ("number" in input) setRows(null);
        }
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [campaignId, actions],
  );

  async function search(e: React.FormEvent) {
    e.preventDefault();
    if (!query.trim()) return;
    setBusy(true);
    try {
      const r = await withRetry(
        () => actions.searchAtDoorAction(campaignId, query),
        (n) => setShown({ retrying: n }),
      );
      if (!r) setShown({ error: "No connection. Try the search again when you are back online." });
      else if (!r.ok) setShown({ error: r.error });
      else {
        setRows(r.data.rows);
        setCounts(r.data.counts);
        setShown((s) => (s && "retrying" in s ? null : s));
      }
    } finally {
      setBusy(false);
    }
  }

  const input = "min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-3 text-lg";
  const button =
    "rounded-lg bg-brand-700 px-4 py-3 text-lg font-semibold text-white hover:bg-brand-800 disabled:opacity-60";
  return (
    <div className="space-y-5">
      <p className="text-lg text-slate-800" data-testid="check-in-counts">
        <span className="text-2xl font-extrabold">{counts.checkedIn}</span> checked in of{" "}
        <span className="font-bold">{counts.expected}</span> expected
      </p>

      <div aria-live="polite" data-testid="check-in-answer">
        <AnswerPanel shown={shown} />
      </div>

      <section className="rounded-xl border border-slate-200 bg-white p-4">
        {camera ? (
          <>
            <Scanner onToken={(token) => void send({ token })} />
            <button
              type="button"
              className="mt-3 text-sm text-brand-700 underline"
              onClick={() => setCamera(false)}
            >
              Stop the camera
            </button>
          </>
        ) : (
          <button type="button" className={`${button} w-full`} onClick={() => setCamera(true)}>
            Scan tickets with the camera
          </button>
        )}
      </section>

      <form
        className="rounded-xl border border-slate-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) void send({ code });
        }}
      >
        <label htmlFor="ticket-code" className="block font-semibold text-slate-900">
          Ticket code
        </label>
        <div className="mt-2 flex gap-2">
          <input
            id="ticket-code"
            className={`${input} font-mono uppercase`}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="ABCD-EFGH"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
          />
          <button type="submit" className={button} disabled={busy}>
            Check in
          </button>
        </div>
      </form>

      <form className="rounded-xl border border-slate-200 bg-white p-4" onSubmit={search}>
        <label htmlFor="door-search" className="block font-semibold text-slate-900">
          {role === "organizer" ? "Find by name or attendee number" : "Find by attendee number or code"}
        </label>
        <div className="mt-2 flex gap-2">
          <input
            id="door-search"
            className={input}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={role === "organizer" ? "Name or #12" : "#12 or ABCD-EFGH"}
            autoComplete="off"
            inputMode={role === "organizer" ? "text" : undefined}
          />
          <button type="submit" className={button} disabled={busy}>
            Search
          </button>
        </div>
        {rows && (
          <ul className="mt-3 divide-y divide-slate-200" aria-label="Search results">
            {rows.length === 0 && <li className="py-2 text-slate-600">Nobody found.</li>}
            {rows.map((r) => (
              <li
                key={`${r.number}-${r.person}`}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
              >
                <span className="wrap-anywhere">
                  <span className="font-semibold">{r.person}</span>
                  {r.number !== null && !r.person.includes(`#${r.number}`) && (
                    <span className="text-slate-600"> · Attendee #{r.number}</span>
                  )}
                  {r.void && <span className="block text-sm text-red-700">{r.void}</span>}
                  {r.checkedInAt && (
                    <span className="block text-sm text-slate-600">
                      Checked in at {timeText(r.checkedInAt)}
                    </span>
                  )}
                </span>
                {r.number !== null && !r.checkedInAt && !r.void && (
                  <button
                    type="button"
                    className="rounded-lg border border-brand-700 px-3 py-2 font-semibold text-brand-700"
                    disabled={busy}
                    onClick={() => void send({ number: r.number! })}
                  >
                    Check in
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </form>
    </div>
  );
}
