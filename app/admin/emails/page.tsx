import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { listOutboxForAdmin } from "@/lib/email/queries";
import { outboxPageSchema } from "@/lib/email/schema";
import { OutboxList } from "@/components/email/outbox-list";

export const metadata: Metadata = { title: "Emails", robots: { index: false } };

type Props = { searchParams: Promise<{ page?: string | string[]; to?: string | string[] }> };

export default async function AdminEmailsPage({ searchParams }: Props) {
  const viewer = await getViewer();
  if (!viewer?.isAdmin) redirect("/");
  const sp = await searchParams;
  const page = outboxPageSchema.parse(Array.isArray(sp.page) ? sp.page[0] : sp.page);
  const to = typeof sp.to === "string" ? sp.to : "";
  const data = await listOutboxForAdmin(viewer, { page, recipient: to });

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <Link href="/admin" className="text-sm text-brand-700 hover:underline">
            ← Admin Dashboard
          </Link>
          <h1 className="mt-2 text-3xl font-bold text-slate-900">Emails</h1>
        </div>
        <form method="get" className="flex w-full gap-2 sm:w-auto" role="search">
          <label htmlFor="to" className="sr-only">
            Recipient
          </label>
          <input
            id="to"
            name="to"
            type="search"
            defaultValue={data.recipient}
            placeholder="Filter by recipient"
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 sm:w-72"
          />
          <button
            type="submit"
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            Filter
          </button>
        </form>
      </div>
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
        {data.smtp
          ? "Emails are sent through SMTP_URL. This is the outbox: every email the app has written, with its delivery status."
          : "SMTP_URL is not set: emails are not sent, only stored here."}{" "}
        {data.total} {data.total === 1 ? "email" : "emails"}
        {data.recipient ? ` to addresses containing "${data.recipient}"` : ""}.
      </p>
      <OutboxList entries={data.entries} smtp={data.smtp} />
      {data.pages > 1 && (
        <nav aria-label="Pages" className="flex items-center justify-between text-sm">
          {data.page > 1 ? (
            <Link
              href={{ query: { ...(to ? { to } : {}), page: data.page - 1 } }}
              className="font-semibold text-brand-700 hover:underline"
            >
              ← Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-slate-500">
            Page {data.page} of {data.pages}
          </span>
          {data.page < data.pages ? (
            <Link
              href={{ query: { ...(to ? { to } : {}), page: data.page + 1 } }}
              className="font-semibold text-brand-700 hover:underline"
            >
              Older →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}
