"use client";

import Link from "next/link";
import { LogoutButton } from "@/components/auth/logout-button";
import { useSessionUser } from "@/components/auth/session-client";

const barLink = "rounded-full px-2.5 py-1 font-medium text-slate-100 hover:bg-white/10";

/**
 * The top-right bar for a signed-in viewer (SPEC §2): Profile, Admin (admins only; the admin
 * pages check the role again on the server), the email, Logout. It is a client component so that
 * the layout reads no cookies and visitors' pages can be served from the cache (lib/cache); the
 * session (with isAdmin read from the database) comes from NextAuth's session endpoint and updates
 * on sign-in and sign-out (components/auth/session-client, without next-auth/react's bundle).
 *
 * Issue 17: it lives in a strip of its own that sticks to the top of the window — always there and
 * always the same height, so it never covers the page and nothing moves when the session arrives.
 * Visitors see "Sign in" there.
 */
export function AccountBar() {
  const user = useSessionUser();
  return (
    <div className="sticky top-0 z-40 flex h-11 items-center justify-end border-b border-slate-200 bg-white/95 px-2 backdrop-blur">
      {user === null ? null : user.email ? <SignedIn user={user} /> : <SignInLink />}
    </div>
  );
}

function SignInLink() {
  return (
    <Link
      href="/profile"
      className="rounded-full px-3 py-1 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-100 hover:bg-brand-50"
    >
      Sign in
    </Link>
  );
}

function SignedIn({ user }: { user: NonNullable<ReturnType<typeof useSessionUser>> }) {
  return (
    <>
      <nav
        aria-label="Account"
        className="flex max-w-full min-w-0 items-center gap-1 rounded-full bg-slate-900 py-1 pl-1 pr-1 text-sm text-white shadow-sm"
      >
        <Link href="/profile" className={barLink}>
          Profile
        </Link>
        {user.isAdmin && (
          <Link href="/admin" className={barLink}>
            Admin
          </Link>
        )}
        <span className="min-w-0 truncate px-2 text-slate-300" title={user.email ?? undefined}>
          {user.email}
        </span>
        <LogoutButton className="shrink-0 rounded-full bg-white px-3 py-1 font-semibold text-slate-900 hover:bg-slate-200 disabled:opacity-60" />
      </nav>
    </>
  );
}
