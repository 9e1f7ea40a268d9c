import type { Metadata } from "next";
import { RoadmapView } from "@/components/roadmap/roadmap-view";

export const metadata: Metadata = {
  title: "Roadmap",
  description: "Where PactNexus is going: from coordinated events to mutually assured cooperation.",
};

// GET /roadmap is served by proxy.ts from its cached copy (app/v/static), which carries a CSP nonce;
// this route answers only what the proxy does not rewrite.
export default function RoadmapPage() {
  return <RoadmapView />;
}
