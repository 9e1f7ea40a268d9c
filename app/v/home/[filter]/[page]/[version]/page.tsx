import { notFound } from "next/navigation";
import { renderAsVisitor } from "@/lib/access/viewer";
import { homeQuerySchema } from "@/lib/campaigns/filters";
import { HomeView } from "@/components/home/home-view";
import { MEMBER_HOME } from "@/lib/cache/visitor-version";
import { verifiedVersion } from "@/lib/cache/signed-path";

// The visitors' home, cached (lib/cache/visitor-version.ts, proxy.ts): proxy.ts rewrites a
// signed-out "/?filter=&page=" here with the current version in the path, so every change of data
// makes a new cache entry and no cached copy is ever served stale, on any instance. A version with
// the MEMBER_HOME prefix is the copy for signed-in non-admins (signed-in hero; nothing personal).
export const dynamicParams = true;
export const revalidate = false;
export async function generateStaticParams() {
  return [];
}

type Props = { params: Promise<{ filter: string; page: string; version: string }> };

export default async function VisitorHomePage({ params }: Props) {
  renderAsVisitor();
  const raw = await params;
  // Only a version the proxy signed is rendered (and so cached): anything else is not found.
  const version = verifiedVersion(`home/${raw.filter}/${raw.page}`, raw.version);
  if (!version) notFound();
  const parsed = homeQuerySchema.safeParse({ filter: raw.filter, page: raw.page });
  if (!parsed.success || String(parsed.data.page) !== raw.page || parsed.data.filter !== raw.filter)
    notFound();
  return <HomeView signedIn={version.startsWith(MEMBER_HOME)} isAdmin={false} query={parsed.data} />;
}
