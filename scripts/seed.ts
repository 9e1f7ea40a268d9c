// Demo data for `npm start` on an empty database (skipped with SEED_DEMO=false).
// Accounts are listed in README.md. Run again by hand with `npm run db:seed` (it refuses a
// database that already has users).
import { hashPassword } from "@/lib/auth/password";
import { db, disconnectDb } from "@/lib/db";
import { fromWallClock, toWallClock } from "@/lib/campaigns/event-time";
import { CALLED_OFF_STATUSES } from "@/lib/campaigns/lifecycle";
import sharp from "sharp";
import { createHash } from "node:crypto";
import { demoProcessingFee } from "@/lib/payments/demo-gateway";
import { processCover } from "@/lib/images/process";

export const DEMO_PASSWORD = "pactnexus-demo";
const HOUR = 3600_000;
const DAY = 24 * HOUR;

type EventSeed = {
  title: string;
  description: string;
  logisticalDetails?: string;
  goal: number;
  priceCents: number;
  days: number; // deadline from now
  pledges: number;
  approval?: "approved" | "pending" | "rejected";
  confirmed?: boolean;
  /** an event that did not happen: expired below its goal, or cancelled by the organizer */
  outcome?: (typeof CALLED_OFF_STATUSES)[number];
  /** issue 19: Alice's payment failed and Ben's was dropped (the demo's failed payments) */
  failedPayments?: boolean;
  /** issue 20: the most people who may be in, and how many wait on the waitlist (Alice first) */
  capacity?: number;
  waiting?: number;
  /** issue 21: commitments that count only once `minPeople` are in (not counted yet) */
  conditional?: { count: number; minPeople: number };
  /** issue 21: the organizer may go ahead from 80% of the goal */
  earlyGoAhead?: boolean;
  anonymous?: boolean;
  isTest?: boolean;
  ageDays: number; // created this many days ago
};

const [EXPIRED, CANCELLED] = CALLED_OFF_STATUSES;

const EVENTS: EventSeed[] = [
  {
    title: "Sunrise Yoga in Riverside Park",
    description:
      "An hour of gentle flow yoga as the sun comes up over the river. All levels welcome; bring a mat and water. We only book the instructor if 15 of us commit.",
    logisticalDetails: "Meet at the north lawn by the boathouse, 6:15 am.",
    goal: 15,
    priceCents: 1200,
    days: 5,
    pledges: 11,
    ageDays: 9,
  },
  {
    title: "Community Garden Build Day",
    description:
      "Help turn the empty lot on Elm Street into raised vegetable beds. Tools and lunch provided by the neighbourhood association once 25 volunteers commit.",
    goal: 25,
    priceCents: 0,
    days: 21,
    pledges: 9,
    ageDays: 8,
  },
  {
    title: "Indie Film Night: Local Shorts",
    description:
      "A screening of eight short films by local filmmakers, followed by a Q&A. The cinema rents the screen to us only if 60 tickets are committed in advance.",
    logisticalDetails: "Roxy Cinema, screen 2. Doors 7:00 pm.",
    goal: 60,
    priceCents: 900,
    days: 30,
    pledges: 58,
    ageDays: 7,
  },
  {
    title: "Beginner Pottery Workshop",
    description:
      "Two hours at the wheel with a professional potter. Clay, glazing and firing included; you take home two pieces. Runs with a minimum of 8 people.",
    goal: 8,
    priceCents: 4500,
    days: 18,
    pledges: 0,
    ageDays: 6,
  },
  {
    title: "Neighbourhood Beach Cleanup",
    description:
      "Let's clear the shoreline before summer. The council lends gloves, bags and a skip if at least 20 people sign up. Kids welcome with an adult.",
    goal: 20,
    priceCents: 0,
    days: -2,
    pledges: 20,
    confirmed: true,
    ageDays: 20,
  },
  {
    title: "Natural Wine Tasting Evening",
    description:
      "Six low-intervention wines from small growers, poured and explained by the importer. The shop closes for us if 8 people book; cheese included.",
    goal: 8,
    priceCents: 3500,
    days: -9,
    pledges: 10,
    confirmed: true,
    ageDays: 20,
  },
  {
    title: "Rooftop Cinema: Summer Classics",
    description:
      "Three classic films under the stars on the Hotel Marlowe rooftop, with blankets and popcorn. The hotel opens the roof if 12 people buy a seat.",
    goal: 12,
    priceCents: 1200,
    days: -1,
    pledges: 14,
    confirmed: true,
    failedPayments: true,
    ageDays: 9,
  },
  {
    title: "Handmade Pasta Workshop",
    description:
      "Chef Marco teaches tagliatelle and ravioli from scratch, then we eat what we made. The kitchen runs if 8 cooks commit and fits 10; after that, a waitlist.",
    goal: 8,
    capacity: 10,
    priceCents: 3500,
    days: 6,
    pledges: 10,
    confirmed: true,
    waiting: 3,
    ageDays: 7,
  },
  {
    title: "Board Game Marathon",
    description:
      "Twelve hours of strategy games, from Catan to Twilight Imperium. The café closes for us if 30 players commit; the fee covers the room and snacks.",
    goal: 30,
    priceCents: 1500,
    days: 12,
    pledges: 17,
    conditional: { count: 5, minPeople: 25 },
    ageDays: 5,
  },
  {
    title: "Group Hike: Eagle Ridge Trail",
    description:
      "A guided 14 km hike with 600 m of climbing and lunch at the summit. A certified guide leads the group once 12 hikers commit.",
    logisticalDetails: "Carpool from the central station at 7:30 am.",
    goal: 12,
    priceCents: 2000,
    days: 9,
    pledges: 4,
    ageDays: 4,
  },
  {
    title: "Open-Air Jazz Quartet",
    description:
      "A summer evening concert in the old town square. The quartet plays if 100 people commit to a ticket; otherwise nobody pays a cent.",
    goal: 100,
    priceCents: 1800,
    days: 45,
    pledges: 37,
    ageDays: 4,
  },
  {
    title: "Coding Dojo for Kids",
    description:
      "A Saturday morning of Scratch and Python puzzles for ages 9 to 14, run by volunteer engineers. We need 10 families to book the library room.",
    goal: 10,
    priceCents: 0,
    days: 14,
    pledges: 3,
    ageDays: 3,
  },
  {
    title: "Bulk Order: Local Honey",
    description:
      "The Hillside apiary sells at wholesale price if we order together: one 1 kg jar per person, delivered to the community centre. Needs 40 orders.",
    goal: 40,
    priceCents: 1100,
    days: 10,
    pledges: 39,
    earlyGoAhead: true,
    ageDays: 3,
  },
  {
    title: "Street Tree Planting",
    description:
      "The city plants a tree on our street for every resident who commits to watering it through its first summer. The programme needs 18 households.",
    goal: 18,
    priceCents: 0,
    days: 60,
    pledges: 6,
    ageDays: 2,
    anonymous: false,
  },
  {
    title: "Salsa Night with Live Band",
    description:
      "An evening of salsa with a 30-minute beginners' lesson and a live band. The venue needs 50 dancers committed to open the hall.",
    goal: 50,
    priceCents: 2500,
    days: 25,
    pledges: 22,
    ageDays: 2,
  },
  {
    title: "Repair Café: Fix Your Gadgets",
    description:
      "Bring broken toasters, lamps and bikes; volunteer fixers help you repair them. We need 15 participants to justify the tool rental.",
    goal: 15,
    priceCents: 0,
    days: 4,
    pledges: 14,
    ageDays: 1,
  },
  {
    title: "Midnight Stargazing on the Ridge",
    description:
      "A guided night of telescopes and hot chocolate with the astronomy club. The bus runs only if 30 of us commit; it did not happen this time.",
    goal: 30,
    priceCents: 1500,
    days: -3,
    pledges: 12,
    outcome: EXPIRED,
    ageDays: 20,
  },
  {
    title: "Rooftop Cinema: Classic Noir",
    description:
      "Three classic noir films on a rooftop screen with blankets and popcorn. Cancelled: the building withdrew its permit, and nobody pays.",
    goal: 40,
    priceCents: 1400,
    days: 12,
    pledges: 15,
    outcome: CANCELLED,
    ageDays: 6,
  },
  {
    title: "Charity 5K Fun Run",
    description:
      "A relaxed 5 km run around the lake raising money for the food bank. The course permit needs at least 40 runners committed in advance.",
    goal: 40,
    priceCents: 1000,
    days: 35,
    pledges: 0,
    approval: "pending",
    ageDays: 0,
  },
  {
    title: "Free Crypto Giveaway Party",
    description:
      "Come and get free coins at our launch party, everybody wins big money guaranteed, sign up now and tell all your friends.",
    goal: 500,
    priceCents: 0,
    days: 20,
    pledges: 0,
    approval: "rejected",
    ageDays: 1,
  },
  {
    title: "Test event: checkout dry run",
    description: "Internal test of the commit and charge flow. Safe to delete from the admin dashboard.",
    goal: 2,
    priceCents: 500,
    days: 3,
    pledges: 0,
    isTest: true,
    ageDays: 0,
  },
];

/**
 * When and where each demo event happens (issue 16): days after its deadline, the local hour and
 * length in its zone, and its place. Events not listed have no date yet ("Date to be announced").
 */
type WhenWhereSeed = {
  zone: string;
  startDaysAfterDeadline: number;
  hour: number;
  minute?: number;
  hours?: number;
  venue?: string;
  address?: string;
  area?: string;
  attendeesOnly?: boolean;
  online?: string;
};
const NYC = "America/New_York";
const WHEN_WHERE: Record<string, WhenWhereSeed> = {
  "Handmade Pasta Workshop": {
    zone: NYC,
    startDaysAfterDeadline: 2,
    hour: 18,
    minute: 30,
    hours: 3,
    venue: "Casa Marco teaching kitchen",
    address: "88 Mulberry St, New York, NY 10013",
  },
  "Sunrise Yoga in Riverside Park": {
    zone: NYC,
    startDaysAfterDeadline: 2,
    hour: 6,
    minute: 30,
    hours: 1,
    venue: "Riverside Park, north lawn",
    address: "Riverside Dr & W 103rd St, New York, NY",
  },
  "Community Garden Build Day": {
    zone: NYC,
    startDaysAfterDeadline: 3,
    hour: 9,
    hours: 6,
    venue: "Elm Street lot",
    address: "214 Elm St, Brooklyn, NY",
    area: "Bushwick",
    attendeesOnly: true,
  },
  "Indie Film Night: Local Shorts": {
    zone: NYC,
    startDaysAfterDeadline: 4,
    hour: 19,
    minute: 30,
    hours: 2.5,
    venue: "Roxy Cinema, screen 2",
    address: "2 6th Ave, New York, NY 10013",
  },
  "Beginner Pottery Workshop": {
    zone: "America/Los_Angeles",
    startDaysAfterDeadline: 5,
    hour: 14,
    hours: 3,
    venue: "Clay Corner Studio",
    address: "88 Alvarado St, Los Angeles, CA",
    area: "Echo Park",
    attendeesOnly: true,
  },
  "Neighbourhood Beach Cleanup": {
    zone: NYC,
    startDaysAfterDeadline: 6,
    hour: 10,
    hours: 3,
    venue: "Rockaway Beach, 97th St entrance",
  },
  "Rooftop Cinema: Summer Classics": {
    zone: NYC,
    startDaysAfterDeadline: 5,
    hour: 20,
    hours: 5,
    venue: "Hotel Marlowe rooftop",
    address: "25 Edwin H Land Blvd, Cambridge, MA",
  },
  "Board Game Marathon": {
    zone: "Europe/London",
    startDaysAfterDeadline: 2,
    hour: 12,
    hours: 10,
    venue: "The Dice Tower café",
    address: "17 Camden High St, London NW1",
  },
  "Open-Air Jazz Quartet": {
    zone: NYC,
    startDaysAfterDeadline: 7,
    hour: 20,
    hours: 2,
    venue: "Bryant Park stage",
  },
  "Coding Dojo for Kids": {
    zone: NYC,
    startDaysAfterDeadline: 3,
    hour: 10,
    hours: 2,
    online: "https://meet.example.org/coding-dojo",
  },
  "Salsa Night with Live Band": {
    zone: NYC,
    startDaysAfterDeadline: 5,
    hour: 21,
    hours: 4,
    venue: "La Terraza",
    address: "501 W 50th St, New York, NY",
    area: "Hell's Kitchen",
    attendeesOnly: true,
  },
  "Repair Café: Fix Your Gadgets": {
    zone: "Asia/Tokyo",
    startDaysAfterDeadline: 2,
    hour: 13,
    hours: 4,
    venue: "Kōenji community hall",
  },
};

/**
 * Demo covers (issue 17): an abstract picture drawn from an SVG (two colours and some shapes) and
 * stored the way an upload is, so the demo shows uploaded covers beside generated ones.
 */
const COVERS: Record<string, [string, string]> = {
  "Sunrise Yoga in Riverside Park": ["#fde68a", "#f97316"],
  "Indie Film Night: Local Shorts": ["#1e1b4b", "#7c3aed"],
  "Neighbourhood Beach Cleanup": ["#bae6fd", "#0ea5e9"],
  "Open-Air Jazz Quartet": ["#0f172a", "#f59e0b"],
};

/**
 * `count` more commitments to a seeded event, each from a backer not on it yet (in seed order) with a
 * demo card of its own: the waitlist and the conditional commitments (issues 20, 21). Returns how many.
 */
async function extraPledges(
  campaignId: string,
  backers: { id: string; name: string | null }[],
  count: number,
  priceCents: number,
  tag: string,
  extra: (i: number) => { createdAt: Date; waitlistedAt?: Date; minPeople?: number },
): Promise<number> {
  const taken = new Set(
    (await db.pledge.findMany({ where: { campaignId }, select: { userId: true } })).map((p) => p.userId),
  );
  const line = backers.filter((b) => !taken.has(b.id)).slice(0, count);
  for (const [i, backer] of line.entries()) {
    const paymentMethodId = `pm_demo_seed_${campaignId}_${tag}_${i}`;
    await db.demoPaymentMethod.create({
      data: {
        id: paymentMethodId,
        userId: backer.id,
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
        behavior: "ok",
      },
    });
    await db.pledge.create({
      data: {
        campaignId,
        userId: backer.id,
        amountCents: priceCents,
        contributor: backer.name ?? "Anonymous Backer",
        paymentMethodId,
        cardBrand: "visa",
        cardLast4: "4242",
        ...extra(i),
      },
    });
  }
  return line.length;
}

async function demoCover(title: string): Promise<Buffer | null> {
  const colours = COVERS[title];
  if (!colours) return null;
  const [a, b] = colours;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
    <rect width="1600" height="900" fill="url(#g)"/>
    <circle cx="1250" cy="260" r="190" fill="#ffffff" fill-opacity="0.22"/>
    <circle cx="300" cy="720" r="320" fill="#ffffff" fill-opacity="0.12"/>
    <rect x="640" y="420" width="520" height="36" rx="18" fill="#ffffff" fill-opacity="0.25"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** The seed's start and end for an event whose deadline is `deadline`, in its zone. */
function whenWhere(title: string, deadline: Date) {
  const w = WHEN_WHERE[title];
  if (!w) return {};
  const day = toWallClock(deadline.getTime() + w.startDaysAfterDeadline * DAY, w.zone).slice(0, 10);
  const wall = `${day}T${String(w.hour).padStart(2, "0")}:${String(w.minute ?? 0).padStart(2, "0")}`;
  const start = fromWallClock(wall, w.zone);
  if (!start.ok) return {};
  return {
    startsAt: start.date,
    endsAt: new Date(start.date.getTime() + (w.hours ?? 2) * HOUR),
    timeZone: w.zone,
    venue: w.venue ?? null,
    address: w.address ?? null,
    area: w.area ?? null,
    addressPrivate: Boolean(w.attendeesOnly && w.address),
    onlineUrl: w.online ?? null,
  };
}

const BACKER_NAMES = [
  "Alice Park",
  "Ben Okafor",
  "Chloe Martin",
  "Diego Alvarez",
  "Emma Schultz",
  "Farah Haddad",
  "George Lin",
  "Hana Sato",
  "Ivan Petrov",
  "Julia Rossi",
];

async function main() {
  if ((await db.user.count()) > 0) {
    console.log("The database already has users: demo data not seeded.");
    return;
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const admin = await db.user.create({
    data: {
      email: "admin@pactnexus.demo",
      name: "Ada Admin",
      passwordHash,
      isAdmin: true,
      emailVerified: new Date(),
    },
  });
  const organizer = await db.user.create({
    data: {
      email: "organizer@pactnexus.demo",
      name: "Olivia Organizer",
      passwordHash,
      emailVerified: new Date(),
    },
  });
  // The organizer can be paid (issue 23): a ready demo payout account, as the demo onboarding leaves it.
  await db.payoutAccount.create({
    data: {
      userId: organizer.id,
      provider: "demo",
      accountId: `acct_demo_${createHash("sha256").update(organizer.id).digest("hex").slice(0, 16)}`,
      status: "ready",
    },
  });
  const backers = [];
  for (let i = 0; i < 60; i++) {
    const named = BACKER_NAMES[i];
    const email = named
      ? `${named.split(" ")[0].toLowerCase()}@pactnexus.demo`
      : `backer${i + 1}@pactnexus.demo`;
    backers.push(
      await db.user.create({ data: { email, name: named ?? null, passwordHash, emailVerified: new Date() } }),
    );
  }
  const now = Date.now();

  let shownWithdrawal = false;
  for (const [index, e] of EVENTS.entries()) {
    const createdAt = new Date(now - e.ageDays * DAY - index * HOUR);
    const paid = e.priceCents > 0;
    // confirmed a day before the deadline, never in the future (an event that tipped early)
    const confirmedAt = e.confirmed ? new Date(Math.min(now - 6 * HOUR, now + e.days * DAY - DAY)) : null;
    const campaign = await db.campaign.create({
      data: {
        title: e.title,
        description: e.description,
        logisticalDetails: e.logisticalDetails ?? null,
        goal: e.goal,
        deadline: new Date(now + e.days * DAY),
        ...whenWhere(e.title, new Date(now + e.days * DAY)),
        createdAt,
        creatorId: organizer.id,
        creatorEmail: organizer.email,
        approvalStatus: e.approval ?? "approved",
        approvalUpdatedAt: createdAt,
        approvalUpdatedById: admin.id,
        ticketPriceCents: e.priceCents,
        isTest: e.isTest ?? false,
        attendeesAnonymous: e.anonymous ?? true,
        identityRevelationType: e.anonymous === false ? "immediate" : "never",
        status: e.confirmed ? "charged" : (e.outcome ?? "pending"),
        cancelledAt: e.outcome === CANCELLED ? createdAt : null,
        chargeType: e.confirmed ? (paid ? "paid" : "free") : null,
        fundedAt: confirmedAt,
        chargedAt: confirmedAt,
        lastStatusUpdate: confirmedAt ?? createdAt,
        totalCharged: e.confirmed ? e.pledges : 0,
        totalChargedCents: e.confirmed ? e.pledges * e.priceCents : 0,
        committedCount: e.pledges,
        pledgeCount: e.pledges,
        currentAmount: e.pledges,
        capacity: e.capacity ?? null,
        waitlistCount: e.waiting ?? 0,
        earlyGoAhead: e.earlyGoAhead ?? false,
      },
    });
    const coverSource = await demoCover(e.title);
    if (coverSource) {
      const processed = await processCover(coverSource);
      const cover = await db.coverImage.create({
        data: { campaignId: campaign.id, uploaderId: organizer.id, ...processed },
      });
      await db.campaign.update({ where: { id: campaign.id }, data: { coverId: cover.id } });
    }
    for (let p = 0; p < e.pledges; p++) {
      const backer = backers[(p + index * 7) % backers.length];
      const at = new Date(createdAt.getTime() + ((p + 1) * (now - createdAt.getTime())) / (e.pledges + 2));
      let paymentMethodId: string | null = null;
      if (paid) {
        paymentMethodId = `pm_demo_seed_${campaign.id}_${p}`;
        await db.demoPaymentMethod.create({
          data: {
            id: paymentMethodId,
            userId: backer.id,
            brand: "visa",
            last4: "4242",
            expMonth: 12,
            expYear: 2030,
            behavior: "ok",
          },
        });
      }
      await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: backer.id,
          amount: 1,
          amountCents: e.priceCents,
          contributor: backer.name ?? "Anonymous Backer",
          createdAt: at,
          paymentMethodId,
          cardBrand: paid ? "visa" : null,
          cardLast4: paid ? "4242" : null,
          ...(e.confirmed
            ? {
                charged: true,
                verified: true,
                chargedAt: confirmedAt,
                chargeType: paid ? "paid" : "free",
                chargeStatus: "succeeded",
                // the demo provider's fee (2.9% + 30¢), as a payout reads it
                processingFeeCents: paid ? demoProcessingFee(e.priceCents) : null,
              }
            : {}),
        },
      });
    }
    // Personal thresholds (issue 21): some come only if enough others do — they hold a place and
    // count once their number is reached (the event page shows the cascade).
    if (e.conditional) {
      const { minPeople } = e.conditional;
      const line = await extraPledges(
        campaign.id,
        backers,
        e.conditional.count,
        e.priceCents,
        "cond",
        (i) => ({
          createdAt: new Date(now - (i + 1) * 3 * HOUR),
          minPeople,
        }),
      );
      await db.campaign.update({
        where: { id: campaign.id },
        data: {
          hasConditions: true,
          pledgeCount: { increment: line },
          currentAmount: { increment: line },
        },
      });
    }
    // A full event's waitlist (issue 20): Alice is first in line, each with a saved card, charged
    // automatically if a place opens before the start.
    if (e.waiting) {
      const waiting = e.waiting;
      await extraPledges(campaign.id, backers, waiting, e.priceCents, "wait", (i) => {
        const at = new Date(now - (waiting - i) * HOUR);
        return { createdAt: at, waitlistedAt: at };
      });
    }
    // One backer of the first open paid event changed their mind (issue 18): a withdrawn commitment,
    // kept on the organizer's manage page and the backer's profile, counted nowhere.
    if (paid && !e.confirmed && !e.outcome && e.pledges > 0 && !shownWithdrawal) {
      shownWithdrawal = true;
      const backer = backers[(e.pledges + index * 7) % backers.length];
      await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: backer.id,
          amount: 1,
          amountCents: e.priceCents,
          contributor: backer.name ?? "Anonymous Backer",
          createdAt: new Date(createdAt.getTime() + HOUR),
          cardBrand: "visa",
          cardLast4: "4242",
          withdrawnAt: new Date(now - 2 * HOUR),
        },
      });
    }
    // Failed payments on the rooftop cinema (issue 19): Alice's was declined two days
    // ago (her window is open: a banner, reminders, Pay now), Ben's window closed and he was dropped.
    if (e.failedPayments) {
      const failedAt = new Date(now - 2 * DAY);
      for (const [who, dropped] of [
        [backers[0], false],
        [backers[1], true],
      ] as const) {
        const existing = await db.pledge.findFirst({ where: { campaignId: campaign.id, userId: who.id } });
        const failure = {
          charged: false,
          verified: false,
          chargedAt: null,
          chargeType: null,
          chargeStatus: "failed" as const,
          chargeAttempts: 2,
          chargeFailureCode: "card_declined",
          chargeFailureMessage: "Your card was declined.",
          chargeClaimedAt: failedAt,
          paymentFailedAt: dropped ? new Date(now - 8 * DAY) : failedAt,
          cardBrand: "visa",
          cardLast4: "0341",
          ...(dropped
            ? { withdrawnAt: new Date(now - DAY), droppedAt: new Date(now - DAY), paymentMethodId: null }
            : {}),
        };
        if (existing) await db.pledge.update({ where: { id: existing.id }, data: failure });
        else
          await db.pledge.create({
            data: {
              campaignId: campaign.id,
              userId: who.id,
              amountCents: e.priceCents,
              contributor: who.name ?? "Anonymous Backer",
              createdAt: new Date(createdAt.getTime() + HOUR),
              paymentMethodId: dropped ? null : `pm_demo_seed_${campaign.id}_declined`,
              ...failure,
            },
          });
        if (!dropped && !existing)
          await db.demoPaymentMethod.create({
            data: {
              id: `pm_demo_seed_${campaign.id}_declined`,
              userId: who.id,
              brand: "visa",
              last4: "0341",
              expMonth: 12,
              expYear: 2030,
              behavior: "charge_fails",
            },
          });
      }
      // the counters and totals as the app keeps them: live pledges counted, succeeded ones charged
      const live = await db.pledge.count({ where: { campaignId: campaign.id, withdrawnAt: null } });
      const charged = await db.pledge.count({
        where: { campaignId: campaign.id, chargeStatus: "succeeded" },
      });
      await db.campaign.update({
        where: { id: campaign.id },
        data: {
          committedCount: live,
          pledgeCount: live,
          currentAmount: live,
          totalCharged: charged,
          totalChargedCents: charged * e.priceCents,
        },
      });
    }
    if (e.pledges > 2) {
      const lines = [
        "Count me in — this is exactly what the neighbourhood needs.",
        "Can I bring a friend who hasn't signed up yet?",
        "Shared it with my running club, a few more should join today!",
      ];
      for (let c = 0; c < Math.min(3, e.pledges); c++) {
        await db.comment.create({
          data: {
            campaignId: campaign.id,
            authorId: backers[(c + index * 7) % backers.length].id,
            text: lines[c],
            createdAt: new Date(createdAt.getTime() + (c + 1) * HOUR),
          },
        });
      }
    }
  }
  console.log(`Seeded ${EVENTS.length} events, ${backers.length + 2} users. Demo password: ${DEMO_PASSWORD}`);
}

main()
  .then(() => disconnectDb())
  .catch(async (err) => {
    console.error(err);
    await disconnectDb();
    process.exit(1);
  });
