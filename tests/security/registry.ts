/**
 * The authorization registry (issue 9 item 1): every route handler (app/**\/route.ts, per exported
 * HTTP method) and every server action ("use server" exports) with who may call it. Two tests
 * read it: registry.test.ts fails when the source tree has an entry point missing here (or this
 * lists one that no longer exists); authorization-matrix.test.ts calls each entry point as every
 * role and checks allow/deny, and that a denied call changed nothing.
 *
 * Access levels: lib/access/rules.ts ACCESS_LEVELS (the same names the access policy uses).
 */
import type { Access } from "@/lib/access/rules";

export type { Access };
export type Role = "visitor" | "user" | "creator" | "backer" | "admin";
export const ROLES: readonly Role[] = ["visitor", "user", "creator", "backer", "admin"];

export type Entry = {
  kind: "route" | "action";
  /** path from the repository root */
  file: string;
  /** HTTP method for routes, exported function name for actions */
  name: string;
  access: Access;
  /** what the rule means here, and where it is enforced */
  rule: string;
};

export const REGISTRY: readonly Entry[] = [
  // ---- route handlers --------------------------------------------------------------------------
  {
    kind: "route",
    file: "app/api/auth/[...nextauth]/route.ts",
    name: "GET",
    access: "public",
    rule: "NextAuth (session, csrf, providers, callbacks)",
  },
  {
    kind: "route",
    file: "app/api/auth/[...nextauth]/route.ts",
    name: "POST",
    access: "public",
    rule: "NextAuth sign-in/out; its own double-submit CSRF token; sign-in limits in lib/auth/service",
  },
  {
    kind: "route",
    file: "app/api/campaigns/[campaignId]/cover/route.ts",
    name: "POST",
    access: "creator",
    rule: 'cover upload: lib/images/service setCover, loadCampaignFor(…, "manage") (others: 404 with SPEC §6\'s message)',
  },
  {
    kind: "route",
    file: "app/api/campaigns/[campaignId]/cover/route.ts",
    name: "DELETE",
    access: "creator",
    rule: 'cover removal: lib/images/service removeCover, loadCampaignFor(…, "manage")',
  },
  {
    kind: "route",
    file: "app/api/campaigns/[campaignId]/commit/route.ts",
    name: "POST",
    access: "signed-in",
    rule: "the commit dialog's commit (issue 35 item 3): lib/pledges/service commitToCampaign — signed in, once per campaign, rate-limited per user",
  },
  {
    kind: "route",
    file: "app/images/covers/[imageId]/[size]/route.ts",
    name: "GET",
    access: "public",
    rule: "a cover holds no identity; served by its unguessable id (lib/images/queries)",
  },
  {
    kind: "route",
    file: "app/api/charge-attendees/route.ts",
    name: "POST",
    access: "creator-or-admin",
    rule: "manual charge: lib/access/rules canOverseeEvent (others: 404 with SPEC §6's message)",
  },
  {
    kind: "route",
    file: "app/api/check-and-charge/route.ts",
    name: "POST",
    access: "public",
    rule: "anyone may ask for a visible campaign; the database decides (lib/charging checkAndCharge)",
  },
  {
    kind: "route",
    file: "app/api/create-setup-intent/route.ts",
    name: "POST",
    access: "signed-in",
    rule: "the card is saved for the signed-in viewer, never for the body's email",
  },
  {
    kind: "route",
    file: "app/api/demo-payments/confirm-setup/route.ts",
    name: "POST",
    access: "signed-in",
    rule: "the client secret is signed for one user; another user's secret is refused",
  },
  {
    kind: "route",
    file: "app/api/unsubscribe/route.ts",
    name: "POST",
    access: "token",
    rule: "one-click unsubscribe (RFC 8058): lib/email/unsubscribe, HMAC token of the user id",
  },
  {
    kind: "route",
    file: "app/api/unsubscribe/route.ts",
    name: "GET",
    access: "public",
    rule: "changes nothing: redirects to the /unsubscribe page that asks to confirm",
  },
  {
    kind: "route",
    file: "app/api/me/attention/route.ts",
    name: "GET",
    access: "public",
    rule: "changes nothing; answers about the session's own user only (a visitor: an empty list), private no-store: lib/pledges/attention paymentAttention",
  },
  {
    kind: "route",
    file: "app/api/me/tickets/[campaignId]/route.ts",
    name: "GET",
    access: "public",
    rule: "changes nothing; the session's own door ticket at the event, else { ticket: null } (a visitor, the organizer, another member), private no-store: lib/tickets/queries ticketForViewer",
  },
  {
    kind: "route",
    file: "app/api/health/route.ts",
    name: "GET",
    access: "public",
    rule: "liveness and database reachability",
  },
  {
    kind: "route",
    file: "app/api/stripe/webhook/route.ts",
    name: "POST",
    access: "stripe-signature",
    rule: "lib/payments/webhook verifyStripeEvent on the raw body; exempt from the Origin check",
  },
  {
    kind: "route",
    file: "app/campaign/[campaignId]/calendar.ics/route.ts",
    name: "GET",
    access: "public",
    rule: "anyone who may see the campaign (approved, or its creator/admins): lib/sharing getShareInfo",
  },
  {
    kind: "route",
    file: "app/campaign/[campaignId]/commitments.csv/route.ts",
    name: "GET",
    access: "creator",
    rule: "the manage view's CSV: creator only (SPEC §6), 404 for everyone else",
  },
  {
    kind: "route",
    file: "app/payouts/payouts.csv/route.ts",
    name: "GET",
    access: "signed-in",
    rule: "lib/payouts/queries getPayoutsCsv: the signed-in organizer's own events only (401 signed out)",
  },
  // ---- server actions ----------------------------------------------------------------------------
  {
    kind: "action",
    file: "app/admin/actions.ts",
    name: "setApprovalStatusAction",
    access: "admin",
    rule: "lib/campaigns/service setApprovalStatus (canModerate)",
  },
  {
    kind: "action",
    file: "app/admin/actions.ts",
    name: "deleteTestEventsAction",
    access: "admin",
    rule: "lib/campaigns/service deleteTestCampaigns (canModerate)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/comment-actions.ts",
    name: "postCommentAction",
    access: "signed-in",
    rule: "lib/comments/service createComment: signed in, approved campaign (or admin/creator)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/comment-actions.ts",
    name: "deleteCommentAction",
    access: "creator-or-admin",
    rule: "lib/access/rules canOverseeEvent",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/cancel-actions.ts",
    name: "cancelCampaignAction",
    access: "creator-or-admin",
    rule: "lib/access/policy loadCampaignFor cancel (canOverseeEvent)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/list-actions.ts",
    name: "loadMoreCommentsAction",
    access: "public",
    rule: "lib/comments/queries listMoreComments: whoever may see the event; identities per lib/privacy",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/list-actions.ts",
    name: "loadMoreCommitmentsAction",
    access: "public",
    rule: "lib/pledges/queries listMoreCommitments: whoever may see the event; identities per lib/privacy",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/commit-action.ts",
    name: "commitToCampaignAction",
    access: "signed-in",
    rule: "lib/pledges/service commitToCampaign: signed in, once per campaign",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/update-actions.ts",
    name: "postUpdateAction",
    access: "creator",
    rule: "lib/access/policy loadCampaignFor update (canManageEvent): the organizer only (not admins)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/check-in/actions.ts",
    name: "checkInAction",
    access: "creator",
    rule: "lib/tickets/check-in checkIn → openDoor: the organizer (not admins), or a door helper of that one event (doorRoleOf: the invited, confirmed email); typed codes rate-limited per event",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/check-in/actions.ts",
    name: "searchAtDoorAction",
    access: "creator",
    rule: "lib/tickets/check-in searchAtDoor → openDoor (organizer or that event's door helper); a helper finds by number or code only and sees names as a member does (lib/privacy presentIdentity)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/door-actions.ts",
    name: "inviteDoorHelperAction",
    access: "creator",
    rule: "lib/tickets/door-helpers inviteDoorHelper: canManageEvent (the organizer only); rate-limited per organizer; one invitation per event and email (outbox dedupe key)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/door-actions.ts",
    name: "removeDoorHelperAction",
    access: "creator",
    rule: "lib/tickets/door-helpers removeDoorHelper: canManageEvent (the organizer only)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/deposit-actions.ts",
    name: "excuseDepositAction",
    access: "creator",
    rule: "lib/pledges/excuse excuseDeposit: canManageEvent (the organizer only, not admins); a charged deposit not checked in, until it is kept (the end plus the grace); the refund once (deposit-refund-<pledge>)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/friend-actions.ts",
    name: "inviteFriendAction",
    access: "backer",
    rule: "lib/pledges/friends inviteFriend: the holder's own standing guest seat only (slot 1..M-1 of their group); one live invitation per seat, at most M − 1; rate-limited per user; the token stored hashed",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/friend-actions.ts",
    name: "myInvitesAction",
    access: "signed-in",
    rule: "changes nothing; lib/pledges/friends myInvites: only the viewer's own invitations (the addresses they typed), empty for everyone else",
  },
  {
    kind: "action",
    file: "app/claim/[token]/actions.ts",
    name: "claimSeatAction",
    access: "signed-in",
    rule: "lib/pledges/friends claimSeat: a live invitation's random token (stored hashed), used once; under the event's lock, not the holder, not someone already committed (the live unique index); the seat's ticket re-issued",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/backer-actions.ts",
    name: "myCommitmentAction",
    access: "signed-in",
    rule: "lib/pledges/mine getMyCommitment: only the viewer's own live pledge (null for everyone else)",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/backer-actions.ts",
    name: "withdrawCommitmentAction",
    access: "backer",
    rule: "lib/pledges/withdraw withdrawCommitment: the viewer's own live pledge, under the campaign lock",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/backer-actions.ts",
    name: "changeCardAction",
    access: "backer",
    rule: "lib/pledges/withdraw changeCommitmentCard: the viewer's own live pledge; the card must be theirs",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/backer-actions.ts",
    name: "giveUpPlaceAction",
    access: "backer",
    rule: "lib/pledges/give-up giveUpPlace: the viewer's own place, after the tip, under the campaign lock",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/edit-actions.ts",
    name: "updateCampaignAction",
    access: "creator",
    rule: "lib/campaigns/edit updateCampaign: loadCampaignFor manage (canManageEvent) before the input is read",
  },
  {
    kind: "action",
    file: "app/campaign/[campaignId]/go-ahead-actions.ts",
    name: "goAheadAction",
    access: "creator",
    rule: "lib/campaigns/go-ahead goAhead: loadCampaignFor manage (the creator), under the campaign lock",
  },
  {
    kind: "action",
    file: "app/create-campaign/actions.ts",
    name: "createCampaignAction",
    access: "signed-in",
    rule: "lib/campaigns/service createCampaign",
  },
  {
    kind: "action",
    file: "app/create-campaign/actions.ts",
    name: "saveDraftAction",
    access: "signed-in",
    rule: "lib/drafts/service saveDraft: a draft id must be the viewer's own",
  },
  {
    kind: "action",
    file: "app/create-campaign/actions.ts",
    name: "deleteDraftAction",
    access: "creator",
    rule: "lib/drafts/service deleteDraft: the draft's owner only (the 'creator' here)",
  },
  {
    kind: "action",
    file: "app/payouts/actions.ts",
    name: "startPayoutOnboardingAction",
    access: "signed-in",
    rule: "lib/payouts/accounts startPayoutOnboarding: the signed-in user's own account (signed out: to sign in)",
  },
  {
    kind: "action",
    file: "app/payouts/actions.ts",
    name: "setDemoPayoutStateAction",
    access: "signed-in",
    rule: "lib/payouts/accounts setDemoAccountState: demo mode, the user's own account only",
  },
  {
    kind: "action",
    file: "app/payouts/actions.ts",
    name: "setPayoutHoldAction",
    access: "admin",
    rule: "lib/payouts/service setPayoutHold (canModerate); a reason of 1 to 500 characters",
  },
  {
    kind: "action",
    file: "app/pledges/[pledgeId]/pay/actions.ts",
    name: "payPledgeAction",
    access: "backer",
    rule: "lib/charging/service payPledgeOnSession: the pledge's owner; others get 'Commitment not found.'",
  },
  {
    kind: "action",
    file: "app/pledges/[pledgeId]/pay/actions.ts",
    name: "confirmPledgePaymentAction",
    access: "backer",
    rule: "lib/charging/service confirmPledgePayment: the pledge's owner",
  },
  {
    kind: "action",
    file: "app/profile/actions.ts",
    name: "signUpAction",
    access: "public",
    rule: "lib/auth/service signUp, limited per IP",
  },
  {
    kind: "action",
    file: "app/unsubscribe/actions.ts",
    name: "unsubscribeAction",
    access: "token",
    rule: "lib/email/unsubscribe: HMAC token of the user id",
  },
  {
    kind: "action",
    file: "app/profile/actions.ts",
    name: "changePasswordAction",
    access: "signed-in",
    rule: "lib/auth/password-reset changePassword: the viewer's own account, current password required, 5 per 15 min",
  },
  {
    kind: "action",
    file: "app/profile/card-actions.ts",
    name: "myDefaultCardAction",
    access: "signed-in",
    rule: "lib/pledges/saved-cards defaultSavedCard: the viewer's own card on file (issue 37), or null",
  },
  {
    kind: "action",
    file: "app/profile/card-actions.ts",
    name: "makeDefaultCardAction",
    access: "backer",
    rule: "lib/pledges/saved-cards makeDefaultCard: only the card's owner (a SavedCard row of the viewer), else 404",
  },
  {
    kind: "action",
    file: "app/profile/card-actions.ts",
    name: "removeSavedCardAction",
    access: "backer",
    rule: "lib/pledges/saved-cards removeSavedCard: only the card's owner; a card backing commitments needs a replacement the provider says is theirs (gateway.getCard), moved through changeCommitmentCard",
  },
  {
    kind: "action",
    file: "app/forgot-password/actions.ts",
    name: "requestPasswordResetAction",
    access: "public",
    rule: "lib/auth/password-reset requestPasswordReset: same answer for any address, limited per address and IP",
  },
  {
    kind: "action",
    file: "app/reset-password/actions.ts",
    name: "resetPasswordAction",
    access: "token",
    rule: "lib/auth/password-reset resetPassword: a random single-use token (stored hashed), one hour",
  },
  {
    kind: "action",
    file: "app/verify-email/actions.ts",
    name: "confirmEmailAction",
    access: "token",
    rule: "lib/auth/email-confirmation confirmEmail: a random single-use token (stored hashed) sent to the address; sets the password, ends every session",
  },
  {
    kind: "action",
    file: "app/verify-email/actions.ts",
    name: "resendConfirmationAction",
    access: "signed-in",
    rule: "lib/auth/email-confirmation resendEmailConfirmation: the viewer's own address, 3 an hour",
  },
];

/**
 * Every page (app/**\/page.tsx, and the generated OG image) with who may see it and the URL the
 * response-level privacy matrix (e2e/privacy-matrix.spec.ts) requests for it. registry.test.ts
 * fails when a page exists without an entry, so a new page is scanned for hidden identities
 * automatically. `path` gets the fixture's ids; null = not requested directly (the cached copies
 * under /v/, reached only through the proxy's rewrites of "/" and "/campaign/<id>", which the
 * matrix requests as visitor and member).
 */
export type PageEntry = {
  file: string;
  access: Access | "internal";
  path: ((ids: { campaignId: string; pledgeId: string }) => string) | null;
  rule: string;
};

export const PAGES: readonly PageEntry[] = [
  {
    file: "app/page.tsx",
    access: "public",
    path: () => "/?filter=all&page=1",
    rule: "home: approved events only",
  },
  {
    file: "app/[...notFound]/page.tsx",
    access: "public",
    path: () => "/no-such-page/here",
    rule: "the 404 page",
  },
  {
    file: "app/admin/page.tsx",
    access: "admin",
    path: () => "/admin",
    rule: "lib/access/viewer requireAdmin",
  },
  {
    file: "app/admin/emails/page.tsx",
    access: "admin",
    path: () => "/admin/emails",
    rule: "lib/email/queries listOutboxForAdmin (admins); confirmation links masked",
  },
  {
    file: "app/campaign/[campaignId]/(event)/page.tsx",
    access: "public",
    path: ({ campaignId }) => `/campaign/${campaignId}`,
    rule: "the event page; identities per lib/privacy",
  },
  {
    file: "app/campaign/[campaignId]/edit/page.tsx",
    access: "creator",
    path: ({ campaignId }) => `/campaign/${campaignId}/edit`,
    rule: "lib/campaigns/edit getEditView: loadCampaignFor manage; others go home with a notice",
  },
  {
    file: "app/campaign/[campaignId]/flyer/page.tsx",
    access: "public",
    path: ({ campaignId }) => `/campaign/${campaignId}/flyer`,
    rule: "lib/sharing getShareInfo",
  },
  {
    file: "app/claim/[token]/page.tsx",
    access: "token",
    path: () => "/claim/unknown-token",
    rule: "a named friend's claim link: lib/pledges/friends claimView (a visitor is sent to sign in; an unknown, used or replaced link says so and changes nothing)",
  },
  {
    file: "app/campaign/[campaignId]/ticket/page.tsx",
    access: "public",
    path: ({ campaignId }) => `/campaign/${campaignId}/ticket`,
    rule: "the printable ticket, the viewer's own only (lib/tickets/queries ticketForViewer); a visitor is sent to sign in, anyone else finds nothing",
  },
  {
    file: "app/campaign/[campaignId]/check-in/page.tsx",
    access: "creator",
    path: ({ campaignId }) => `/campaign/${campaignId}/check-in`,
    rule: "the door: lib/tickets/check-in openDoor (the organizer or a door helper of that event; everyone else is told they may not, a visitor is sent to sign in); rendered per request, no attendee listed until searched",
  },
  {
    file: "app/campaign/[campaignId]/manage/page.tsx",
    access: "creator-or-admin",
    path: ({ campaignId }) => `/campaign/${campaignId}/manage`,
    rule: "lib/pledges/queries getManageView",
  },
  {
    file: "app/campaign/[campaignId]/opengraph-image.tsx",
    access: "public",
    path: ({ campaignId }) => `/campaign/${campaignId}/opengraph-image`,
    rule: "title and counts only, for approved events",
  },
  {
    file: "app/create-campaign/page.tsx",
    access: "signed-in",
    path: () => "/create-campaign",
    rule: "the viewer's own drafts",
  },
  {
    file: "app/payouts/page.tsx",
    access: "signed-in",
    path: () => "/payouts",
    rule: "lib/payouts/queries getPayoutsView: the signed-in organizer's own events",
  },
  {
    file: "app/payouts/demo/page.tsx",
    access: "signed-in",
    path: () => "/payouts/demo?account=acct_demo_x",
    rule: "demo mode only; the user's own account (404 otherwise)",
  },
  {
    file: "app/admin/payouts/page.tsx",
    access: "admin",
    path: () => "/admin/payouts",
    rule: "canModerate; others are sent home",
  },
  {
    file: "app/pledges/[pledgeId]/pay/page.tsx",
    access: "backer",
    path: ({ pledgeId }) => `/pledges/${pledgeId}/pay`,
    rule: "lib/charging/queries getPledgeForPayment: the pledge's owner",
  },
  {
    file: "app/profile/page.tsx",
    access: "public",
    path: () => "/profile",
    rule: "the viewer's own profile, else the sign-in card",
  },
  { file: "app/roadmap/page.tsx", access: "public", path: () => "/roadmap", rule: "static" },
  {
    file: "app/unsubscribe/page.tsx",
    access: "token",
    path: () => "/unsubscribe?token=x",
    rule: "lib/email/unsubscribe",
  },
  {
    file: "app/forgot-password/page.tsx",
    access: "public",
    path: () => "/forgot-password",
    rule: "a form; lib/auth/password-reset",
  },
  {
    file: "app/reset-password/page.tsx",
    access: "token",
    path: () => "/reset-password?token=x",
    rule: "lib/auth/password-reset isValidResetToken",
  },
  {
    file: "app/verify-email/page.tsx",
    access: "token",
    path: () => "/verify-email?token=x",
    rule: "lib/auth/email-confirmation",
  },
  {
    file: "app/v/campaign/[campaignId]/[version]/page.tsx",
    access: "internal",
    path: null,
    rule: "cached event page copies (proxy rewrites only)",
  },
  {
    file: "app/v/home/[filter]/[page]/[version]/page.tsx",
    access: "internal",
    path: null,
    rule: "cached home copies (proxy rewrites only)",
  },
  {
    file: "app/v/missing-event/page.tsx",
    access: "internal",
    path: null,
    rule: "SPEC's 'Campaign not found' with a 404 (proxy rewrites only, when lib/cache/visitor-version eventPageGate hides the event)",
  },
  {
    file: "app/v/static/[page]/[version]/page.tsx",
    access: "internal",
    path: null,
    rule: "cached copies of static pages such as /roadmap (proxy rewrites only)",
  },
];

/** Roles that must be let through, per access level (for token/signature: whoever holds one). */
export function allowedRoles(access: Access): readonly Role[] {
  switch (access) {
    case "public":
    case "token":
      return ROLES;
    case "signed-in":
      return ["user", "creator", "backer", "admin"];
    case "creator":
      return ["creator"];
    case "creator-or-admin":
      return ["creator", "admin"];
    case "backer":
      return ["backer"];
    case "admin":
      return ["admin"];
    case "stripe-signature":
      return [];
  }
}

export const entryKey = (e: Pick<Entry, "file" | "name">) => `${e.file}#${e.name}`;
