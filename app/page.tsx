import Link from "next/link";
import { listHomeCampaigns } from "@/lib/campaigns/queries";
import { formatDate } from "@/lib/format";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const campaigns = await listHomeCampaigns();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">Active Events</h1>
      {campaigns.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="text-lg font-semibold">No events found</p>
          <p className="text-slate-600">Be the first to create an event!</p>
          <Link href="/create-campaign" className="mt-4 inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white">
            Create First Event
          </Link>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {campaigns.map((c) => (
            <li key={c.id}>
              <Link href={`/campaign/${c.id}`} className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:shadow-md">
                <h2 className="font-semibold">{c.title}</h2>
                <p className="mt-1 line-clamp-3 text-sm text-slate-600">{c.description}</p>
                <p className="mt-3 text-sm">Goal: {c.goal} attendees</p>
                <p className="text-sm">{c.committedCount} committed</p>
                <p className="text-sm text-slate-500">Deadline: {formatDate(c.deadline)}</p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
