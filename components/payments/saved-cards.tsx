"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Modal } from "@/components/ui/modal";
import { SaveCardStep } from "@/components/payments/save-card-step";
import type { ActionResult } from "@/lib/actions";
import type { BackedCommitment, RemoveCardResult, SavedCardView } from "@/lib/pledges/saved-cards";

type Remove = (input: unknown) => Promise<ActionResult<RemoveCardResult>>;
type MakeDefault = (input: unknown) => Promise<ActionResult<{ isDefault: true }>>;

/** "Visa ·4242" */
const cardText = (c: { brand: string; last4: string }) =>
  `${c.brand.charAt(0).toUpperCase()}${c.brand.slice(1)} ·${c.last4}`;
const FAILED = "Could not update your saved cards. Please try again.";

/**
 * The profile's saved cards (issue 37): remove and make default. Removing a card that backs a
 * commitment asks for another card for those commitments first — another saved card, or a new one
 * through the card sheet — and the server moves them before the card goes.
 */
export function SavedCards({
  cards,
  paymentsMode,
  publishableKey,
  removeAction,
  makeDefaultAction,
}: {
  cards: SavedCardView[];
  paymentsMode: "stripe" | "demo";
  publishableKey: string | null;
  removeAction: Remove;
  makeDefaultAction: MakeDefault;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ card: SavedCardView; commitments: BackedCommitment[] } | null>(null);
  const [newCard, setNewCard] = useState(false);

  async function remove(card: SavedCardView, replacementId?: string) {
    setBusy(true);
    setError(null);
    const res = await removeAction({ paymentMethodId: card.paymentMethodId, replacementId }).catch(
      () => null,
    );
    setBusy(false);
    if (!res || !res.ok) return setError(res && !res.ok ? res.error : FAILED);
    if (res.data.status === "needs_replacement") {
      setAsking({ card, commitments: res.data.commitments });
      return;
    }
    setAsking(null);
    setNewCard(false);
    router.refresh();
  }

  async function makeDefault(card: SavedCardView) {
    setBusy(true);
    setError(null);
    const res = await makeDefaultAction({ paymentMethodId: card.paymentMethodId }).catch(() => null);
    setBusy(false);
    if (!res || !res.ok) return setError(res && !res.ok ? res.error : FAILED);
    router.refresh();
  }

  const others = asking ? cards.filter((c) => c.paymentMethodId !== asking.card.paymentMethodId) : [];
  return (
    <Card>
      <section aria-labelledby="saved-cards-title" data-testid="saved-cards">
        <h2 id="saved-cards-title" className="text-lg font-semibold text-slate-900">
          Saved cards
        </h2>
        {cards.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            No saved cards. Tick “Save this card for next time” when you commit to a paid event, and the next
            one takes one tap.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {cards.map((c) => (
              <li key={c.paymentMethodId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="text-sm text-slate-800">
                  <span className="font-semibold">{cardText(c)}</span> · expires{" "}
                  {String(c.expMonth).padStart(2, "0")}/{String(c.expYear).slice(-2)}
                  {c.isDefault && (
                    <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-800">
                      Default
                    </span>
                  )}
                </span>
                <span className="flex gap-2">
                  {!c.isDefault && (
                    <Button size="sm" variant="secondary" disabled={busy} onClick={() => void makeDefault(c)}>
                      Make default
                    </Button>
                  )}
                  <Button size="sm" variant="secondary" disabled={busy} onClick={() => void remove(c)}>
                    Remove<span className="sr-only"> {cardText(c)}</span>
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {error && !asking && (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {error}
          </p>
        )}
      </section>
      {asking && (
        <Modal
          title="Choose another card first"
          onClose={() => (setAsking(null), setNewCard(false), setError(null))}
          dismissible={!busy}
          dark={newCard}
        >
          <div className={`space-y-3 text-sm ${newCard ? "text-slate-200" : "text-slate-700"}`}>
            <p>
              {cardText(asking.card)} pays for{" "}
              {asking.commitments.length === 1 ? "this commitment" : "these commitments"}. Choose the card
              they move to; then {cardText(asking.card)} is removed.
            </p>
            <ul className="list-disc pl-5">
              {asking.commitments.map((m) => (
                <li key={m.campaignId}>{m.title}</li>
              ))}
            </ul>
            {!newCard &&
              others.map((c) => (
                <Button
                  key={c.paymentMethodId}
                  className="w-full"
                  disabled={busy}
                  onClick={() => void remove(asking.card, c.paymentMethodId)}
                >
                  Move them to {cardText(c)}
                </Button>
              ))}
            {newCard ? (
              <SaveCardStep
                paymentsMode={paymentsMode}
                publishableKey={publishableKey}
                submitLabel="Save card and move them"
                busyLabel="Moving your commitments..."
                onSaved={(pm) => void remove(asking.card, pm)}
                busy={busy}
              />
            ) : (
              <Button variant="secondary" className="w-full" disabled={busy} onClick={() => setNewCard(true)}>
                Use a new card
              </Button>
            )}
            {error && (
              <p role="alert" className="text-sm text-red-500">
                {error}
              </p>
            )}
          </div>
        </Modal>
      )}
    </Card>
  );
}
