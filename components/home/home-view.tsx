import { Suspense } from "react";
import { listHomeCampaigns } from "@/lib/campaigns/queries";
import type { HomeQuery } from "@/lib/campaigns/filters";
import { Hero } from "@/components/home/hero";
import { InfoSteps } from "@/components/home/info-steps";
import { FilterBar, SearchBox } from "@/components/home/filter-bar";
import { CampaignGrid, CampaignGridFallback } from "@/components/home/campaign-grid";
import { HomeNotice } from "@/components/manage/home-notice";

/**
 * Home (SPEC §2), shared by the per-request page (app/page.tsx) and the cached copies (app/v): the
 * visitors' and the one every signed-in non-admin sees.
 */
export function HomeView({
  signedIn,
  isAdmin,
  query,
  notice,
}: {
  signedIn: boolean;
  isAdmin: boolean;
  query: HomeQuery;
  notice?: string | string[];
}) {
  const { page, ...current } = query;
  return (
    <>
      <HomeNotice notice={notice} />
      <Hero signedIn={signedIn} />
      <InfoSteps />
      <section aria-labelledby="active-events" className="mx-auto max-w-6xl px-4 py-12">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <h2 id="active-events" className="text-2xl font-bold text-slate-900">
            Active Events
          </h2>
          <FilterBar current={current} />
        </div>
        <SearchBox current={current} />
        {/* No key: a filter or page change keeps the current grid until the next is ready, so the
            page keeps its height and the scroll position stays where it was (issue 17). */}
        <Suspense fallback={<CampaignGridFallback />}>
          <Grid query={{ ...current, page }} isAdmin={isAdmin} />
        </Suspense>
      </section>
    </>
  );
}

async function Grid({ query, isAdmin }: { query: HomeQuery; isAdmin: boolean }) {
  const result = await listHomeCampaigns({ ...query, isAdmin });
  return <CampaignGrid result={result} query={query} isAdmin={isAdmin} />;
}
