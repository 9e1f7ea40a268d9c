import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/viewer";
import { ADMIN_SECTION_LIMIT, getAdminDashboard } from "@/lib/campaigns/queries";
import { AdminCampaignList } from "@/components/admin/admin-campaign-list";
import { DeleteTestEvents } from "@/components/admin/delete-test-events";
import { canModerate } from "@/lib/access/rules";

export const metadata: Metadata = { title: "Admin Dashboard", robots: { index: false } };

export default async function AdminPage() {
  const viewer = await getViewer();
  // SPEC §6: non-admins are sent home (checked on the server; actions check again).
  if (!canModerate(viewer)) redirect("/");
  const data = await getAdminDashboard();
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
        <Link href="/admin/emails" className="text-sm font-semibold text-brand-700 hover:underline">
          Emails sent by the app →
        </Link>
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
            Delete every event marked as a test, with its commitments and comments.
          </p>
        </div>
        <DeleteTestEvents count={data.counts.test} />
      </section>
      <AdminCampaignList
        title="Pending Approval"
        campaigns={data.pending}
        total={data.counts.pending}
        limit={ADMIN_SECTION_LIMIT}
      />
      <AdminCampaignList
        title="Approved"
        campaigns={data.approved}
        total={data.counts.approved}
        limit={ADMIN_SECTION_LIMIT}
      />
      <AdminCampaignList
        title="Rejected"
        campaigns={data.rejected}
        total={data.counts.rejected}
        limit={ADMIN_SECTION_LIMIT}
      />
    </div>
  );
}
