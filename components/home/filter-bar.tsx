import Link from "next/link";
import { HOME_FILTER_LABELS } from "@/lib/campaigns/filters";
import { HOME_FILTERS, type HomeFilter } from "@/lib/campaigns/filters";

/** The filter control; the choice lives in the URL (?filter=ending) so it can be shared and cached. */
export function FilterBar({ current }: { current: HomeFilter }) {
  return (
    <nav aria-label="Filter events" className="flex flex-wrap gap-2">
      {HOME_FILTERS.map((f) => {
        const active = f === current;
        return (
          <Link
            key={f}
            href={f === "all" ? "/" : `/?filter=${f}`}
            aria-current={active ? "page" : undefined}
            scroll={false}
            className={`rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ring-inset transition-colors ${
              active
                ? "bg-brand-600 text-white ring-brand-600"
                : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
            }`}
          >
            {HOME_FILTER_LABELS[f]}
          </Link>
        );
      })}
    </nav>
  );
}
