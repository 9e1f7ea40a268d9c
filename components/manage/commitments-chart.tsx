import { formatDayInZone } from "@/lib/campaigns/event-time";

/**
 * Commitments over time against the goal: a server-rendered SVG (no chart library, no client JS).
 * A step line of the running total, a dashed goal line, and first/last dates on the axis.
 */
export function CommitmentsChart({
  timeline,
  goal,
  start,
  end,
  unit,
  timeZone,
}: {
  timeline: Array<{ at: string; total: number }>;
  goal: number;
  start: string;
  end: string;
  unit: string;
  /** the event's zone: the axis dates are its days */
  timeZone: string;
}) {
  const W = 640;
  const H = 240;
  const pad = { l: 2, r: 2, t: 8, b: 2 };
  const t0 = new Date(start).getTime();
  const lastAt = timeline.length ? new Date(timeline[timeline.length - 1].at).getTime() : t0;
  const t1 = Math.max(new Date(end).getTime(), lastAt, t0 + 3600_000);
  const total = timeline.length ? timeline[timeline.length - 1].total : 0;
  const yMax = Math.max(goal, total, 1) * 1.1;
  const x = (t: number) => pad.l + ((t - t0) / (t1 - t0)) * (W - pad.l - pad.r);
  const y = (v: number) => H - pad.b - (v / yMax) * (H - pad.t - pad.b);

  let d = `M ${x(t0).toFixed(1)} ${y(0).toFixed(1)}`;
  let prev = 0;
  for (const p of timeline) {
    const px = x(new Date(p.at).getTime()).toFixed(1);
    d += ` L ${px} ${y(prev).toFixed(1)} L ${px} ${y(p.total).toFixed(1)}`;
    prev = p.total;
  }
  d += ` L ${x(t1).toFixed(1)} ${y(prev).toFixed(1)}`;
  const area = `${d} L ${x(t1).toFixed(1)} ${y(0).toFixed(1)} Z`;
  const label = `Commitments over time: ${total} of ${goal} ${unit}`;

  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-lg font-bold text-slate-900">Commitments over time</span>
        <span className="text-sm text-slate-500">
          {total} / {goal} {unit}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
        className="mt-3 h-44 w-full sm:h-60"
      >
        <line
          x1={pad.l}
          x2={W - pad.r}
          y1={y(0)}
          y2={y(0)}
          className="stroke-slate-300"
          strokeWidth="1"
          vectorEffect="non-scaling-stroke"
        />
        <line
          x1={pad.l}
          x2={pad.l}
          y1={pad.t}
          y2={y(0)}
          className="stroke-slate-300"
          strokeWidth="1"
          vectorEffect="non-scaling-stroke"
        />
        <path d={area} className="fill-brand-100/70" />
        <path
          d={d}
          fill="none"
          className="stroke-brand-600"
          strokeWidth="2.5"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
        <line
          x1={pad.l}
          x2={W - pad.r}
          y1={y(goal)}
          y2={y(goal)}
          className="stroke-emerald-600"
          strokeWidth="1.5"
          strokeDasharray="6 5"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <div className="mt-1 flex justify-between text-xs text-slate-500">
        <span>{formatDayInZone(start, timeZone)}</span>
        <span>{formatDayInZone(new Date(t1), timeZone)}</span>
      </div>
      <div className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="h-0.5 w-5 bg-brand-600" /> Commitments
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="w-5 border-t-2 border-dashed border-emerald-600" /> Goal ({goal})
        </span>
      </div>
    </figure>
  );
}
