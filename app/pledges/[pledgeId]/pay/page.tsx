import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { signInUrl } from "@/lib/auth/return-path";
import { getPledgeForPayment } from "@/lib/charging/queries";
import { paymentClosedReason } from "@/lib/charging/recovery";
import { paymentBadge } from "@/lib/events/story";
import { receiptReference, refundState } from "@/lib/ledger/queries";
import { isPaidEvent } from "@/lib/events/lifecycle";
import { paymentsMode } from "@/lib/payments/gateway";
import { declineInPlainWords } from "@/lib/payments/declines";
import { env } from "@/lib/env";
import { cardInWords, cardShort, formatCents } from "@/lib/format";
import { recoveryCard } from "@/lib/pledges/saved-cards";
import { formatInZone } from "@/lib/campaigns/event-time";
import { YourTime } from "@/components/time/your-time";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ButtonLink } from "@/components/ui/button";
import { PayForm } from "@/app/pledges/[pledgeId]/pay/pay-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your payment", robots: { index: false } };

/** Recovery page for a failed charge (DESIGN §1 "failed charges"): only the pledge's backer sees it. */
export default async function PayPledgePage({ params }: { params: Promise<{ pledgeId: string }> }) {
  const { pledgeId } = await params;
  const viewer = await getViewer();
  if (!viewer) redirect(signInUrl(`/pledges/${encodeURIComponent(pledgeId)}/pay`));
  const pledge = await getPledgeForPayment(pledgeId, viewer.id);
  if (!pledge) notFound();

  const depositCents = pledge.depositCents;
  const amountText = formatCents(pledge.amountCents + depositCents);
  const card = cardInWords(pledge.cardBrand, pledge.cardLast4, "your saved card");
  const closed = paymentClosedReason(pledge.campaign.status, pledge);
  const due = !closed && (pledge.chargeStatus === "failed" || pledge.chargeStatus === "requires_action");
  const paid = pledge.chargeStatus === "succeeded";
  const refund = (await refundState([pledge.id])).get(pledge.id)?.refund ?? "none";
  // issue 37: a card on file offered in one tap (the viewer's own; never a hard-declined one)
  const saved = due ? await recoveryCard(viewer, pledge.id) : null;
  const badge = paymentBadge({
    refund,
    eventCancelled: pledge.campaign.status === "cancelled",
    standing: pledge.standing,
    chargeStatus: pledge.chargeStatus,
    paid: isPaidEvent(pledge.campaign),
    cents: pledge.amountCents,
  });
  const heading = paid
    ? "Payment received"
    : pledge.chargeStatus === "refunded"
      ? "Payment refunded"
      : "Complete your payment";

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      <Link
        href={`/campaign/${pledge.campaign.id}`}
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        ← Back to event
      </Link>
      <h1 className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">{heading}</h1>
      <p className="mt-1 text-slate-600">{pledge.campaign.title}</p>

      <Card className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p className="text-sm text-slate-500">Your commitment</p>
            <p className="text-2xl font-bold text-slate-900">{amountText}</p>
            {depositCents > 0 ? (
              <p className="text-sm text-slate-600">
                {formatCents(pledge.amountCents)} ticket + {formatCents(depositCents)} show-up deposit,
                refunded when you check in
              </p>
            ) : null}
          </div>
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
        <div className="mt-4 text-sm text-slate-700">
          {closed && <p role="status">{closed}</p>}
          {!closed && pledge.chargeStatus === "failed" && (
            <p>
              The event reached its goal, but we could not charge {card}:{" "}
              <span className="font-medium">
                {declineInPlainWords(pledge.chargeFailureCode, pledge.chargeFailureMessage)}
              </span>{" "}
              {saved ? "Pay below to keep your place." : "Save a new card below to pay and keep your place."}
            </p>
          )}
          {due && pledge.dueBy && (
            <p className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-red-900 ring-1 ring-red-200">
              Please pay by <strong>{formatInZone(pledge.dueBy, pledge.campaign.timeZone)}</strong>
              <YourTime iso={pledge.dueBy.toISOString()} zone={pledge.campaign.timeZone} />. If it isn&apos;t
              paid by then, your place is released and you won&apos;t be charged.
            </p>
          )}
          {!closed && pledge.chargeStatus === "requires_action" && (
            <p>
              The event reached its goal, but your bank asked to confirm the charge on {card}, which we cannot
              do while you are away. {saved ? "Pay below now" : "Enter a card below to pay now"}; your bank
              may ask you to confirm.
            </p>
          )}
          {paid && (
            <>
              <p>Nothing more to do. See you at the event!</p>
              <dl
                aria-label="Receipt"
                className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 border-t border-slate-200 pt-4"
              >
                <dt className="text-slate-500">Amount</dt>
                <dd className="font-medium text-slate-900">{amountText}</dd>
                <dt className="text-slate-500">Card</dt>
                <dd className="text-slate-900">{card}</dd>
                {pledge.chargedAt && (
                  <>
                    <dt className="text-slate-500">Paid on</dt>
                    <dd className="text-slate-900">
                      {formatInZone(pledge.chargedAt, pledge.campaign.timeZone)}
                      <YourTime iso={pledge.chargedAt.toISOString()} zone={pledge.campaign.timeZone} />
                    </dd>
                  </>
                )}
                {pledge.paymentIntentId && (
                  <>
                    <dt className="text-slate-500">Reference</dt>
                    <dd className="font-mono text-slate-900">{receiptReference(pledge.id)}</dd>
                  </>
                )}
              </dl>
            </>
          )}
          {pledge.chargeStatus === "processing" && (
            <p>Your payment is being processed. Refresh this page in a minute to see the result.</p>
          )}
          {pledge.chargeStatus === "none" && (
            <p>Nothing to pay yet: you are charged only if the event reaches its goal.</p>
          )}
          {pledge.chargeStatus === "refunded" && <p>This payment was refunded.</p>}
        </div>
      </Card>

      {due ? (
        <div className="mt-6">
          <PayForm
            pledgeId={pledge.id}
            amountText={amountText}
            savedCard={
              saved
                ? { paymentMethodId: saved.paymentMethodId, text: cardShort(saved.brand, saved.last4) }
                : null
            }
            paymentsMode={paymentsMode()}
            publishableKey={env().NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY ?? null}
          />
        </div>
      ) : (
        <div className="mt-6">
          <ButtonLink href={`/campaign/${pledge.campaign.id}`} variant="secondary">
            View the event
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
