"use client";

import { plural } from "@/lib/format";

/**
 * Issue 37: how many people this commitment holds, the committer included (1 to the event's M), and
 * — where the event has a capacity — whether part of the group may take places as they open.
 */
export function SeatPicker({
  maxSeats,
  placesLeft,
  seats,
  setSeats,
  partialOk,
  setPartialOk,
}: {
  maxSeats: number;
  /** null: no capacity */
  placesLeft: number | null;
  seats: number;
  setSeats: (n: number) => void;
  partialOk: boolean;
  setPartialOk: (ok: boolean) => void;
}) {
  const choices = Array.from({ length: maxSeats }, (_, i) => i + 1);
  const short = placesLeft !== null && seats > placesLeft;
  return (
    <fieldset className="rounded-lg border border-slate-200 px-3 py-3" data-testid="commit-seats">
      <legend className="px-1 text-sm font-medium text-slate-800">Who is coming?</legend>
      {/* four a row on a phone (no lone choice wrapping under the others), in one line where there is room */}
      <div
        className="grid grid-cols-4 gap-2 sm:flex sm:flex-wrap"
        role="group"
        aria-label="People in this commitment"
      >
        {choices.map((n) => (
          <button
            key={n}
            type="button"
            aria-pressed={seats === n}
            onClick={() => setSeats(n)}
            className={`min-h-10 rounded-lg px-1 text-sm font-medium whitespace-nowrap ring-1 transition-colors sm:px-3 ${
              seats === n
                ? "bg-brand-600 text-white ring-brand-600"
                : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50"
            }`}
          >
            {n === 1 ? "Just me" : `Me + ${n - 1}`}
          </button>
        ))}
      </div>
      <p className="mt-2 text-xs text-slate-600">
        {seats === 1
          ? "Bringing friends? Each one counts toward the goal and gets their own ticket."
          : `You commit for ${plural(seats, "person", "people")}: each counts toward the goal and gets their own ticket, which you can pass on.`}
      </p>
      {seats > 1 && placesLeft !== null && (
        <div className="mt-3 space-y-2">
          {short && (
            <p className="rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900 ring-1 ring-amber-200">
              {placesLeft === 0
                ? `The event is full: your group of ${seats} joins the waitlist and keeps its place in line.`
                : `Only ${plural(placesLeft, "place is", "places are")} left: your group of ${seats} joins the waitlist and keeps its place in line.`}
            </p>
          )}
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-brand-600"
              checked={partialOk}
              onChange={(e) => setPartialOk(e.target.checked)}
            />
            <span>
              If we don&apos;t all fit, some of us may take places as they open
              <span className="block text-xs text-slate-600">
                Unticked, you all come or none of you do: your group keeps its place in line, and a place too
                few for all of you goes to the next person it fits.
              </span>
            </span>
          </label>
        </div>
      )}
    </fieldset>
  );
}
