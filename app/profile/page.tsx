import type { Metadata } from "next";
import { z } from "zod";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/lib/auth/return-path";
import { ProfileDashboard } from "@/components/auth/profile-dashboard";
import { SignInCard } from "@/components/auth/sign-in-card";
import { GOOGLE_OTHER_EMAIL_ERROR, GOOGLE_UNVERIFIED_ERROR } from "@/lib/auth/policy";
import { AUTH_TEXT, RESET_TEXT } from "@/lib/auth/schema";
import { getViewer } from "@/lib/access/viewer";
import { listCampaignsByCreator } from "@/lib/campaigns/queries";
import { listMyCommitments } from "@/lib/pledges/mine";
import { shownTicketsOfHolder } from "@/lib/tickets/queries";
import { env, googleEnabled } from "@/lib/env";
import { listSavedCards } from "@/lib/pledges/saved-cards";
import { paymentsMode } from "@/lib/payments/gateway";
import { SavedCards } from "@/components/payments/saved-cards";
import { makeDefaultCardAction, removeSavedCardAction } from "./card-actions";
import { changePasswordAction, signUpAction } from "./actions";
import { hasPassword } from "@/lib/auth/password-reset";
import { ChangePasswordForm } from "@/components/auth/password-forms";
import { resendConfirmationAction } from "@/app/verify-email/actions";
import { isEmailConfirmed } from "@/lib/auth/email-confirmation";
import { EmailConfirmationNotice } from "@/components/auth/email-confirmation-notice";

export const metadata: Metadata = { title: "Profile" };

// NextAuth sends failed Google sign-ins here as ?error=<code> (pages.error).
const searchSchema = z.object({
  error: z.string().max(100).optional().catch(undefined),
  // issue 18: where sign-in brings the person back to (lib/auth/return-path decides what is safe)
  next: z.string().max(600).optional().catch(undefined),
});

function oauthErrorText(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === GOOGLE_OTHER_EMAIL_ERROR) return AUTH_TEXT.googleOtherEmail;
  return code === GOOGLE_UNVERIFIED_ERROR ? AUTH_TEXT.googleUnverified : AUTH_TEXT.oauthFailed;
}

export default async function ProfilePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await getViewer();
  const { error, next } = searchSchema.parse(await searchParams);
  const returnTo = safeReturnPath(next);
  // signed in (a Google sign-in comes back here too): straight on to where they were going
  if (viewer && returnTo) redirect(returnTo);
  if (!viewer) {
    return (
      <div className="px-4 py-10 sm:py-16">
        <SignInCard
          googleEnabled={googleEnabled()}
          initialError={oauthErrorText(error)}
          signUpAction={signUpAction}
          returnTo={returnTo}
        />
      </div>
    );
  }
  const [pacts, commitments, confirmed, withPassword, tickets, cards] = await Promise.all([
    listCampaignsByCreator(viewer.id),
    listMyCommitments(viewer),
    isEmailConfirmed(viewer.id),
    hasPassword(viewer.id),
    // issue 36: the viewer's door tickets, by pledge (this page is rendered per request, for them only)
    shownTicketsOfHolder(viewer.id),
    // issue 37: the viewer's cards on file
    listSavedCards(viewer.id),
  ]);
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:py-10">
      {/* a Google sign-in refused while signed in (e.g. a Google account of another address, issue 31) */}
      {error && (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {oauthErrorText(error)}
        </p>
      )}
      {!confirmed && <EmailConfirmationNotice resendAction={resendConfirmationAction} />}
      <ProfileDashboard viewer={viewer} pacts={pacts} commitments={commitments} tickets={tickets} />
      <SavedCards
        cards={cards}
        paymentsMode={paymentsMode()}
        publishableKey={env().NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY ?? null}
        removeAction={removeSavedCardAction}
        makeDefaultAction={makeDefaultCardAction}
      />
      {withPassword ? (
        <ChangePasswordForm email={viewer.email} changeAction={changePasswordAction} />
      ) : (
        <p className="text-sm text-slate-600">{RESET_TEXT.googleOnly}</p>
      )}
    </div>
  );
}
