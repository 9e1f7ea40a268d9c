import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and the e2e server wait. */
export async function GET() {
  const ok = await checkHealth();
  return Response.json(
    ok ? { status: "ok" } : { status: "unavailable", message: "The database is unreachable." },
    {
      status: ok ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    },
  );
}
