/** Shown while the event page renders on the server (SPEC §2: "Loading campaign..."). */
export default function LoadingCampaign() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10" role="status" aria-live="polite">
      <p className="text-slate-600">Loading campaign...</p>
      <div className="mt-6 space-y-4" aria-hidden>
        <div className="h-10 w-2/3 animate-pulse rounded-lg bg-slate-200" />
        <div className="h-5 w-full animate-pulse rounded bg-slate-200" />
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="h-64 animate-pulse rounded-xl bg-slate-200 lg:col-span-2" />
          <div className="h-64 animate-pulse rounded-xl bg-slate-200" />
        </div>
      </div>
    </div>
  );
}
