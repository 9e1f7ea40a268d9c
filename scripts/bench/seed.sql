-- Benchmark data set (issue 8): 10,000 approved events, 200,000 pledges, 50,000 comments.
-- Event bc00000001 is the hot one: 5,000 pledges and 1,000 comments. Generated in bulk in SQL.
BEGIN;
INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt")
SELECT 'bu' || lpad(g::text, 8, '0'), 'bench' || g || '@bench.test', 'Bench User ' || g, NULL, now()
FROM generate_series(1, 40000) g;

INSERT INTO "Campaign" (id, title, description, goal, deadline, "createdAt", "updatedAt", "creatorId", "creatorEmail",
  status, "approvalStatus", "pactType", "ticketPriceCents", "attendeesAnonymous", "identityRevelationType")
SELECT 'bc' || lpad(g::text, 8, '0'),
       'Benchmark event number ' || g,
       'A realistic description for benchmark event ' || g || ': meet, commit, and make it happen together.',
       CASE WHEN g = 1 THEN 10000 ELSE 50 END,
       now() + ((g % 300) + 2) * interval '1 day',
       now() - g * interval '1 minute',
       now(),
       'bu' || lpad(((g % 1000) + 1)::text, 8, '0'),
       'bench' || ((g % 1000) + 1) || '@bench.test',
       'pending', 'approved', 'paction', CASE WHEN g % 2 = 0 THEN 0 ELSE 1500 END, true, 'never'
FROM generate_series(1, 10000) g;

-- Pledges are history: dated more than a day back, like pledges whose emails went out long ago. Dated
-- within the last day (and with no outbox rows), the app's per-minute email job took them for
-- commits whose confirmation was never queued and derived 500 emails a minute from them, and the
-- hourly organizer digest queued hundreds more: background work that loaded every scenario.
-- hot event: 5,000 pledges
-- (numbers given here: the numbering triggers only fill in missing ones)
INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt", "paymentMethodId", "attendeeNumber")
SELECT 'bp1_' || u, 'bc00000001', 'bu' || lpad(u::text, 8, '0'), 1, 1500, 'Bench User ' || u,
       now() - interval '2 days' - u * interval '1 second', 'pm_demo_bench_' || u, 5001 - u
FROM generate_series(1, 5000) u;

-- events 2..9751: 20 pledges each (195,000)
INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt", "paymentMethodId", "attendeeNumber")
SELECT 'bp' || c || '_' || j, 'bc' || lpad(c::text, 8, '0'),
       'bu' || lpad((((c * 37 + j) % 20000) + 1)::text, 8, '0'), 1,
       CASE WHEN c % 2 = 0 THEN 0 ELSE 1500 END,
       'Bench User ' || (((c * 37 + j) % 20000) + 1),
       now() - interval '2 days' - (c * 20 + j) * interval '1 second',
       CASE WHEN c % 2 = 0 THEN NULL ELSE 'pm_demo_bench_' || c || '_' || j END, 20 - j
FROM generate_series(2, 9751) c, generate_series(0, 19) j;

-- comments: 1,000 on the hot event, 5 each on events 2..9801 (49,000)
INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt", "commenterNumber")
SELECT 'bk1_' || k, 'bc00000001', 'bu' || lpad(k::text, 8, '0'), 'Benchmark comment ' || k || ' — looking forward to it!',
       now() - k * interval '1 second', 1001 - k
FROM generate_series(1, 1000) k;
INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt", "commenterNumber")
SELECT 'bk' || c || '_' || k, 'bc' || lpad(c::text, 8, '0'), 'bu' || lpad((((c * 13 + k) % 20000) + 1)::text, 8, '0'),
       'Benchmark comment ' || k, now() - (c * 5 + k) * interval '1 second', 6 - k
FROM generate_series(2, 9801) c, generate_series(1, 5) k;

UPDATE "Campaign" c SET "pledgeCount" = s.n, "committedCount" = s.n, "currentAmount" = s.n
FROM (SELECT "campaignId", count(*)::int AS n FROM "Pledge" GROUP BY "campaignId") s
WHERE s."campaignId" = c.id;

-- free events for the commit scenario: 200 events with a goal no commit run reaches
INSERT INTO "Campaign" (id, title, description, goal, deadline, "createdAt", "updatedAt", "creatorId", "creatorEmail",
  status, "approvalStatus", "pactType", "ticketPriceCents", "isTest", "maxSeats")
SELECT 'bf' || lpad(g::text, 8, '0'), 'Benchmark free event ' || g, 'A free benchmark event that collects commitments from many users.',
       10000, now() + interval '30 days', now() - interval '400 days', now(), 'bu00000001', 'bench1@bench.test',
       'pending', 'approved', 'paction', 0, true, 4
FROM generate_series(1, 200) g;

-- issue 37: paid events for the saved-card commit scenario ($15, a goal no run reaches), and a card on
-- file for every bench user: the demo gateway's card and the SavedCard row the profile lists
INSERT INTO "Campaign" (id, title, description, goal, deadline, "createdAt", "updatedAt", "creatorId", "creatorEmail",
  status, "approvalStatus", "pactType", "ticketPriceCents", "isTest")
SELECT 'bq' || lpad(g::text, 8, '0'), 'Benchmark paid event ' || g, 'A paid benchmark event that collects commitments with saved cards.',
       10000, now() + interval '30 days', now() - interval '400 days', now(), 'bu00000001', 'bench1@bench.test',
       'pending', 'approved', 'paction', 1500, true
FROM generate_series(1, 200) g;
INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior)
SELECT 'pm_demo_saved_' || lpad(g::text, 8, '0'), 'bu' || lpad(g::text, 8, '0'), 'visa', '4242', 12, 2030, 'ok'
FROM generate_series(1, 40000) g;
INSERT INTO "SavedCard" (id, "userId", "paymentMethodId", brand, last4, "expMonth", "expYear", "isDefault")
SELECT 'bsc' || lpad(g::text, 8, '0'), 'bu' || lpad(g::text, 8, '0'), 'pm_demo_saved_' || lpad(g::text, 8, '0'), 'visa', '4242', 12, 2030, true
FROM generate_series(1, 40000) g;

-- hot events for the one-event commit scenarios (issue 32): free, no pledges yet; the scenario sets the
-- goal (and capacity) after its warm-up so the threshold is crossed mid-run. bh00000001 keeps accepting after the
-- threshold with no capacity (no waitlist); bh00000002 has a capacity (set with the goal) and a waitlist.
INSERT INTO "Campaign" (id, title, description, goal, deadline, "createdAt", "updatedAt", "creatorId", "creatorEmail",
  status, "approvalStatus", "pactType", "ticketPriceCents", "isTest", "acceptAfterThreshold", capacity)
SELECT 'bh' || lpad(g::text, 8, '0'), 'Benchmark hot event ' || g, 'A free benchmark event that every commit of its scenario goes to.',
       10000, now() + interval '30 days', now() - interval '400 days', now(), 'bu00000001', 'bench1@bench.test',
       'pending', 'approved', 'paction', 0, true, g = 1, CASE WHEN g = 2 THEN 10000 END
FROM generate_series(1, 2) g;
COMMIT;
ANALYZE;
