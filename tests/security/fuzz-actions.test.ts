import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { unsubscribeToken } from "@/lib/email/unsubscribe";
import { actAs, closeFingerprintPool, headersMock, setRequestHeaders } from "@/tests/security/harness";
import { FUZZ_TIMEOUT_MS, nastyInput, nastyString, nastyValue, NUM_RUNS } from "@/tests/security/arbitraries";
import { checkActionResult, fuzzFixture, writeGuard, type FuzzFixture } from "@/tests/security/fuzz-fixture";
import { entryKey, REGISTRY } from "@/tests/security/registry";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));
vi.mock("next/headers", () => headersMock);

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

let f: FuzzFixture;
beforeAll(async () => {
  f = await fuzzFixture();
  setRequestHeaders({});
});
afterAll(closeFingerprintPool);

type Target = {
  /** the action takes no input: extra arguments are ignored, so nothing is expected to be refused */
  ignoresInput?: boolean;
  as: (f: FuzzFixture) => { id: string; email: string } | null;
  input: (f: FuzzFixture) => fc.Arbitrary<unknown[]>;
  call: (...args: unknown[]) => Promise<unknown>;
};

const one = (a: fc.Arbitrary<unknown>) => a.map((v) => [v]);
const FORM_KEYS = [
  "title",
  "description",
  "logisticalDetails",
  "goal",
  "deadline",
  "ticketPrice",
  "pactType",
  "attendeesAnonymous",
  "identityRevelationType",
  "refundBonusEnabled",
  "refundBonusPercentage",
  "isTest",
  "paymentType",
  "paymentMethod",
  "startsAt",
  "endsAt",
  "timeZone",
  "venue",
  "address",
  "onlineUrl",
  "area",
  "addressPrivate",
  "capacity",
  "earlyGoAhead",
];

/** Each action, called as the role that gets furthest into it, with hostile arguments. */
const TARGETS: Record<string, Target> = {
  "app/admin/actions.ts#setApprovalStatusAction": {
    as: (f) => f.admin,
    input: (f) => fc.tuple(nastyValue(f.known), nastyValue(f.known), nastyValue(f.known)),
    call: (a, b, c) => admin.setApprovalStatusAction(a as string, b as "approved", c as string),
  },
  "app/admin/actions.ts#deleteTestEventsAction": {
    ignoresInput: true,
    as: (f) => f.admin,
    input: (f) => fc.array(nastyValue(f.known), { maxLength: 2 }),
    call: (...args) => (admin.deleteTestEventsAction as (...a: unknown[]) => Promise<unknown>)(...args),
  },
  "app/campaign/[campaignId]/comment-actions.ts#postCommentAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "text"], f.known)),
    call: (i) => comments.postCommentAction(i as never),
  },
  "app/campaign/[campaignId]/comment-actions.ts#deleteCommentAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyInput(["commentId"], f.known)),
    call: (i) => comments.deleteCommentAction(i as never),
  },
  "app/campaign/[campaignId]/list-actions.ts#loadMoreCommentsAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "offset"], f.known)),
    call: (i) => lists.loadMoreCommentsAction(i),
  },
  "app/campaign/[campaignId]/list-actions.ts#loadMoreCommitmentsAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "offset"], f.known)),
    call: (i) => lists.loadMoreCommitmentsAction(i),
  },
  "app/campaign/[campaignId]/commit-action.ts#commitToCampaignAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "paymentMethodId", "amount", "minPeople"], f.known)),
    call: (i) => commit.commitToCampaignAction(i),
  },
  "app/campaign/[campaignId]/backer-actions.ts#myCommitmentAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId"], f.known)),
    call: (i) => backer.myCommitmentAction(i),
  },
  "app/campaign/[campaignId]/backer-actions.ts#withdrawCommitmentAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId"], f.known)),
    call: (i) => backer.withdrawCommitmentAction(i),
  },
  "app/campaign/[campaignId]/backer-actions.ts#changeCardAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "paymentMethodId"], f.known)),
    call: (i) => backer.changeCardAction(i),
  },
  "app/campaign/[campaignId]/backer-actions.ts#giveUpPlaceAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId"], f.known)),
    call: (i) => backer.giveUpPlaceAction(i),
  },
  "app/campaign/[campaignId]/go-ahead-actions.ts#goAheadAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyInput(["campaignId", "members"], f.known)),
    call: (i) => goAhead.goAheadAction(i),
  },
  "app/campaign/[campaignId]/cancel-actions.ts#cancelCampaignAction": {
    as: (f) => f.creator,
    input: (f) =>
      one(
        nastyInput(
          ["campaignId"],
          f.known.filter((k) => k !== f.paid.id),
        ),
      ),
    call: (i) => cancel.cancelCampaignAction(i as never),
  },
  "app/campaign/[campaignId]/update-actions.ts#postUpdateAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyInput(["campaignId", "text"], f.known)),
    call: (i) => updates.postUpdateAction(i as never),
  },
  "app/campaign/[campaignId]/check-in/actions.ts#checkInAction": {
    as: (f) => f.creator,
    input: (f) => fc.tuple(nastyValue(f.known), nastyInput(["token", "code", "number"], f.known)),
    call: (id, i) => checkInActions.checkInAction(id as never, i),
  },
  "app/campaign/[campaignId]/check-in/actions.ts#searchAtDoorAction": {
    as: (f) => f.creator,
    input: (f) => fc.tuple(nastyValue(f.known), nastyValue(f.known)),
    call: (id, q) => checkInActions.searchAtDoorAction(id as never, q as never),
  },
  "app/campaign/[campaignId]/door-actions.ts#inviteDoorHelperAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyInput(["campaignId", "email"], f.known)),
    call: (i) => door.inviteDoorHelperAction(i as never),
  },
  "app/campaign/[campaignId]/door-actions.ts#removeDoorHelperAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyInput(["campaignId", "email"], f.known)),
    call: (i) => door.removeDoorHelperAction(i as never),
  },
  "app/campaign/[campaignId]/friend-actions.ts#inviteFriendAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId", "guestSlot", "email"], [...f.known, "friend@example.test"])),
    call: (i) => friends.inviteFriendAction(i),
  },
  "app/campaign/[campaignId]/friend-actions.ts#myInvitesAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["campaignId"], f.known)),
    call: (i) => friends.myInvitesAction(i),
  },
  "app/claim/[token]/actions.ts#claimSeatAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["token"], [...f.known, "A".repeat(43)])),
    call: (i) => claim.claimSeatAction(i),
  },
  "app/campaign/[campaignId]/deposit-actions.ts#excuseDepositAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyValue(f.known)),
    call: (id) => deposits.excuseDepositAction(id),
  },
  "app/campaign/[campaignId]/edit-actions.ts#updateCampaignAction": {
    as: (f) => f.creator,
    input: (f) =>
      fc.tuple(nastyValue(f.known), nastyInput(FORM_KEYS, [...f.known, "America/New_York", "25"])),
    call: (id, i) => edit.updateCampaignAction(id, i),
  },
  "app/create-campaign/actions.ts#createCampaignAction": {
    as: (f) => f.user,
    input: (f) =>
      fc.tuple(
        nastyInput(FORM_KEYS, [
          ...f.known,
          new Date(Date.now() + 3 * 86_400_000).toISOString(),
          "25",
          "12.50",
        ]),
        nastyValue(f.known),
      ),
    call: (i, draftId) => create.createCampaignAction(i, draftId as string),
  },
  "app/create-campaign/actions.ts#saveDraftAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["id", ...FORM_KEYS], f.known)),
    call: (i) => create.saveDraftAction(i),
  },
  "app/create-campaign/actions.ts#deleteDraftAction": {
    as: (f) => f.creator,
    input: (f) => one(nastyValue(f.known)),
    call: (i) => create.deleteDraftAction(i),
  },
  "app/pledges/[pledgeId]/pay/actions.ts#payPledgeAction": {
    as: (f) => f.backer,
    input: (f) => one(nastyInput(["pledgeId", "paymentMethodId"], f.known)),
    call: (i) => pay.payPledgeAction(i),
  },
  "app/pledges/[pledgeId]/pay/actions.ts#confirmPledgePaymentAction": {
    as: (f) => f.backer,
    input: (f) => one(nastyInput(["pledgeId"], f.known)),
    call: (i) => pay.confirmPledgePaymentAction(i),
  },
  "app/profile/actions.ts#signUpAction": {
    as: () => null,
    input: (f) =>
      one(nastyInput(["email", "password", "name"], [...f.known, "fuzz@example.test", "a-long-password-1"])),
    call: (i) => profile.signUpAction(i),
  },
  "app/payouts/actions.ts#startPayoutOnboardingAction": {
    ignoresInput: true,
    as: (f) => f.user,
    input: (f) => fc.array(nastyValue(f.known), { maxLength: 2 }),
    call: async (...args) => {
      try {
        await (payouts.startPayoutOnboardingAction as (...a: unknown[]) => Promise<void>)(...args);
      } catch (err) {
        // its answer is a redirect: to the demo onboarding page (or the payouts page with a notice)
        const digest = String((err as { digest?: string }).digest ?? "");
        expect(digest).toMatch(/^NEXT_REDIRECT;[a-z]+;[^;]*\/payouts/);
        return { ok: true, data: null };
      }
      throw new Error("startPayoutOnboardingAction must redirect");
    },
  },
  "app/payouts/actions.ts#setDemoPayoutStateAction": {
    as: (f) => f.user,
    input: (f) =>
      fc.tuple(nastyValue(f.known), nastyValue(f.known)).map(([account, outcome]) => {
        const form = new FormData();
        if (typeof account === "string") form.set("account", account);
        if (typeof outcome === "string") form.set("outcome", outcome);
        return [form];
      }),
    call: async (form) => {
      try {
        await payouts.setDemoPayoutStateAction(form as FormData);
      } catch (err) {
        const digest = String((err as { digest?: string }).digest ?? "");
        expect(digest).toMatch(/^NEXT_REDIRECT;[a-z]+;\/payouts\?(from=onboarding|error=demo);/);
        return digest.includes("from=onboarding")
          ? { ok: true, data: null }
          : { ok: false, error: "That demo choice could not be saved. Please try again." };
      }
      throw new Error("setDemoPayoutStateAction must redirect");
    },
  },
  "app/payouts/actions.ts#setPayoutHoldAction": {
    as: (f) => f.admin,
    input: (f) => one(nastyInput(["campaignId", "reason"], f.known)),
    call: (i) => payouts.setPayoutHoldAction(i as never),
  },
  "app/unsubscribe/actions.ts#unsubscribeAction": {
    as: () => null,
    input: (f) =>
      fc.oneof(nastyString, fc.constant(unsubscribeToken(f.backer.id)), fc.constant(null)).map((token) => {
        const form = new FormData();
        if (token !== null) form.set("token", token);
        return [form];
      }),
    call: async (form) => {
      try {
        await unsubscribe.unsubscribeAction(form as FormData);
      } catch (err) {
        // its answer is a redirect, to the done or the invalid-link notice
        const digest = String((err as { digest?: string }).digest ?? "");
        expect(digest).toMatch(/^NEXT_REDIRECT;[a-z]+;\/unsubscribe\?(done|invalid)=1;/);
        return digest.includes("done=1")
          ? { ok: true, data: null }
          : { ok: false, error: "This unsubscribe link is not valid." };
      }
      throw new Error("unsubscribeAction must redirect");
    },
  },
  "app/verify-email/actions.ts#confirmEmailAction": {
    as: () => null,
    input: (f) =>
      fc.oneof(
        one(nastyInput(["token", "password", "passwordConfirm"], [...f.known, "A".repeat(43)])),
        // the form as it was before issue 31 (a token, no password): refused
        fc.oneof(nastyString, fc.constant("A".repeat(43))).map((token) => {
          const form = new FormData();
          form.set("token", token);
          return [form];
        }),
      ),
    call: (i) => verifyEmail.confirmEmailAction(i),
  },
  "app/profile/actions.ts#changePasswordAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["currentPassword", "password"], f.known)),
    call: (i) => profile.changePasswordAction(i),
  },
  "app/profile/card-actions.ts#myDefaultCardAction": {
    ignoresInput: true,
    as: (f) => f.user,
    input: (f) => fc.array(nastyValue(f.known), { maxLength: 2 }),
    call: (...args) => (cards.myDefaultCardAction as (...a: unknown[]) => Promise<unknown>)(...args),
  },
  "app/profile/card-actions.ts#makeDefaultCardAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["paymentMethodId"], f.known)),
    call: (i) => cards.makeDefaultCardAction(i),
  },
  "app/profile/card-actions.ts#removeSavedCardAction": {
    as: (f) => f.user,
    input: (f) => one(nastyInput(["paymentMethodId", "replacementId"], f.known)),
    call: (i) => cards.removeSavedCardAction(i),
  },
  "app/forgot-password/actions.ts#requestPasswordResetAction": {
    as: () => null,
    input: (f) => one(nastyInput(["email"], f.known)),
    call: (i) => forgotPassword.requestPasswordResetAction(i),
  },
  "app/reset-password/actions.ts#resetPasswordAction": {
    as: () => null,
    input: (f) => one(nastyInput(["token", "password"], [...f.known, "A".repeat(43)])),
    call: (i) => resetPassword.resetPasswordAction(i),
  },
  "app/verify-email/actions.ts#resendConfirmationAction": {
    as: (f) => f.user,
    input: () => fc.constant([]),
    call: () => verifyEmail.resendConfirmationAction(),
  },
};

describe(`fuzz: every server action gets ${NUM_RUNS} hostile inputs`, () => {
  it("the write guard notices a write (so the fuzz checks below can fail)", async () => {
    const guard = writeGuard();
    await guard.start();
    await guard.rejected("nothing");
    await db.comment.create({ data: { campaignId: f.campaign.id, authorId: f.user.id, text: "written" } });
    await expect(guard.rejected("a comment")).rejects.toThrow(/was rejected but wrote to the database/);
    await db.comment.deleteMany({ where: { text: "written" } });
  });

  it("covers every server action in the registry", () => {
    const actions = REGISTRY.filter((e) => e.kind === "action").map(entryKey);
    expect(actions.filter((k) => !TARGETS[k])).toEqual([]);
  });

  for (const [key, target] of Object.entries(TARGETS)) {
    it(
      `${key}: never throws, refusals carry a clear message and write nothing`,
      async () => {
        actAs(target.as(f));
        const guard = writeGuard();
        await guard.start();
        let rejected = 0;
        await fc.assert(
          fc.asyncProperty(target.input(f), async (args) => {
            const verdict = checkActionResult(await target.call(...args), key);
            if (verdict === "accepted") await guard.accepted();
            else {
              rejected++;
              await guard.rejected(key);
            }
          }),
          { numRuns: NUM_RUNS },
        );
        await guard.finish(key);
        if (!target.ignoresInput)
          expect(rejected, "hostile input must mostly be refused").toBeGreaterThan(NUM_RUNS / 4);
      },
      FUZZ_TIMEOUT_MS,
    );
  }
});
