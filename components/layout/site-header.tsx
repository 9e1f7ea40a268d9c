import Link from "next/link";
import { LogoutButton } from "@/components/auth/logout-button";
import { getViewer, type Viewer } from "@/lib/auth/viewer";
import { isDatabaseUnavailable } from "@/lib/errors";

const navLink = "text-sm font-medium text-slate-700 hover:text-brand-700";
const barLink = "rounded-full px-2.5 py-1 font-medium text-slate-100 hover:bg-white/10";

/** The viewer for the header; an unreachable database shows the signed-out header instead of failing every page. */
async function headerViewer(): Promise<Viewer | null> {
  try {
    return await getViewer();
  } catch (err) {
    if (isDatabaseUnavailable(err)) return null;
    throw err;
  }
}

/**
 * Site header (SPEC §2 header links) and, for a signed-in viewer, the fixed top-right bar: Profile,
 * Admin (admins only; the admin pages check the role again on the server), the email, Logout.
 */
export async function SiteHeader() {
  const viewer = await headerViewer();
  return (
    <header className={`border-b border-slate-200 bg-white ${viewer ? "pt-12" : ""}`}>
      {viewer && (
        <nav
          aria-label="Account"
          className="fixed right-2 top-2 z-40 flex max-w-[calc(100vw-1rem)] items-center gap-1 rounded-full bg-slate-900/95 py-1 pl-1 pr-1 text-sm text-white shadow-lg ring-1 ring-white/10 backdrop-blur"
        >
          <Link href="/profile" className={barLink}>
            Profile
          </Link>
          {viewer.isAdmin && (
            <Link href="/admin" className={barLink}>
              Admin
            </Link>
          )}
          <span className="min-w-0 truncate px-2 text-slate-300" title={viewer.email}>
            {viewer.email}
          </span>
          <LogoutButton className="shrink-0 rounded-full bg-white px-3 py-1 font-semibold text-slate-900 hover:bg-slate-200 disabled:opacity-60" />
        </nav>
      )}
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-5 gap-y-1 px-4 py-3 sm:justify-start">
        <Link href="/" className="basis-full text-lg font-bold text-brand-700 sm:mr-auto sm:basis-auto">
          PactNexus
        </Link>
        <Link href="/" className={navLink}>
          Home
        </Link>
        <Link href="/profile" className={navLink}>
          Profile
        </Link>
        <Link href="/create-campaign" className={navLink}>
          Create Campaign
        </Link>
        <Link href="/roadmap" className={navLink}>
          Roadmap
        </Link>
      </nav>
    </header>
  );
}
