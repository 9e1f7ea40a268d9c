/**
 * Every server-action module, loaded for the security suites. Import it with `await import(...)`
 * AFTER the file's vi.mock calls (next/headers, next/cache), so the actions see the mocks.
 */
export const admin = await import("@/app/admin/actions");
export const comments = await import("@/app/campaign/[campaignId]/comment-actions");
export const commit = await import("@/app/campaign/[campaignId]/commit-action");
export const backer = await import("@/app/campaign/[campaignId]/backer-actions");
export const lists = await import("@/app/campaign/[campaignId]/list-actions");
export const cancel = await import("@/app/campaign/[campaignId]/cancel-actions");
export const goAhead = await import("@/app/campaign/[campaignId]/go-ahead-actions");
export const updates = await import("@/app/campaign/[campaignId]/update-actions");
export const checkInActions = await import("@/app/campaign/[campaignId]/check-in/actions");
export const door = await import("@/app/campaign/[campaignId]/door-actions");
export const deposits = await import("@/app/campaign/[campaignId]/deposit-actions");
export const friends = await import("@/app/campaign/[campaignId]/friend-actions");
export const claim = await import("@/app/claim/[token]/actions");
export const edit = await import("@/app/campaign/[campaignId]/edit-actions");
export const create = await import("@/app/create-campaign/actions");
export const pay = await import("@/app/pledges/[pledgeId]/pay/actions");
export const payouts = await import("@/app/payouts/actions");
export const profile = await import("@/app/profile/actions");
export const cards = await import("@/app/profile/card-actions");
export const unsubscribe = await import("@/app/unsubscribe/actions");
export const verifyEmail = await import("@/app/verify-email/actions");
export const forgotPassword = await import("@/app/forgot-password/actions");
export const resetPassword = await import("@/app/reset-password/actions");
