"use server";

import { revalidatePath } from "next/cache";
import { runAction, parseInput, type ActionResult } from "@/lib/actions";
import { requireUser } from "@/lib/access/viewer";
import { confirmPledgePayment, payPledgeOnSession, type PayPledgeResult } from "@/lib/charging/recovery";
import { confirmPledgePaymentSchema, payPledgeSchema } from "@/lib/charging/schema";

const PAY_FAILED = "Payment failed. Please try again.";

/** Pays a failed charge with the card the backer just saved (on-session). */
export async function payPledgeAction(input: unknown): Promise<ActionResult<PayPledgeResult>> {
  return runAction(PAY_FAILED, async () => {
    const { pledgeId, paymentMethodId } = parseInput(payPledgeSchema, input);
    const viewer = await requireUser();
    const result = await payPledgeOnSession(viewer, { pledgeId, paymentMethodId });
    revalidatePath(`/pledges/${pledgeId}/pay`);
    return result;
  });
}

/** Records the payment after the browser finished the bank's authentication (Stripe). */
export async function confirmPledgePaymentAction(input: unknown): Promise<ActionResult<PayPledgeResult>> {
  return runAction(PAY_FAILED, async () => {
    const { pledgeId } = parseInput(confirmPledgePaymentSchema, input);
    const viewer = await requireUser();
    const result = await confirmPledgePayment(viewer, pledgeId);
    revalidatePath(`/pledges/${pledgeId}/pay`);
    return result;
  });
}
