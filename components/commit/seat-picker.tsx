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
      <div className="flex flex-wrap gap-2" role="group" aria-label="People in this commitment">
        {choices.map((n) => (
          <button
            key={n}
            type="button"
            aria-pressed={seats === n}
            onClick={() => setSeats(n)}
            className={`min-h-10 rounded-lg px-3 text-sm font-medium ring-1 transition-colors ${
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
                ? "The event is full: your group waits for places, in order."
                : `Only ${plural(placesLeft, "place is", "places are")} left: your group waits for ${seats} places, in order.`}
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
                Unticked: we come together or not at all — the group keeps its place in line while places go
                to those after it who fit.
              </span>
            </span>
          </label>
        </div>
      )}
    </fieldset>
  );
}
