"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import { LogoutButton } from "@/components/auth/logout-button";
import { useSessionUser, type SessionUser } from "@/components/auth/session-client";
import { YourTime } from "@/components/time/your-time";

const barLink = "rounded-full px-2.5 py-1 font-medium text-slate-100 hover:bg-white/10";
const menuLink = "block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100";

/**
 * The one bar at the top of every page (issue 34 item 7): the site's name, its links (SPEC §2) and
 * the account bar for a signed-in viewer (SPEC §2: Profile, Admin for admins, the email, Logout).
 * Issue 17 gave the account its own sticky strip above the header; on a phone that made two bars.
 * Now both share one sticky row: on a phone the site's links and the account's Profile, Admin and
 * email fold into a "Menu", and Logout stays in the bar (and on the profile).
 *
 * It is a client component so that the layout reads no cookies and visitors' pages can be served
 * from the cache (lib/cache); the session (with isAdmin read from the database) comes from
 * NextAuth's session endpoint (components/auth/session-client). For a signed-in viewer it also asks
 * /api/me/attention — per person, never cached — and shows a failed payment's banner under the bar
 * on every page until it is paid (issue 34 item 2). A visitor makes no such request.
 */
export function AccountBar({ children }: { children: React.ReactNode }) {
  const user = useSessionUser();
  const signedIn = Boolean(user?.email);
  const menu = useRef<HTMLDetailsElement>(null);
  const closeMenu = () => menu.current?.removeAttribute("open");
  return (
    <>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:gap-5 sm:px-4">
          <Link href="/" className="shrink-0 text-lg font-bold text-brand-700">
            PactNexus
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
            {children}
          </nav>
          <details ref={menu} className="relative sm:hidden">
            <summary className="flex cursor-pointer list-none items-center gap-1 rounded-full px-3 py-1 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-200 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              Menu <span aria-hidden>▾</span>
            </summary>
            <div
              onClick={(e) => (e.target as HTMLElement).closest("a") && closeMenu()}
              className="absolute left-0 top-full z-50 mt-2 w-60 space-y-1 rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-200"
            >
              <nav aria-label="Site" className="[&_a]:block">
                {children}
              </nav>
              {signedIn && user && <MenuAccount user={user} />}
            </div>
          </details>
          <div className="ml-auto flex min-w-0 justify-end">
            {user === null ? null : signedIn ? <SignedIn user={user} /> : <SignInLink />}
          </div>
        </div>
      </header>
      {signedIn && <PaymentBanner key={user?.email ?? ""} />}
    </>
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

/** The account bar (SPEC §2). On a phone only Logout shows here; the rest is in the Menu. */
function SignedIn({ user }: { user: SessionUser }) {
  return (
    <nav
      aria-label="Account"
      className="flex max-w-full min-w-0 items-center gap-1 rounded-full bg-slate-900 py-1 pl-1 pr-1 text-sm text-white shadow-sm"
    >
      <Link href="/profile" className={`${barLink} hidden sm:inline`}>
        Profile
      </Link>
      {user.isAdmin && (
        <Link href="/admin" className={`${barLink} hidden sm:inline`}>
          Admin
        </Link>
      )}
      <span className="hidden min-w-0 truncate px-2 text-slate-300 sm:inline" title={user.email ?? undefined}>
        {user.email}
      </span>
      <LogoutButton className="shrink-0 rounded-full bg-white px-3 py-1 font-semibold text-slate-900 hover:bg-slate-200 disabled:opacity-60" />
    </nav>
  );
}

/** The phone's menu: who is signed in, and the account's links the bar has no room for. */
function MenuAccount({ user }: { user: SessionUser }) {
  return (
    <div className="border-t border-slate-100 pt-1">
      <p className="truncate px-3 py-1 text-xs text-slate-500" title={user.email ?? undefined}>
        Signed in as {user.email}
      </p>
      {user.isAdmin && (
        <Link href="/admin" className={menuLink}>
          Admin
        </Link>
      )}
    </div>
  );
}

type Attention = { pledgeId: string; text: string; payUrl: string; dueAt: string; zone: string };

/**
 * The signed-in viewer's failed payments (app/api/me/attention), each with the way to pay. Read
 * on every page and again when the tab comes back into view (a payment made in another tab).
 */
function PaymentBanner() {
  const [items, setItems] = useState<Attention[]>([]);
  // read again on each page: paid on the pay page, the banner goes on the next one
  const pathname = usePathname();
  useEffect(() => {
    let live = true;
    const load = () =>
      fetch("/api/me/attention", { cache: "no-store" })
        .then((r) => (r.ok ? r.json() : null))
        .then((body: { payments?: Attention[] } | null) => live && body && setItems(body.payments ?? []))
        .catch(() => {
          // offline or busy: the banner waits for the next load
        });
    const onVisible = () => document.visibilityState === "visible" && load();
    load();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      live = false;
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [pathname]);
  if (items.length === 0) return null;
  return (
    <div role="region" aria-label="Payment needed" className="border-b border-red-200 bg-red-50">
      <ul className="mx-auto max-w-6xl space-y-1 px-4 py-2 text-sm text-red-900">
        {items.map((a) => (
          <li key={a.pledgeId} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {/* [&>span]: the viewer's time in the banner's red (slate on red-50 is below AA contrast) */}
            <span className="[&>span]:text-red-900">
              <span className="font-semibold">{a.text}</span>
              {/* the pay-by in the event's zone, and the viewer's own where it differs */}
              <YourTime iso={a.dueAt} zone={a.zone} />
            </span>
            <Link href={a.payUrl} className="font-semibold text-red-800 underline hover:text-red-950">
              Update card and pay
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
