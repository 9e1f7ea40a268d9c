import { formatEventRange, formatInZone } from "@/lib/campaigns/event-time";
import { YourTime } from "@/components/time/your-time";

/**
 * A time as every page shows it (issue 16): in the event's zone with its abbreviation, inside
 * <time datetime>, and the viewer's own time added by the browser when their clock differs.
 */
export function EventTime({ at, zone, end }: { at: Date; zone: string; end?: Date | null }) {
  const iso = at.toISOString();
  return (
    <>
      <time dateTime={iso}>
        {end === undefined ? formatInZone(at, zone) : formatEventRange(at, end, zone)}
      </time>
      <YourTime iso={iso} zone={zone} />
    </>
  );
}
