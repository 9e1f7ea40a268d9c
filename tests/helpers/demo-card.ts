import { confirmDemoSetup, createDemoSetupSecret } from "@/lib/payments/demo-gateway";

/**
 * A card the demo gateway saved for `userId` through its card sheet's own path (a SetupIntent secret,
 * then the card form): its payment method id. The card number picks its behaviour
 * (4242…: charges; 4000 0000 0000 0341: saves but its charges fail; 4000 0027 6000 3184: asks for
 * authentication).
 */
export async function demoCard(userId: string, cardNumber: string): Promise<string> {
  const result = await confirmDemoSetup(userId, {
    clientSecret: createDemoSetupSecret(userId),
    cardNumber,
    expMonth: "12",
    expYear: "2034",
    cvc: "123",
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.setupIntent.payment_method;
}
