import { HOME_FILTER_LABELS } from "@/lib/campaigns/filters";
import { HOME_FILTERS, type HomeFilter } from "@/lib/campaigns/filters";
import { FilterLinks } from "@/components/home/filter-links";

/** The filter control; the choice lives in the URL (?filter=ending) so it can be shared and cached. */
export function FilterBar({ current }: { current: HomeFilter }) {
  const items = HOME_FILTERS.map((f) => ({
    key: f,
    href: f === "all" ? "/" : `/?filter=${f}`,
    label: HOME_FILTER_LABELS[f],
    active: f === current,
  }));
  return (
    <nav aria-label="Filter events" className="flex flex-wrap gap-2">
      <FilterLinks items={items} />
    </nav>
  );
}
