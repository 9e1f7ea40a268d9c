import { db } from "@/lib/db";

let seq = 0;
const next = () =>
  `${Date.now().toString(36)}${(++seq).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function createUser(
  overrides: Partial<{
    email: string;
    name: string | null;
    isAdmin: boolean;
    passwordHash: string | null;
    emailVerified: Date | null;
  }> = {},
) {
  return db.user.create({
    data: {
      emailVerified: overrides.emailVerified ?? null,
      email: overrides.email ?? `user-${next()}@example.test`,
      name: overrides.name === undefined ? `User ${seq}` : overrides.name,
      isAdmin: overrides.isAdmin ?? false,
      passwordHash: overrides.passwordHash ?? null,
    },
  });
}

type CampaignOverrides = Partial<{
  title: string;
  description: string;
  goal: number;
  ticketPriceCents: number;
  deadline: Date;
  createdAt: Date;
  approvalStatus: "pending" | "approved" | "rejected";
  status: "pending" | "funded" | "charging" | "charged" | "expired" | "cancelled";
  pactType: "paction" | "crowdfund" | null;
  isTest: boolean;
  attendeesAnonymous: boolean;
  identityRevelationType: "never" | "onStart" | "immediate";
  creatorId: string;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
  venue: string | null;
  address: string | null;
  onlineUrl: string | null;
  area: string | null;
  addressPrivate: boolean;
  capacity: number | null;
  acceptAfterThreshold: boolean;
  maxSeats: number;
}>;

export async function createCampaign(overrides: CampaignOverrides = {}) {
  const creatorId = overrides.creatorId ?? (await createUser()).id;
  const creator = await db.user.findUniqueOrThrow({ where: { id: creatorId } });
  return db.campaign.create({
    data: {
      title: overrides.title ?? `Test event ${next()}`,
      description: overrides.description ?? "A description that is long enough to pass validation.",
      goal: overrides.goal ?? 10,
      ticketPriceCents: overrides.ticketPriceCents ?? 0,
      deadline: overrides.deadline ?? new Date(Date.now() + 7 * 24 * 3600_000),
      createdAt: overrides.createdAt,
      approvalStatus: overrides.approvalStatus ?? "approved",
      status: overrides.status ?? "pending",
      pactType: overrides.pactType === undefined ? "paction" : overrides.pactType,
      isTest: overrides.isTest ?? false,
      attendeesAnonymous: overrides.attendeesAnonymous ?? true,
      identityRevelationType: overrides.identityRevelationType ?? "never",
      creatorId,
      creatorEmail: creator.email,
      startsAt: overrides.startsAt,
      endsAt: overrides.endsAt,
      timeZone: overrides.timeZone,
      venue: overrides.venue,
      address: overrides.address,
      onlineUrl: overrides.onlineUrl,
      area: overrides.area,
      addressPrivate: overrides.addressPrivate,
      capacity: overrides.capacity,
      acceptAfterThreshold: overrides.acceptAfterThreshold,
      maxSeats: overrides.maxSeats,
    },
  });
}

export async function createPledge(
  campaignId: string,
  userId?: string,
  overrides: Partial<{ paymentMethodId: string | null; amountCents: number; createdAt: Date }> = {},
) {
  const uid = userId ?? (await createUser()).id;
  const user = await db.user.findUniqueOrThrow({ where: { id: uid } });
  return db.pledge.create({
    data: {
      campaignId,
      userId: uid,
      contributor: user.name ?? user.email,
      amountCents: overrides.amountCents ?? 0,
      paymentMethodId: overrides.paymentMethodId ?? null,
      createdAt: overrides.createdAt,
    },
  });
}

/** A demo payout account of `userId` (issue 23), as the demo onboarding page leaves it. */
export function createDemoPayoutAccount(
  userId: string,
  status: "pending" | "ready" | "restricted" = "ready",
) {
  return db.payoutAccount.create({
    data: { userId, provider: "demo", accountId: `acct_demo_${userId}`, status },
  });
}
