import {
  HOME_FILTER_LABELS,
  HOME_FILTERS,
  HOME_SORT_LABELS,
  HOME_SORTS,
  SEARCH_MAX,
  homeHref,
  type HomeQuery,
} from "@/lib/campaigns/filters";
import { FilterLinks } from "@/components/home/filter-links";

/**
 * The filter, sort and search controls; the choice lives in the URL (?filter=ending&sort=nearly&q=jazz)
 * so it can be shared. The plain filters are served from the visitors' cached copies; a sort or a
 * search is rendered per request (proxy.ts), so searches never churn the cache.
 */
export function FilterBar({ current }: { current: Omit<HomeQuery, "page"> }) {
  const filters = HOME_FILTERS.map((f) => ({
    key: f,
    href: homeHref({ ...current, filter: f }),
    label: HOME_FILTER_LABELS[f],
    active: f === current.filter,
  }));
  const sorts = HOME_SORTS.map((s) => ({
    key: s,
    href: homeHref({ ...current, sort: s }),
    label: HOME_SORT_LABELS[s],
    active: s === current.sort,
  }));
  return (
    <div className="flex flex-col gap-3 sm:items-end">
      <nav aria-label="Filter events" className="flex flex-wrap gap-2">
        <FilterLinks items={filters} />
      </nav>
      <nav aria-label="Sort events" className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600">Sort:</span>
        <FilterLinks items={sorts} />
      </nav>
    </div>
  );
}

/** The search box: a plain GET form to "/", keeping the filter and sort chosen. */
export function SearchBox({ current }: { current: Omit<HomeQuery, "page"> }) {
  return (
    <form role="search" action="/" method="get" className="mt-6 flex gap-2">
      <label htmlFor="home-search" className="sr-only">
        Search events
      </label>
      <input
        id="home-search"
        type="search"
        name="q"
        defaultValue={current.q}
        maxLength={SEARCH_MAX}
        placeholder="Search by title, description or place"
        className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200"
      />
      {current.filter !== "all" && <input type="hidden" name="filter" value={current.filter} />}
      {current.sort !== "newest" && <input type="hidden" name="sort" value={current.sort} />}
      <button
        type="submit"
        className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Search
      </button>
    </form>
  );
}
