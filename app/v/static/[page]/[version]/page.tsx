import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RoadmapView } from "@/components/roadmap/roadmap-view";
import { verifiedVersion } from "@/lib/cache/signed-path";
import { renderAsVisitor } from "@/lib/access/viewer";

// Static pages, served by proxy.ts as cached copies (like the visitors' pages) so that each copy
// carries a CSP nonce of its own instead of 'unsafe-inline' (issue 13 item 8). Only a path the
// proxy signed is rendered; outside requests for /v/ never get here.
const PAGES = { roadmap: RoadmapView } as const;
const META: Record<keyof typeof PAGES, Metadata> = {
  roadmap: {
    title: "Roadmap",
    description: "Where PactNexus is going: from coordinated events to mutually assured cooperation.",
  },
};

export const dynamicParams = true;
export const revalidate = false;
export async function generateStaticParams() {
  return [];
}

type Props = { params: Promise<{ page: string; version: string }> };

async function resolve(params: Props["params"]) {
  const { page, version } = await params;
  if (!(page in PAGES) || !verifiedVersion(`static/${page}`, version)) notFound();
  renderAsVisitor();
  return page as keyof typeof PAGES;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return META[await resolve(params)];
}

export default async function StaticCopy({ params }: Props) {
  const View = PAGES[await resolve(params)];
  return <View />;
}
