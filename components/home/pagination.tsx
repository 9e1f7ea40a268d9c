import Link from "next/link";
import type { HomeFilter } from "@/lib/campaigns/filters";

const href = (filter: HomeFilter, page: number) => {
  const q = new URLSearchParams();
  if (filter !== "all") q.set("filter", filter);
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `/?${s}` : "/";
};

export function Pagination({
  filter,
  page,
  pageCount,
}: {
  filter: HomeFilter;
  page: number;
  pageCount: number;
}) {
  if (pageCount <= 1) return null;
  const cls =
    "rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-50";
  // The end of the list: shown dimmed (border and text lighter) but still readable (contrast >= 4.5:1).
  const off = "rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm font-semibold text-slate-500";
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-center gap-3">
      {page > 1 ? (
        <Link href={href(filter, page - 1)} className={cls} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className={off} aria-hidden>
          ← Previous
        </span>
      )}
      <span className="text-sm text-slate-600">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link href={href(filter, page + 1)} className={cls} rel="next">
          Next →
        </Link>
      ) : (
        <span className={off} aria-hidden>
          Next →
        </span>
      )}
    </nav>
  );
}
