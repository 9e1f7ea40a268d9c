import { notFound } from "next/navigation";

// Catch-all: any path no other route claims renders the 404 page (with a 404 status).
export default function CatchAll() {
  notFound();
}
