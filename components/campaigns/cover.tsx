import { coverSrcSet, coverUrl } from "@/lib/images/limits";

/** Gradients for events without an uploaded cover, picked by the event's id (stable per event). */
const GRADIENTS = [
  "from-indigo-500 via-purple-500 to-pink-500",
  "from-sky-500 via-cyan-500 to-emerald-400",
  "from-amber-400 via-orange-500 to-rose-500",
  "from-emerald-500 via-teal-500 to-sky-600",
  "from-fuchsia-500 via-violet-500 to-indigo-600",
  "from-rose-400 via-red-500 to-amber-500",
];

function pick(id: string): string {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return GRADIENTS[h % GRADIENTS.length];
}

/**
 * An event's cover (issue 17): the organizer's image at the width the layout needs (srcset), or a
 * generated one — a gradient and the title's first letter — when none was uploaded. Decorative: the
 * title is always next to it, so the image has an empty alt.
 */
export function Cover({
  id,
  title,
  coverId,
  sizes,
  className = "",
  aspect = "aspect-[16/9]",
  eager = false,
}: {
  id: string;
  title: string;
  coverId: string | null;
  sizes: string;
  className?: string;
  /** the box's shape (Tailwind aspect classes, responsive ones included) */
  aspect?: string;
  eager?: boolean;
}) {
  if (coverId) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- served already sized (WebP at three widths) with a srcset
      <img
        src={coverUrl(coverId, "medium")}
        srcSet={coverSrcSet(coverId)}
        sizes={sizes}
        alt=""
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className={`${aspect} w-full bg-slate-100 object-cover ${className}`}
      />
    );
  }
  const letter = Array.from(title.trim())[0]?.toUpperCase() ?? "?";
  return (
    <div
      aria-hidden
      className={`flex ${aspect} w-full items-center justify-center bg-gradient-to-br ${pick(id)} ${className}`}
    >
      <span className="text-5xl font-black text-white/85 drop-shadow-sm">{letter}</span>
    </div>
  );
}
