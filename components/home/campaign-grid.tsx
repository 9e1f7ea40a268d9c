import { ButtonLink } from "@/components/ui/button";
import { CampaignCard } from "@/components/home/campaign-card";
import { homeCard } from "@/lib/campaigns/display";
import { Pagination } from "@/components/home/pagination";
import { ScrollKeeper } from "@/components/home/scroll-keeper";
import type { HomePage } from "@/lib/campaigns/queries";
import type { HomeQuery } from "@/lib/campaigns/filters";

export function CampaignGrid({
  result,
  query,
  isAdmin,
}: {
  result: HomePage;
  query: HomeQuery;
  isAdmin: boolean;
}) {
  const now = new Date();
  if (result.campaigns.length === 0 && query.q) {
    return (
      <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <p className="text-lg font-semibold text-slate-900">No events found</p>
        <p className="mt-1 text-slate-600">Nothing matches “{query.q}”. Try other words.</p>
      </div>
    );
  }
  if (result.campaigns.length === 0) {
    return (
      <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <p className="text-lg font-semibold text-slate-900">No events found</p>
        <p className="mt-1 text-slate-600">Be the first to create an event!</p>
        <ButtonLink href="/create-campaign" className="mt-5">
          Create First Event
        </ButtonLink>
      </div>
    );
  }
  return (
    <>
      <ScrollKeeper />
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {result.campaigns.map((c) => (
          <li key={c.id} className="min-w-0">
            <CampaignCard campaign={homeCard(c, now)} isAdmin={isAdmin} />
          </li>
        ))}
      </ul>
      <Pagination query={query} page={result.page} pageCount={result.pageCount} />
    </>
  );
}

export function CampaignGridFallback() {
  return (
    <div className="mt-6" role="status" aria-live="polite">
      <p className="text-center text-slate-600">Loading campaigns...</p>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-hidden>
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="h-48 animate-pulse rounded-xl border border-slate-200 bg-white" />
        ))}
      </ul>
    </div>
  );
}
