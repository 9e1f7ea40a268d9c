/** What a card form reports back: the saved card, or an inline error to show. */
export type CardFormProps = {
  clientSecret: string;
  /** called with the saved payment method id once the provider has saved the card */
  onSaved: (paymentMethodId: string) => void;
  /** true while the pledge is being recorded after the card was saved */
  busy: boolean;
};

export const SAVE_CARD_FALLBACK = "Failed to save payment method";

/** Stripe returns the payment method as an id or an expanded object. */
export function paymentMethodIdOf(pm: unknown): string | null {
  if (typeof pm === "string" && pm) return pm;
  if (pm && typeof pm === "object" && typeof (pm as { id?: unknown }).id === "string")
    return (pm as { id: string }).id;
  return null;
}
