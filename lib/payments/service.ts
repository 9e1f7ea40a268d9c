import "server-only";
import { AppError } from "@/lib/errors";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { getGateway, paymentsMode } from "@/lib/payments/gateway";
import { confirmDemoSetup, type DemoSetupResult } from "@/lib/payments/demo-gateway";
import type { ConfirmDemoSetupInput } from "@/lib/payments/schema";

type Viewer = { id: string; email: string };

const tooMany = (ms: number) => `Too many payment attempts. Please try again in ${minutesText(ms)}.`;

/** A setup intent for the signed-in viewer (Stripe's client secret, or a signed demo secret). */
export async function createSetupIntentForViewer(viewer: Viewer): Promise<{ clientSecret: string }> {
  await consume({ key: `setup-intent:user:${viewer.id}`, limit: 30, windowMs: 10 * 60_000 }, tooMany);
  return getGateway().createSetupIntent(viewer);
}

/** Demo mode only: validates the card like Stripe and saves a token for the viewer. */
export async function confirmDemoSetupForViewer(
  viewer: Viewer,
  input: ConfirmDemoSetupInput,
): Promise<DemoSetupResult> {
  if (paymentsMode() !== "demo")
    throw new AppError("NOT_FOUND", "Demo payments are not enabled on this server.");
  await consume({ key: `demo-card:user:${viewer.id}`, limit: 30, windowMs: 10 * 60_000 }, tooMany);
  return confirmDemoSetup(viewer.id, input);
}
