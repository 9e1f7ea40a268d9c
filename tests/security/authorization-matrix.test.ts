import Stripe from "stripe";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { hashPassword } from "@/lib/auth/password";
import { unsubscribeToken } from "@/lib/email/unsubscribe";
import { confirmDemoSetup, createDemoSetupSecret } from "@/lib/payments/demo-gateway";
import { createCampaign, createPledge, createUser, createDemoPayoutAccount } from "@/tests/helpers/factories";
import { depositEvent, depositPlace } from "@/tests/pledges/deposit-places";
import {
  actAs,
  actionOutcome,
  closeFingerprintPool,
  fingerprint,
  headersMock,
  responseOutcome,
  setRequestHeaders,
  type Outcome,
} from "@/tests/security/harness";
import { allowedRoles, entryKey, REGISTRY, ROLES, type Role } from "@/tests/security/registry";
import { FUZZ_TIMEOUT_MS } from "@/tests/security/arbitraries";

const WEBHOOK_SECRET = vi.hoisted(() => {
  // read lazily by lib/env at the first webhook request, so setting it before the imports run is enough
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_matrix_test_secret";
  return process.env.STRIPE_WEBHOOK_SECRET;
});

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));
vi.mock("next/headers", () => headersMock);

// The app-level entry points, exactly as Next calls them (the session is the only thing mocked).
const routes = {
  chargeAttendees: (await import("@/app/api/charge-attendees/route")).POST,
  checkAndCharge: (await import("@/app/api/check-and-charge/route")).POST,
  createSetupIntent: (await import("@/app/api/create-setup-intent/route")).POST,
  confirmSetup: (await import("@/app/api/demo-payments/confirm-setup/route")).POST,
  health: (await import("@/app/api/health/route")).GET,
  attention: (await import("@/app/api/me/attention/route")).GET,
  ticket: (await import("@/app/api/me/tickets/[campaignId]/route")).GET,
  unsubscribe: await import("@/app/api/unsubscribe/route"),
  webhook: (await import("@/app/api/stripe/webhook/route")).POST,
  calendar: (await import("@/app/campaign/[campaignId]/calendar.ics/route")).GET,
  csv: (await import("@/app/campaign/[campaignId]/commitments.csv/route")).GET,
  payoutsCsv: (await import("@/app/payouts/payouts.csv/route")).GET,
  cover: await import("@/app/api/campaigns/[campaignId]/cover/route"),
  commit: (await import("@/app/api/campaigns/[campaignId]/commit/route")).POST,
  coverImage: (await import("@/app/images/covers/[imageId]/[size]/route")).GET,
};

/** A small real PNG (a cover upload the creator may make). */
async function pngFile(): Promise<Blob> {
  const sharp = (await import("sharp")).default;
  const bytes = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#4f46e5" } })
    .png()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: "image/png" });
}
const coverRequest = async (id: string) => {
  const form = new FormData();
  form.set("file", await pngFile(), "cover.png");
  return new Request(`http://localhost:3000/api/campaigns/${id}/cover`, { method: "POST", body: form });
};
const {
  admin,
  comments,
  commit,
  backer,
  lists,
  cancel,
  goAhead,
  updates,
  checkInActions,
  door,
  deposits,
  friends,
  claim,
  edit,
  create,
  pay,
  payouts,
  profile,
  cards,
  unsubscribe,
  verifyEmail,
  forgotPassword,
  resetPassword,
} = await import("@/tests/security/actions");
const { queueEmailConfirmation } = await import("@/lib/auth/email-confirmation");
const { issueTickets } = await import("@/lib/tickets/service");
const { authOptions } = await import("@/lib/auth/options");
const { resetLinkFor } = await import("@/lib/auth/password-reset");
const { AuthHandler } = await import("@/tests/helpers/next-auth-core");

afterAll(closeFingerprintPool);

/** The messages with which entry points say "not for you" (401/403/404 in route handlers). */
const DENIALS = [
  "Please sign in first.",
  "Please sign in to comment.",
  "Please sign in to commit to this event",
  "Access denied. Admin privileges required.",
  "Only the organizer or an admin can delete comments.",
  "Only the organizer can post updates.",
  "Only the organizer can cancel this event.",
  "Draft not found",
  "Commitment not found.",
  "Campaign not found or you don't have permission to manage it",
  "You have no commitment to this event.",
  "You don't hold a place at this event.",
  "Only the organizer and the door helpers of this event can check people in.",
  "Only the organizer can invite door helpers.",
  "Only the organizer can excuse a deposit.",
  "That card is not one of your saved cards.",
] as const;

type People = Record<Exclude<Role, "visitor">, Awaited<ReturnType<typeof createUser>>>;
type Fixture = { people: People } & Record<string, unknown>;
type Scenario<F extends Fixture = Fixture> = {
  setup: (people: People) => Promise<F>;
  call: (f: F, role: Role) => Promise<Outcome>;
  /** for an allowed role, the expected outcome when it is not plain success */
  allowedOutcome?: (role: Role) => Partial<Outcome>;
};

let n = 0;
const PASSWORD = "matrix pass 123";
async function people(): Promise<People> {
  const passwordHash = await passwordHashOnce();
  return {
    user: await createUser({ passwordHash }),
    creator: await createUser({ passwordHash }),
    backer: await createUser({ passwordHash }),
    admin: await createUser({ isAdmin: true, passwordHash }),
  };
}
let hash: string | undefined;
const passwordHashOnce = async () => (hash ??= await hashPassword(PASSWORD));

const post = (url: string, body: unknown) =>
  new Request(`http://localhost:3000${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const get = (url: string) => new Request(`http://localhost:3000${url}`);
const params = (campaignId: string) => ({ params: Promise.resolve({ campaignId }) });
const who = (p: People, role: Role) => (role === "visitor" ? null : p[role]);

/** A free, approved, collecting event by `creator`, with `backer` committed. */
async function eventWithBacker(p: People, extra: Parameters<typeof createCampaign>[0] = {}) {
  const campaign = await createCampaign({ creatorId: p.creator.id, goal: 10, ...extra });
  const pledge = await createPledge(campaign.id, p.backer.id);
  return { people: p, campaign, pledge };
}

/** A confirmed paid event whose backer holds a charged place with its door ticket (issue 36). */
async function ticketedEvent(p: People) {
  const f = await eventWithBacker(p, { status: "charged", goal: 1, ticketPriceCents: 1000 });
  await db.pledge.update({
    where: { id: f.pledge.id },
    data: {
      charged: true,
      chargeStatus: "succeeded",
      chargeType: "paid",
      chargedAt: new Date(),
      memberSince: new Date(),
    },
  });
  await issueTickets(db, f.campaign.id);
  const { code } = await db.ticket.findUniqueOrThrow({ where: { pledgeId: f.pledge.id } });
  return { ...f, code };
}

/** Issue 37: a free event taking groups, where `backer` holds a group of 2 (one guest seat). */
async function groupEvent(p: People) {
  const campaign = await createCampaign({ creatorId: p.creator.id, goal: 10, maxSeats: 3 });
  const { commitToCampaign } = await import("@/lib/pledges/service");
  const b = p.backer;
  await commitToCampaign(
    { id: b.id, email: b.email, name: null, isAdmin: false },
    { campaignId: campaign.id, seats: 2 },
  );
  return { people: p, campaign };
}

async function demoCard(userId: string) {
  const r = await confirmDemoSetup(userId, {
    clientSecret: createDemoSetupSecret(userId),
    cardNumber: "4242424242424242",
    expMonth: "12",
    expYear: "2034",
    cvc: "123",
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.setupIntent.payment_method;
}

/** A demo card the person kept on file (issue 37). */
async function savedDemoCard(userId: string) {
  const paymentMethodId = await demoCard(userId);
  await db.savedCard.create({
    data: {
      userId,
      paymentMethodId,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
      isDefault: true,
    },
  });
  return paymentMethodId;
}

/** Runs a server action as `role` and classifies the result (a Next redirect counts as success). */
async function action(
  p: People,
  role: Role,
  fn: () => Promise<{ ok: boolean; error?: string } | void>,
): Promise<Outcome> {
  actAs(who(p, role));
  try {
    return actionOutcome(await fn(), DENIALS);
  } catch (err) {
    const digest = String((err as { digest?: string }).digest ?? "");
    if (digest.startsWith("NEXT_REDIRECT")) return { kind: "ok", message: digest.split(";")[2] };
    throw err;
  }
}
async function route(p: People, role: Role, fn: () => Promise<Response>): Promise<Outcome> {
  actAs(who(p, role));
  return responseOutcome(await fn());
}

// Each scenario builds its own fixture shape; the record only needs setup and call to agree.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const SCENARIOS: Record<string, Scenario<any>> = {
  "app/api/auth/[...nextauth]/route.ts#GET": {
    setup: async (p) => ({ people: p }),
    call: async () => {
      const res = await AuthHandler({
        req: { method: "GET", action: "providers", headers: {}, cookies: {}, query: {} },
        options: authOptions(),
      });
      return { kind: res.status && res.status >= 400 ? "error" : "ok", status: res.status };
    },
  },
  "app/api/auth/[...nextauth]/route.ts#POST": {
    // signing in is for everyone: a visitor signs in to a password account and gets a session cookie
    setup: async (p) => ({
      people: p,
      account: await createUser({ passwordHash: await passwordHashOnce() }),
    }),
    call: async (f, role) => {
      const email = role === "visitor" ? (f.account as { email: string }).email : f.people[role].email;
      const options = authOptions();
      const csrf = await AuthHandler({
        req: { method: "GET", action: "csrf", headers: {}, cookies: {}, query: {} },
        options,
      });
      const cookie = csrf.cookies!.find((c) => c.name.includes("csrf-token")) as {
        name: string;
        value: string;
      };
      const res = await AuthHandler({
        req: {
          method: "POST",
          action: "callback",
          providerId: "credentials",
          headers: {},
          cookies: { [cookie.name]: cookie.value },
          query: {},
          body: {
            csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
            email,
            password: PASSWORD,
            json: "true",
          },
        },
        options,
      });
      return {
        kind: res.cookies?.some((c) => c.name.endsWith("session-token")) ? "ok" : "refused",
        status: res.status,
      };
    },
  },
  "app/api/charge-attendees/route.ts#POST": {
    setup: async (p) => eventWithBacker(p, { status: "charged" }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.chargeAttendees(post("/api/charge-attendees", { campaignId: f.campaign.id })),
      ),
  },
  "app/api/check-and-charge/route.ts#POST": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.checkAndCharge(
          post("/api/check-and-charge", { campaignId: f.campaign.id, campaignGoal: 1, pledges: [] }),
        ),
      ),
  },
  "app/api/create-setup-intent/route.ts#POST": {
    setup: async (p) => ({ people: p }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.createSetupIntent(post("/api/create-setup-intent", { email: f.people.backer.email })),
      ),
  },
  "app/api/demo-payments/confirm-setup/route.ts#POST": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => {
      // each signed-in role confirms its own secret; the visitor tries the backer's
      const owner = role === "visitor" ? f.people.backer : f.people[role];
      const body = {
        clientSecret: createDemoSetupSecret(owner.id),
        cardNumber: "4242 4242 4242 4242",
        expMonth: "12",
        expYear: "34",
        cvc: "123",
      };
      return route(f.people, role, () => routes.confirmSetup(post("/api/demo-payments/confirm-setup", body)));
    },
  },
  "app/api/health/route.ts#GET": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => route(f.people, role, () => routes.health()),
  },
  "app/api/me/attention/route.ts#GET": {
    // each role asks about itself: a visitor gets an empty list
    setup: async (p) => ({ people: p }),
    call: (f, role) => route(f.people, role, () => routes.attention()),
  },
  "app/api/me/tickets/[campaignId]/route.ts#GET": {
    // each role asks for its own ticket at a confirmed event: only the backer has one (tests/tickets)
    setup: (p) => eventWithBacker(p, { status: "charged" }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.ticket(get(`/api/me/tickets/${f.campaign.id}`), params(f.campaign.id)),
      ),
  },
  "app/api/unsubscribe/route.ts#POST": {
    // the token is the authority, whoever holds it (a mail provider posts without a session)
    setup: async (p) => ({ people: p }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.unsubscribe.POST(
          new Request(
            `http://localhost:3000/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(f.people.backer.id))}`,
            {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: "List-Unsubscribe=One-Click",
            },
          ),
        ),
      ),
  },
  "app/api/unsubscribe/route.ts#GET": {
    setup: async (p) => ({ people: p }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.unsubscribe.GET(
          get(`/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(f.people.backer.id))}`),
        ),
      ),
  },
  "app/api/stripe/webhook/route.ts#POST": {
    // a session is worth nothing here: without a valid signature every caller is refused
    setup: async (p) => ({ people: p }),
    call: async (f, role) => {
      actAs(who(f.people, role));
      const res = await routes.webhook(
        new Request("http://localhost:3000/api/stripe/webhook", {
          method: "POST",
          body: JSON.stringify({ id: "evt_forged", type: "payment_intent.succeeded", data: { object: {} } }),
          headers: { "stripe-signature": "t=1,v1=forged" },
        }),
      );
      const outcome = await responseOutcome(res);
      return res.status === 400 ? { ...outcome, kind: "denied" } : outcome;
    },
  },
  "app/campaign/[campaignId]/calendar.ics/route.ts#GET": {
    // an event with a date: without one there is no calendar entry for anyone
    setup: (p) => eventWithBacker(p, { startsAt: new Date(Date.now() + 10 * 24 * 3600_000) }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.calendar(get(`/campaign/${f.campaign.id}/calendar.ics`), params(f.campaign.id)),
      ),
  },
  "app/api/campaigns/[campaignId]/cover/route.ts#POST": {
    setup: (p) => eventWithBacker(p),
    call: async (f, role) => {
      const req = await coverRequest(f.campaign.id);
      return route(f.people, role, () => routes.cover.POST(req, params(f.campaign.id)));
    },
  },
  "app/api/campaigns/[campaignId]/cover/route.ts#DELETE": {
    setup: async (p) => {
      const f = await eventWithBacker(p);
      await db.coverImage.create({
        data: {
          campaignId: f.campaign.id,
          uploaderId: p.creator.id,
          etag: "e",
          width: 1,
          height: 1,
          small: new Uint8Array([1]),
          medium: new Uint8Array([1]),
          large: new Uint8Array([1]),
        },
      });
      return f;
    },
    call: (f, role) =>
      route(f.people, role, () =>
        routes.cover.DELETE(
          new Request(`http://localhost:3000/api/campaigns/${f.campaign.id}/cover`, { method: "DELETE" }),
          params(f.campaign.id),
        ),
      ),
  },
  "app/images/covers/[imageId]/[size]/route.ts#GET": {
    setup: async (p) => {
      const f = await eventWithBacker(p);
      const image = await db.coverImage.create({
        data: {
          campaignId: f.campaign.id,
          uploaderId: p.creator.id,
          etag: "e",
          width: 1,
          height: 1,
          small: new Uint8Array([1]),
          medium: new Uint8Array([1]),
          large: new Uint8Array([1]),
        },
      });
      return { ...f, imageId: image.id };
    },
    call: (f, role) =>
      route(f.people, role, () =>
        routes.coverImage(get(`/images/covers/${f.imageId}/small`), {
          params: Promise.resolve({ imageId: f.imageId, size: "small" }),
        }),
      ),
  },
  "app/campaign/[campaignId]/commitments.csv/route.ts#GET": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.csv(get(`/campaign/${f.campaign.id}/commitments.csv`), params(f.campaign.id)),
      ),
  },
  "app/admin/actions.ts#setApprovalStatusAction": {
    setup: (p) => eventWithBacker(p, { approvalStatus: "pending" }),
    call: (f, role) => action(f.people, role, () => admin.setApprovalStatusAction(f.campaign.id, "approved")),
  },
  "app/payouts/payouts.csv/route.ts#GET": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) => route(f.people, role, () => routes.payoutsCsv(get("/payouts/payouts.csv"))),
  },
  // A form post that redirects: to sign in when signed out (the denial), else onward.
  "app/payouts/actions.ts#startPayoutOnboardingAction": {
    setup: async (p) => ({ people: p }),
    call: async (f, role) => {
      const o = await action(f.people, role, () => payouts.startPayoutOnboardingAction());
      return o.message?.startsWith("/profile") ? { kind: "denied", message: o.message } : o;
    },
  },
  "app/payouts/actions.ts#setDemoPayoutStateAction": {
    setup: async (p) => ({ people: p }),
    call: async (f, role) => {
      const user = who(f.people, role);
      const form = new FormData();
      form.set("outcome", "ready");
      form.set("account", "acct_demo_none");
      if (user) {
        const row = await createDemoPayoutAccount(user.id, "pending");
        form.set("account", row.accountId);
      }
      const o = await action(f.people, role, () => payouts.setDemoPayoutStateAction(form));
      return o.message?.startsWith("/profile") ? { kind: "denied", message: o.message } : o;
    },
  },
  "app/payouts/actions.ts#setPayoutHoldAction": {
    setup: (p) => eventWithBacker(p, { status: "charged", ticketPriceCents: 900 }),
    call: (f, role) =>
      action(f.people, role, () =>
        payouts.setPayoutHoldAction({ campaignId: f.campaign.id, reason: "Chargeback under review" }),
      ),
  },
  "app/admin/actions.ts#deleteTestEventsAction": {
    setup: (p) => eventWithBacker(p, { isTest: true }),
    call: (f, role) => action(f.people, role, () => admin.deleteTestEventsAction()),
  },
  "app/campaign/[campaignId]/comment-actions.ts#postCommentAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () =>
        comments.postCommentAction({ campaignId: f.campaign.id, text: `Hello ${++n}` }),
      ),
  },
  "app/campaign/[campaignId]/comment-actions.ts#deleteCommentAction": {
    setup: async (p) => {
      const f = await eventWithBacker(p);
      const comment = await db.comment.create({
        data: { campaignId: f.campaign.id, authorId: p.user.id, text: "A comment" },
      });
      return { ...f, comment };
    },
    call: (f, role) =>
      action(f.people, role, () => comments.deleteCommentAction({ commentId: f.comment.id })),
  },
  "app/campaign/[campaignId]/list-actions.ts#loadMoreCommentsAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () => lists.loadMoreCommentsAction({ campaignId: f.campaign.id, offset: 0 })),
  },
  "app/campaign/[campaignId]/list-actions.ts#loadMoreCommitmentsAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () => lists.loadMoreCommitmentsAction({ campaignId: f.campaign.id, offset: 0 })),
  },
  "app/api/campaigns/[campaignId]/commit/route.ts#POST": {
    // as the server action below: every signed-in role can commit to an event it has no pledge on
    setup: async (p) => ({
      people: p,
      campaign: await createCampaign({ creatorId: p.creator.id, goal: 10 }),
      other: await eventWithBacker(p),
    }),
    call: (f, role) =>
      route(f.people, role, () =>
        routes.commit(post(`/api/campaigns/${f.campaign.id}/commit`, {}), params(f.campaign.id)),
      ),
  },
  "app/campaign/[campaignId]/commit-action.ts#commitToCampaignAction": {
    // the backer's pledge is on another event, so every signed-in role can commit to this one
    setup: async (p) => ({
      people: p,
      campaign: await createCampaign({ creatorId: p.creator.id, goal: 10 }),
      other: await eventWithBacker(p),
    }),
    call: (f, role) =>
      action(f.people, role, () => commit.commitToCampaignAction({ campaignId: f.campaign.id })),
  },
  "app/campaign/[campaignId]/backer-actions.ts#myCommitmentAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) => action(f.people, role, () => backer.myCommitmentAction({ campaignId: f.campaign.id })),
  },
  "app/campaign/[campaignId]/backer-actions.ts#withdrawCommitmentAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () => backer.withdrawCommitmentAction({ campaignId: f.campaign.id })),
  },
  "app/campaign/[campaignId]/backer-actions.ts#changeCardAction": {
    setup: async (p) => {
      const campaign = await createCampaign({ creatorId: p.creator.id, goal: 10, ticketPriceCents: 800 });
      await createPledge(campaign.id, p.backer.id, {
        paymentMethodId: await demoCard(p.backer.id),
        amountCents: 800,
      });
      return { people: p, campaign, card: await demoCard(p.backer.id) };
    },
    call: (f, role) =>
      action(f.people, role, () =>
        backer.changeCardAction({ campaignId: f.campaign.id, paymentMethodId: f.card }),
      ),
  },
  "app/campaign/[campaignId]/backer-actions.ts#giveUpPlaceAction": {
    // a full, confirmed free event: the backer holds a place and someone waits for one
    setup: async (p) => {
      const f = await eventWithBacker(p, { goal: 1, capacity: 1, status: "charged" });
      const waiter = await createUser();
      await db.pledge.create({
        data: { campaignId: f.campaign.id, userId: waiter.id, contributor: "W", waitlistedAt: new Date() },
      });
      await db.campaign.update({
        where: { id: f.campaign.id },
        data: { committedCount: 1, pledgeCount: 1, waitlistCount: 1 },
      });
      return f;
    },
    call: (f, role) => action(f.people, role, () => backer.giveUpPlaceAction({ campaignId: f.campaign.id })),
  },
  "app/campaign/[campaignId]/go-ahead-actions.ts#goAheadAction": {
    // an opted-in free event with 4 of its 5 in: 80% of the goal
    setup: async (p) => {
      const f = await eventWithBacker(p, { goal: 5 });
      for (let i = 0; i < 3; i++) await createPledge(f.campaign.id, (await createUser()).id);
      await db.campaign.update({
        where: { id: f.campaign.id },
        data: { earlyGoAhead: true, committedCount: 4, pledgeCount: 4 },
      });
      return f;
    },
    call: (f, role) =>
      action(f.people, role, () => goAhead.goAheadAction({ campaignId: f.campaign.id, members: 4 })),
  },
  "app/campaign/[campaignId]/cancel-actions.ts#cancelCampaignAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () => cancel.cancelCampaignAction({ campaignId: f.campaign.id })),
  },
  "app/campaign/[campaignId]/update-actions.ts#postUpdateAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () =>
        updates.postUpdateAction({ campaignId: f.campaign.id, text: "Doors open at 7." }),
      ),
  },
  "app/campaign/[campaignId]/check-in/actions.ts#checkInAction": {
    setup: (p) => ticketedEvent(p),
    call: (f, role) =>
      action(f.people, role, () => checkInActions.checkInAction(f.campaign.id, { code: f.code })),
    allowedOutcome: () => ({ kind: "ok" }),
  },
  "app/campaign/[campaignId]/check-in/actions.ts#searchAtDoorAction": {
    setup: (p) => ticketedEvent(p),
    call: (f, role) => action(f.people, role, () => checkInActions.searchAtDoorAction(f.campaign.id, "1")),
  },
  "app/campaign/[campaignId]/door-actions.ts#inviteDoorHelperAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () =>
        door.inviteDoorHelperAction({ campaignId: f.campaign.id, email: "door@example.test" }),
      ),
  },
  "app/campaign/[campaignId]/door-actions.ts#removeDoorHelperAction": {
    setup: async (p) => {
      const f = await eventWithBacker(p);
      await db.doorHelper.create({ data: { campaignId: f.campaign.id, email: "door@example.test" } });
      return f;
    },
    call: (f, role) =>
      action(f.people, role, () =>
        door.removeDoorHelperAction({ campaignId: f.campaign.id, email: "door@example.test" }),
      ),
  },
  "app/campaign/[campaignId]/friend-actions.ts#inviteFriendAction": {
    // issue 37: the backer holds a group of 2 (a guest seat to name a friend for)
    setup: async (p) => {
      const f = await groupEvent(p);
      return f;
    },
    call: (f, role) =>
      action(f.people, role, () =>
        friends.inviteFriendAction({ campaignId: f.campaign.id, guestSlot: 1, email: "friend@example.test" }),
      ),
  },
  "app/campaign/[campaignId]/friend-actions.ts#myInvitesAction": {
    setup: (p) => groupEvent(p),
    call: (f, role) => action(f.people, role, () => friends.myInvitesAction({ campaignId: f.campaign.id })),
  },
  "app/claim/[token]/actions.ts#claimSeatAction": {
    // a holder (none of the roles) named a friend: any signed-in person holding the link claims it
    setup: async (p) => {
      const campaign = await createCampaign({ creatorId: p.creator.id, goal: 10, maxSeats: 3 });
      const holder = await createUser();
      const { commitToCampaign } = await import("@/lib/pledges/service");
      const { inviteFriend } = await import("@/lib/pledges/friends");
      const asHolder = { id: holder.id, email: holder.email, name: null, isAdmin: false };
      await commitToCampaign(asHolder, { campaignId: campaign.id, seats: 2 });
      await inviteFriend(asHolder, { campaignId: campaign.id, guestSlot: 1, email: "friend@example.test" });
      const mail = await db.emailOutbox.findFirstOrThrow({
        where: { toEmail: "friend@example.test", subject: { startsWith: "A seat for you" } },
        orderBy: { createdAt: "desc" },
        select: { text: true },
      });
      return { people: p, campaign, token: /\/claim\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]! };
    },
    call: (f, role) => action(f.people, role, () => claim.claimSeatAction({ token: f.token })),
  },
  "app/campaign/[campaignId]/deposit-actions.ts#excuseDepositAction": {
    // issue 36: the backer's $10 deposit is held, not checked in; the signed-in user organizes another event
    setup: async (p) => {
      const c = await depositEvent({ creatorId: p.creator.id });
      await createCampaign({ creatorId: p.user.id });
      const pledge = await depositPlace(c.id, p.backer.id);
      return { people: p, campaign: c, pledge };
    },
    call: (f, role) => action(f.people, role, () => deposits.excuseDepositAction(f.pledge.id)),
  },
  "app/campaign/[campaignId]/edit-actions.ts#updateCampaignAction": {
    setup: (p) => eventWithBacker(p),
    call: (f, role) =>
      action(f.people, role, () =>
        edit.updateCampaignAction(f.campaign.id, {
          title: f.campaign.title,
          description: f.campaign.description,
          goal: String(f.campaign.goal),
          ticketPrice: "0",
          timeZone: "UTC",
          venue: "A new hall",
        }),
      ),
  },
  "app/create-campaign/actions.ts#createCampaignAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) =>
      action(f.people, role, () =>
        create.createCampaignAction({
          title: "Matrix meetup",
          description: "A description long enough for the form.",
          goal: "5",
          deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          ticketPrice: "",
        }),
      ),
  },
  "app/create-campaign/actions.ts#saveDraftAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => action(f.people, role, () => create.saveDraftAction({ title: "Half an idea" })),
  },
  "app/create-campaign/actions.ts#deleteDraftAction": {
    setup: async (p) => ({
      people: p,
      draft: await db.campaignDraft.create({ data: { creatorId: p.creator.id, title: "Creator's draft" } }),
    }),
    call: (f, role) => action(f.people, role, () => create.deleteDraftAction(f.draft.id)),
  },
  "app/pledges/[pledgeId]/pay/actions.ts#payPledgeAction": {
    setup: async (p) => {
      const f = await eventWithBacker(p, { ticketPriceCents: 1500, status: "charged" });
      const card = await demoCard(p.backer.id);
      await db.pledge.update({
        where: { id: f.pledge.id },
        data: { chargeStatus: "failed", chargeAttempts: 1, paymentMethodId: card },
      });
      return { ...f, card };
    },
    call: (f, role) =>
      action(f.people, role, () => pay.payPledgeAction({ pledgeId: f.pledge.id, paymentMethodId: f.card })),
  },
  "app/pledges/[pledgeId]/pay/actions.ts#confirmPledgePaymentAction": {
    setup: async (p) => {
      const f = await eventWithBacker(p, { ticketPriceCents: 1500, status: "charged" });
      await db.pledge.update({
        where: { id: f.pledge.id },
        data: { chargeStatus: "failed", chargeAttempts: 1 },
      });
      return f;
    },
    call: (f, role) =>
      action(f.people, role, () => pay.confirmPledgePaymentAction({ pledgeId: f.pledge.id })),
    // the owner passes the gate and reaches the state check (nothing is awaiting authentication)
    allowedOutcome: () => ({ kind: "refused", message: "There is no payment waiting for authentication." }),
  },
  "app/profile/actions.ts#signUpAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => {
      setRequestHeaders({ "x-pactnexus-client-ip": `203.0.113.${++n % 250}` });
      return action(f.people, role, () =>
        profile.signUpAction({ email: `new-${role}-${++n}@example.test`, password: "brand new pass 1" }),
      );
    },
  },
  "app/verify-email/actions.ts#confirmEmailAction": {
    setup: async (p) => ({
      people: p,
      token: await db.$transaction((tx) => queueEmailConfirmation(tx, p.backer)),
    }),
    // the person confirming sets the password (issue 31 item 3)
    call: (f, role) =>
      action(f.people, role, () =>
        verifyEmail.confirmEmailAction({
          token: f.token,
          password: "brand new pass 4",
          passwordConfirm: "brand new pass 4",
        }),
      ),
  },
  "app/profile/actions.ts#changePasswordAction": {
    // every signed-in role changes its own password (each person has the same old one)
    setup: async (p) => {
      const passwordHash = await hashPassword("old password 1");
      await db.user.updateMany({
        where: { id: { in: Object.values(p).map((u) => u.id) } },
        data: { passwordHash },
      });
      return { people: p };
    },
    call: (f, role) =>
      action(f.people, role, () =>
        profile.changePasswordAction({ currentPassword: "old password 1", password: "brand new pass 2" }),
      ),
  },
  "app/profile/card-actions.ts#myDefaultCardAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => action(f.people, role, () => cards.myDefaultCardAction()),
  },
  "app/profile/card-actions.ts#makeDefaultCardAction": {
    setup: async (p) => ({ people: p, card: await savedDemoCard(p.backer.id) }),
    call: (f, role) => action(f.people, role, () => cards.makeDefaultCardAction({ paymentMethodId: f.card })),
  },
  "app/profile/card-actions.ts#removeSavedCardAction": {
    setup: async (p) => ({ people: p, card: await savedDemoCard(p.backer.id) }),
    call: (f, role) => action(f.people, role, () => cards.removeSavedCardAction({ paymentMethodId: f.card })),
  },
  "app/forgot-password/actions.ts#requestPasswordResetAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) =>
      action(f.people, role, () =>
        forgotPassword.requestPasswordResetAction({ email: f.people.backer.email }),
      ),
  },
  "app/reset-password/actions.ts#resetPasswordAction": {
    setup: async (p) => {
      await db.user.update({
        where: { id: p.backer.id },
        data: { passwordHash: await hashPassword("old password 1") },
      });
      const link = await resetLinkFor(p.backer.email);
      return { people: p, token: new URL(link).searchParams.get("token")! };
    },
    call: (f, role) =>
      action(f.people, role, () =>
        resetPassword.resetPasswordAction({ token: f.token, password: "brand new pass 3" }),
      ),
  },
  "app/verify-email/actions.ts#resendConfirmationAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => action(f.people, role, () => verifyEmail.resendConfirmationAction()),
  },
  "app/unsubscribe/actions.ts#unsubscribeAction": {
    setup: async (p) => ({ people: p }),
    call: (f, role) => {
      const form = new FormData();
      form.set("token", unsubscribeToken(f.people.backer.id));
      return action(f.people, role, () => unsubscribe.unsubscribeAction(form));
    },
  },
};

describe("authorization matrix: every entry point as visitor, signed-in user, creator, backer and admin", () => {
  it("has a scenario for every registry entry", () => {
    expect(REGISTRY.map(entryKey).filter((k) => !SCENARIOS[k])).toEqual([]);
  });

  for (const entry of REGISTRY) {
    const key = entryKey(entry);
    const scenario = SCENARIOS[key];
    if (!scenario) continue;
    const allowed = allowedRoles(entry.access);
    it(
      `${entry.kind} ${key} (${entry.access}): allows ${allowed.join(", ") || "no session role"}; denies the rest and changes nothing`,
      async () => {
        const rows: string[] = [];
        for (const role of ROLES) {
          const f = await scenario.setup(await people());
          const before = await fingerprint();
          const outcome = await scenario.call(f, role);
          const after = await fingerprint();
          rows.push(
            `${role}: ${outcome.kind}${outcome.status ? ` ${outcome.status}` : ""}${outcome.message ? ` (${outcome.message})` : ""}`,
          );
          if (allowed.includes(role)) {
            expect(
              outcome,
              `${key} as ${role} must be allowed; got ${JSON.stringify(outcome)}`,
            ).toMatchObject(scenario.allowedOutcome?.(role) ?? { kind: "ok" });
          } else {
            expect(outcome.kind, `${key} as ${role} must be denied; got ${JSON.stringify(outcome)}`).toBe(
              "denied",
            );
            expect(after, `${key} as ${role} was denied but changed the database`).toEqual(before);
          }
        }
        expect(rows).toHaveLength(ROLES.length);
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it("the webhook accepts a correctly signed event whatever the session", async () => {
    const p = await people();
    actAs(p.user);
    const payload = JSON.stringify({
      id: `evt_matrix_${Date.now()}`,
      object: "event",
      type: "customer.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "cus_x", object: "customer" } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET! });
    const res = await routes.webhook(
      new Request("http://localhost:3000/api/stripe/webhook", {
        method: "POST",
        body: payload,
        headers: { "stripe-signature": header },
      }),
    );
    expect(res.status).toBe(200);
  });

  it("a forged unsubscribe token changes nothing; a pay action with someone else's card is refused", async () => {
    const p = await people();
    const form = new FormData();
    form.set("token", `${p.backer.id}.forged-signature`);
    const before = await fingerprint();
    expect(await action(p, "visitor", () => unsubscribe.unsubscribeAction(form))).toMatchObject({
      kind: "ok",
      message: "/unsubscribe?invalid=1",
    });
    expect(await fingerprint()).toEqual(before);

    const f = await eventWithBacker(p, { ticketPriceCents: 1500, status: "charged" });
    await db.pledge.update({
      where: { id: f.pledge.id },
      data: { chargeStatus: "failed", chargeAttempts: 1 },
    });
    const strangersCard = await demoCard(p.user.id);
    const before2 = await fingerprint();
    const r = await action(p, "backer", () =>
      pay.payPledgeAction({ pledgeId: f.pledge.id, paymentMethodId: strangersCard }),
    );
    expect(r).toMatchObject({
      kind: "refused",
      message: "That payment method is not one of your saved cards.",
    });
    expect(await fingerprint()).toEqual(before2);
  });
});
