import "server-only";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { formatCents } from "@/lib/format";
import { pledgeChargeCents } from "@/lib/campaigns/lifecycle";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Called once a pledge's charge failed or needs authentication: writes the backer's email to the
 * outbox (DESIGN §1 "failed charges"); the email job sends it. One email per failure episode, not
 * per attempt (issue 14: a retried soft decline sent one email per click): the dedupe key names the
 * pledge and its episode — a pledge has one until the recovery window's reminders arrive.
 */
export async function onChargeFailed(pledgeId: string): Promise<void> {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      chargeStatus: true,
      chargeAttempts: true,
      chargeFailureMessage: true,
      amountCents: true,
      user: { select: { email: true } },
      campaign: { select: { title: true, ticketPriceCents: true, pactType: true } },
    },
  });
  if (!pledge || (pledge.chargeStatus !== "failed" && pledge.chargeStatus !== "requires_action")) return;
  const amount = pledgeChargeCents(pledge.campaign, pledge);
  const link = `${appUrl()}/pledges/${pledge.id}/pay`;
  const reason =
    pledge.chargeStatus === "requires_action"
      ? "Your bank asked for authentication, which we cannot do while you are away."
      : (pledge.chargeFailureMessage ?? "Your card was declined.");
  const subject = `Action needed: your payment for "${pledge.campaign.title}" did not go through`;
  const text = [
    `Good news: "${pledge.campaign.title}" reached its goal and is confirmed.`,
    ``,
    `We could not charge your card ${formatCents(amount)}. ${reason}`,
    `Please update your card and pay here: ${link}`,
  ].join("\n");
  const html = `<p>Good news: <strong>${escapeHtml(pledge.campaign.title)}</strong> reached its goal and is confirmed.</p><p>We could not charge your card ${escapeHtml(formatCents(amount))}. ${escapeHtml(reason)}</p><p><a href="${escapeHtml(link)}">Update your card and pay</a></p>`;
  await db.emailOutbox.createMany({
    data: [{ dedupeKey: `charge-failed:${pledge.id}:1`, toEmail: pledge.user.email, subject, text, html }],
    skipDuplicates: true,
  });
}
