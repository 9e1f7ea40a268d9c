import { getViewer } from "@/lib/access/viewer";
import { homeQuerySchema } from "@/lib/campaigns/filters";
import { HomeView } from "@/components/home/home-view";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Signed-in viewers (and requests proxy.ts does not send to the visitor cache) are rendered here.
export default async function HomePage({ searchParams }: Props) {
  const query = await searchParams;
  const home = homeQuerySchema.parse(query);
  const viewer = await getViewer();
  return (
    <HomeView
      signedIn={Boolean(viewer)}
      isAdmin={Boolean(viewer?.isAdmin)}
      query={home}
      notice={query.notice}
    />
  );
}
