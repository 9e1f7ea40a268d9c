"use client";

import Link from "next/link";
import { LogoutButton } from "@/components/auth/logout-button";
import { useSessionUser } from "@/components/auth/session-client";

const barLink = "rounded-full px-2.5 py-1 font-medium text-slate-100 hover:bg-white/10";

/**
 * The fixed top-right bar for a signed-in viewer (SPEC §2): Profile, Admin (admins only; the admin
 * pages check the role again on the server), the email, Logout. It is a client component so that
 * the layout reads no cookies and visitors' pages can be served from the cache (lib/cache); the
 * session (with isAdmin read from the database) comes from NextAuth's session endpoint and updates
 * on sign-in and sign-out (components/auth/session-client, without next-auth/react's bundle).
 */
export function AccountBar() {
  const user = useSessionUser();
  if (!user?.email) return null;
  return (
    <>
      <div aria-hidden className="h-10" />
      <nav
        aria-label="Account"
        className="fixed right-2 top-2 z-40 flex max-w-[calc(100vw-1rem)] items-center gap-1 rounded-full bg-slate-900/95 py-1 pl-1 pr-1 text-sm text-white shadow-lg ring-1 ring-white/10 backdrop-blur"
      >
        <Link href="/profile" className={barLink}>
          Profile
        </Link>
        {user.isAdmin && (
          <Link href="/admin" className={barLink}>
            Admin
          </Link>
        )}
        <span className="min-w-0 truncate px-2 text-slate-300" title={user.email}>
          {user.email}
        </span>
        <LogoutButton className="shrink-0 rounded-full bg-white px-3 py-1 font-semibold text-slate-900 hover:bg-slate-200 disabled:opacity-60" />
      </nav>
    </>
  );
}
