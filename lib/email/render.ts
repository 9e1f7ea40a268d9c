/**
 * Email bodies: one small layout rendered twice, as plain text and as HTML, so every email has
 * both. Everything interpolated into the HTML is escaped.
 */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

type EmailContent = {
  /** First line / heading, e.g. "Event Confirmed!" */
  heading: string;
  /** Paragraphs of plain text (no HTML). */
  paragraphs: string[];
  /** One call to action: a button in HTML, "label: url" in text. */
  action?: { label: string; url: string };
  /** Unsubscribe links (lib/email/unsubscribe unsubscribeLinks), for non-transactional mail only. */
  unsubscribe?: { page: string; oneClick: string };
  /** The event's cover (an absolute URL), shown above the heading in HTML. */
  imageUrl?: string;
  /** An inline image after the paragraphs (an attachment's cid), e.g. a door ticket's QR code. */
  inlineImage?: { cid: string; alt: string; caption: string };
};

type RenderedEmail = {
  text: string;
  html: string;
  headers?: { "List-Unsubscribe": string; "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
};

export function renderEmail(c: EmailContent): RenderedEmail {
  const text = [
    c.heading,
    "",
    ...c.paragraphs.flatMap((p) => [p, ""]),
    ...(c.action ? [`${c.action.label}: ${c.action.url}`, ""] : []),
    "--",
    "PactNexus — a nexus for pacts.",
    ...(c.unsubscribe ? [`Unsubscribe from these emails: ${c.unsubscribe.page}`] : []),
  ].join("\n");

  const p = (s: string) =>
    `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(s).replace(/\n/g, "<br>")}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(c.heading)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="margin:0 0 8px;font-weight:700;color:#4338ca">PactNexus</p>
${c.imageUrl ? `<img src="${escapeHtml(c.imageUrl)}" alt="" width="512" style="display:block;width:100%;max-width:512px;height:auto;border-radius:8px;margin:0 0 16px">` : ""}
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map(p).join("\n")}
${
  c.inlineImage
    ? `<p style="margin:0 0 16px;text-align:center"><img src="cid:${escapeHtml(c.inlineImage.cid)}" alt="${escapeHtml(c.inlineImage.alt)}" width="240" height="240" style="display:inline-block;width:240px;height:240px"><br><span style="font-family:ui-monospace,monospace;font-size:20px;font-weight:700;letter-spacing:2px">${escapeHtml(c.inlineImage.caption)}</span></p>`
    : ""
}
${
  c.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:10px 18px;border-radius:8px">${escapeHtml(c.action.label)}</a></p>`
    : ""
}
</div>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#64748b;text-align:center">PactNexus — a nexus for pacts. Solving coordination problems through assurance contracts.${
    c.unsubscribe
      ? `<br><a href="${escapeHtml(c.unsubscribe.page)}" style="color:#64748b">Unsubscribe from these emails</a>`
      : ""
  }</p>
</body></html>`;
  if (!c.unsubscribe) return { text, html };
  // RFC 2369 and RFC 8058: mail programs show their own Unsubscribe button, one click, no page.
  return {
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${c.unsubscribe.oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
