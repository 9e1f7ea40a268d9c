import { formatDateTime } from "@/lib/format";
import type { OutboxEntry } from "@/lib/email/queries";

/**
 * The HTML version as the recipient's mail program shows it: in a sandboxed frame (no scripts, an
 * opaque origin, so the email cannot touch this page), its links opening in a new tab.
 */
const previewDoc = (html: string) =>
  html.includes("<head>")
    ? html.replace("<head>", '<head><base target="_blank">')
    : `<base target="_blank">${html}`;

const STATUS: Record<OutboxEntry["status"], { label: string; cls: string }> = {
  pending: { label: "Pending", cls: "bg-amber-50 text-amber-800 ring-amber-200" },
  sent: { label: "Sent", cls: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  failed: { label: "Failed", cls: "bg-red-50 text-red-700 ring-red-200" },
};

export function OutboxList({ entries, smtp }: { entries: OutboxEntry[]; smtp: boolean }) {
  if (entries.length === 0)
    return (
      <p className="rounded-xl border border-slate-200 bg-white p-6 text-center text-slate-500">
        No emails yet.
      </p>
    );
  return (
    <ul className="space-y-3">
      {entries.map((e) => {
        const s =
          e.status === "sent" && !smtp
            ? { label: "Stored", cls: "bg-slate-100 text-slate-700 ring-slate-200" }
            : STATUS[e.status];
        return (
          <li key={e.id} className="rounded-xl border border-slate-200 bg-white shadow-sm">
            <details className="group">
              <summary className="flex cursor-pointer list-none flex-col gap-1 p-4 sm:flex-row sm:items-center sm:gap-4">
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold text-slate-900" data-testid="email-subject">
                    {e.subject}
                  </span>
                  <span className="block truncate text-sm text-slate-600" data-testid="email-to">
                    To: {e.toEmail}
                  </span>
                </span>
                <span className="flex items-center gap-3 text-xs text-slate-500">
                  <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt)}</time>
                  <span className={`rounded-full px-2 py-0.5 font-semibold ring-1 ring-inset ${s.cls}`}>
                    {s.label}
                  </span>
                  <span aria-hidden className="text-slate-400 transition-transform group-open:rotate-90">
                    ▸
                  </span>
                </span>
              </summary>
              <div className="border-t border-slate-100 p-4 text-sm">
                {e.html && (
                  <iframe
                    title={`HTML version of "${e.subject}"`}
                    srcDoc={previewDoc(e.html)}
                    sandbox="allow-popups allow-popups-to-escape-sandbox"
                    loading="lazy"
                    className="mb-4 h-[32rem] w-full rounded-lg border border-slate-200 bg-slate-50"
                  />
                )}
                <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
                  Plain text
                </p>
                <pre className="whitespace-pre-wrap wrap-anywhere font-sans text-slate-800">{e.text}</pre>
                {e.attachmentNames.length > 0 && (
                  <p className="mt-3 text-xs text-slate-500">Attachments: {e.attachmentNames.join(", ")}</p>
                )}
                {e.lastError && (
                  <p className="mt-3 text-xs text-red-700">
                    Last error after {e.attempts} {e.attempts === 1 ? "attempt" : "attempts"}: {e.lastError}
                  </p>
                )}
                {e.sentAt && (
                  <p className="mt-1 text-xs text-slate-500">
                    {smtp ? "Sent" : "Stored"} {formatDateTime(e.sentAt)}
                  </p>
                )}
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
