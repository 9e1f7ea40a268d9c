"use client";

import { useEffect, useState } from "react";

/**
 * The little of NextAuth's browser client that every page needs: read the session, sign out, and
 * tell other components (this tab and other tabs) that the session changed. next-auth/react's
 * SessionProvider costs ~10 kB gzipped on every page; this talks to the same endpoints
 * (/api/auth/session, /api/auth/csrf, /api/auth/signout) and speaks its cross-tab message
 * ("nextauth.message" in localStorage), so the two can be mixed.
 */

export type SessionUser = { email?: string | null; name?: string | null; isAdmin?: boolean };

const CROSS_TAB_KEY = "nextauth.message";
const SAME_TAB_EVENT = "pactnexus:session-changed";

/** The signed-in user; `{}` when the answer is "nobody" (so callers can tell it from "not known yet": null). */
async function fetchSessionUser(): Promise<SessionUser | null> {
  const res = await fetch("/api/auth/session", {
    cache: "no-store",
    headers: { "content-type": "application/json" },
  });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { user?: SessionUser } | null;
  return body?.user ?? {};
}

/** Call after a sign-in or sign-out: the account bar (this tab and other open tabs) reloads the session. */
export function announceSessionChange(trigger: "signin" | "signout") {
  window.dispatchEvent(new Event(SAME_TAB_EVENT));
  try {
    localStorage.setItem(
      CROSS_TAB_KEY,
      JSON.stringify({ event: "session", data: { trigger }, timestamp: Math.floor(Date.now() / 1000) }),
    );
  } catch {
    // Storage disabled: other tabs catch up when they regain focus.
  }
}

/** Signs out through NextAuth's endpoint (it clears the session cookie), without leaving the page. */
export async function signOutHere(): Promise<void> {
  const csrf = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as {
    csrfToken?: string;
  };
  await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      csrfToken: csrf.csrfToken ?? "",
      callbackUrl: window.location.href,
      json: "true",
    }),
  });
  announceSessionChange("signout");
}

/**
 * The signed-in user; `{}` (no email) for a visitor; null while not known yet. Re-read when the tab becomes
 * visible again, after announceSessionChange, and when another tab signs in or out.
 */
export function useSessionUser(): SessionUser | null {
  const [user, setUser] = useState<SessionUser | null>(null);
  useEffect(() => {
    let latest = 0;
    const load = () => {
      const call = ++latest;
      fetchSessionUser()
        .then((u) => call === latest && setUser(u))
        .catch(() => {
          // Offline or server busy: keep what is shown; the next focus retries.
        });
    };
    const onVisible = () => document.visibilityState === "visible" && load();
    const onStorage = (e: StorageEvent) => e.key === CROSS_TAB_KEY && load();
    load();
    window.addEventListener(SAME_TAB_EVENT, load);
    window.addEventListener("storage", onStorage);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      latest = -1;
      window.removeEventListener(SAME_TAB_EVENT, load);
      window.removeEventListener("storage", onStorage);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
  return user;
}
