import Link from "next/link";
import { homeHref, type HomeQuery } from "@/lib/campaigns/filters";

export function Pagination({
  query,
  page,
  pageCount,
}: {
  query: HomeQuery;
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
        <Link href={homeHref({ ...query, page: page - 1 })} className={cls} rel="prev">
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
        <Link href={homeHref({ ...query, page: page + 1 })} className={cls} rel="next">
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
