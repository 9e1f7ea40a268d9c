// Demo data for `npm start` on an empty database (skipped with SEED_DEMO=false); the data and how
// it is made are in scripts/demo-data.ts. Run again by hand with `npm run db:seed` (it refuses a
// database that already has users).
//
// Nothing may be queued for workers that are not running: the seed does the jobs' work itself. Set
// before the app's modules load, since some read the environment as they load.
process.env.JOBS_ENABLED = "false";

void (async () => {
  const { disconnectDb } = await import("@/lib/db");
  try {
    const { seedDemo } = await import("@/scripts/demo-data");
    await seedDemo();
    await disconnectDb();
  } catch (err) {
    console.error(err);
    await disconnectDb();
    process.exit(1);
  }
})();
