import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import {
  ADMIN_SECTIONS,
  adminSearchSchema,
  getAdminDashboard,
  type AdminSearch,
  type AdminSectionName,
} from "@/lib/campaigns/admin";
import { AdminCampaignList } from "@/components/admin/admin-campaign-list";
import { DeleteTestEvents } from "@/components/admin/delete-test-events";
import { canModerate } from "@/lib/access/rules";

export const metadata: Metadata = { title: "Admin Dashboard", robots: { index: false } };

const SECTION_TITLES: Record<AdminSectionName, string> = {
  pending: "Pending Approval",
  approved: "Approved",
  rejected: "Rejected",
};

/** The dashboard's address with one section on another page (the search and other pages kept). */
function pageHref(search: AdminSearch, section: AdminSectionName, page: number): string {
  const params = new URLSearchParams();
  if (search.q) params.set("q", search.q);
  for (const name of ADMIN_SECTIONS) {
    const n = name === section ? page : search[name];
    if (n > 1) params.set(name, String(n));
  }
  const query = params.toString();
  return `/admin${query ? `?${query}` : ""}#section-${section}`;
}

export default async function AdminPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await getViewer();
  // SPEC §6: non-admins are sent home (checked on the server; actions check again).
  if (!canModerate(viewer)) redirect("/");
  const raw = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const search = adminSearchSchema.parse({
    q: first(raw.q),
    pending: first(raw.pending),
    approved: first(raw.approved),
    rejected: first(raw.rejected),
  });
  const data = await getAdminDashboard(search);
  const stats = [
    { label: "Pending", value: data.counts.pending, cls: "text-amber-600" },
    { label: "Approved", value: data.counts.approved, cls: "text-emerald-600" },
    { label: "Rejected", value: data.counts.rejected, cls: "text-red-600" },
    { label: "Test Events", value: data.counts.test, cls: "text-purple-600" },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-6 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
        <span className="flex flex-wrap gap-4">
          <Link href="/admin/payouts" className="text-sm font-semibold text-brand-700 hover:underline">
            Payouts →
          </Link>
          <Link href="/admin/emails" className="text-sm font-semibold text-brand-700 hover:underline">
            Emails sent by the app →
          </Link>
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <dt className="text-sm font-medium text-slate-500">{s.label}</dt>
            <dd className={`mt-1 text-3xl font-bold ${s.cls}`}>{s.value}</dd>
          </div>
        ))}
      </dl>
      <section
        aria-labelledby="test-events"
        className="flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50/50 p-5 sm:flex-row sm:items-start sm:justify-between"
      >
        <div>
          <h2 id="test-events" className="font-semibold text-slate-900">
            Test events
          </h2>
          <p className="text-sm text-slate-600">
            Delete every event marked as a test, with its commitments and comments. Events with money on them
            (a charge, a refund, a saved card or a payout) are kept: cancel them instead.
          </p>
        </div>
        <DeleteTestEvents
          count={data.counts.test}
          titles={data.testEvents.deletable}
          kept={data.testEvents.kept}
          keptCount={data.testEvents.keptCount}
        />
      </section>
      <form role="search" action="/admin" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1">
          <label htmlFor="admin-search" className="block text-sm font-semibold text-slate-800">
            Search events
          </label>
          <input
            id="admin-search"
            name="q"
            type="search"
            defaultValue={data.q ?? ""}
            maxLength={100}
            placeholder="Title, organizer email or event id"
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          />
        </div>
        <div className="flex gap-2">
          <button
            type="submit"
            className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Search
          </button>
          {data.q && (
            <Link
              href="/admin"
              className="rounded-lg border border-slate-300 px-4 py-2 font-semibold text-slate-700 hover:bg-slate-50"
            >
              Clear
            </Link>
          )}
        </div>
      </form>
      {data.q && (
        <p role="status" className="text-sm text-slate-600">
          Showing events matching &ldquo;{data.q}&rdquo;.
        </p>
      )}
      {ADMIN_SECTIONS.map((name) => (
        <AdminCampaignList
          key={name}
          id={`section-${name}`}
          title={SECTION_TITLES[name]}
          section={data.sections[name]}
          pageHref={(page) => pageHref(search, name, page)}
          searching={Boolean(data.q)}
        />
      ))}
    </div>
  );
}
