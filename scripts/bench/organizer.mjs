// The organizer's own event page when the machine is not loaded (issue 35 item 2: p50 under 100 ms).
// The loaded row (50 connections) measures throughput; these two measure one request at a time:
// the organizer's copy as it is served between changes, and the page when every view follows a
// change (a new version before each request, so each one is rendered: the cost a busy event pays).

const pct = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

async function timedViews({ url, cookie, seconds, before }) {
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    if (before) await before();
    const t0 = performance.now();
    try {
      const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) non2xx++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: Math.round(latencies.length / seconds),
    p50: Math.round(pct(latencies, 50)),
    p99: Math.round(pct(latencies, 99)),
    non2xx,
    errors,
    total: latencies.length,
  };
}

/** Two rows: unchanged between views, and changed before each view (both one request at a time). */
export async function organizerUnloaded({ base, path, cookie, url, q, server, campaignId, seconds = 5 }) {
  const page = `${base}${path}`;
  await timedViews({ url: page, cookie, seconds: 1 }); // warm-up
  const steady = await timedViews({ url: page, cookie, seconds });
  // a change the page shows (the same trigger a commit or comment fires moves the version)
  const touch = () => q(url, `UPDATE "Campaign" SET "updatedAt" = now() WHERE id = $1`, [campaignId]);
  const changed = await timedViews({ url: page, cookie, seconds, before: touch });
  const rss = Math.round(server.peakRss());
  return [
    {
      scenario: "signed-in event page (its organizer, one request at a time: unloaded)",
      kind: "organizer-unloaded",
      ...steady,
      peakRssMb: rss,
    },
    {
      scenario:
        "signed-in event page (its organizer, a change before each view: every view rendered, one at a time)",
      kind: "organizer-unloaded",
      ...changed,
      peakRssMb: rss,
    },
  ];
}
