import { progressPercent } from "@/lib/format";

/** A progress bar capped at 100%. */
export function ProgressBar({ value, max, label }: { value: number; max: number; label?: string }) {
  const pct = progressPercent(value, max);
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-label={label ?? "Progress"}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={`h-full rounded-full ${pct >= 100 ? "bg-emerald-500" : "bg-brand-600"}`}
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}
