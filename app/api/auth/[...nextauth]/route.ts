import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions, sessionCookie } from "@/lib/auth/options";

// The session cookie, so the Google callback can refuse to link a Google account of another address
// to whoever is signed in (issue 31, lib/auth/options.ts).
const handler = (req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) =>
  NextAuth(
    req as never,
    ctx as never,
    authOptions({ sessionToken: req.cookies.get(sessionCookie().name)?.value }),
  );

export { handler as GET, handler as POST };
