/** What a card form reports back: the saved card, or an inline error to show. */
export type CardFormProps = {
  clientSecret: string;
  /** called with the saved payment method id once the provider has saved the card */
  onSaved: (paymentMethodId: string) => void;
  /** true while the pledge is being recorded after the card was saved */
  busy: boolean;
  /** the submit button's text ("Save Card" unless the step also pays, e.g. "Pay $9.00") */
  submitLabel?: string;
  /** the button's text while `busy` */
  busyLabel?: string;
  /** called when the person submits the form, before anything is checked (the page clears its own error) */
  onSubmitting?: () => void;
};

export const SAVE_CARD_LABEL = "Save Card";
export const RECORDING_LABEL = "Recording your pledge...";

export const SAVE_CARD_FALLBACK = "Failed to save payment method";

/** Stripe returns the payment method as an id or an expanded object. */
export function paymentMethodIdOf(pm: unknown): string | null {
  if (typeof pm === "string" && pm) return pm;
  if (pm && typeof pm === "object" && typeof (pm as { id?: unknown }).id === "string")
    return (pm as { id: string }).id;
  return null;
}
