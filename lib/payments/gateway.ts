import "server-only";
import { stripeEnabled } from "@/lib/env";
import { demoGateway } from "@/lib/payments/demo-gateway";
import { stripeGateway } from "@/lib/payments/stripe-gateway";
import type { PaymentGateway } from "@/lib/payments/types";

/**
 * One interface for the payment provider (DESIGN §1 "payments provider"): Stripe when its keys are
 * set, otherwise the built-in demo mode. Callers never branch on the mode except for the browser
 * side (Stripe Elements vs the demo card form).
 */
export function getGateway(): PaymentGateway {
  return stripeEnabled() ? stripeGateway() : demoGateway();
}

export const paymentsMode = (): "stripe" | "demo" => (stripeEnabled() ? "stripe" : "demo");
