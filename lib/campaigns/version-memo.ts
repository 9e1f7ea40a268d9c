/**
 * Reads of an event's heavy page parts (the commitment page with its count, the comment page, the
 * cascade's histogram) memoised in this process by the event's version (issue 35 item 2): the
 * Campaign's "updatedAt", which triggers move on every change those parts show (migration
 * visitor_cache_versions), read from Postgres by the same request (getCampaignDetail) before it
 * asks here. A new version is a new key, so a stale entry can never be served on any instance; an
 * entry is at least as new as its key, because the version is read before the data is.
 *
 * The entries hold raw rows as the database gave them, never a viewer's presentation: every caller
 * applies lib/privacy per request, so nothing one viewer may see reaches another's page.
 */
const MAX_ENTRIES = 256;

export type VersionMemo<T> = {
  (key: VersionKey, load: () => Promise<T>): Promise<T>;
  size(): number;
};

/** What identifies one read: the event, its version (updatedAt) and the read's own arguments. */
export type VersionKey = { campaignId: string; version: Date | null | undefined; args?: string };

/** A memo of at most `max` reads, oldest dropped first; without a version it always loads. */
export function versionMemo<T>(max = MAX_ENTRIES): VersionMemo<T> {
  const entries = new Map<string, Promise<T>>();
  const memo = (key: VersionKey, load: () => Promise<T>): Promise<T> => {
    if (!key.version) return load();
    const k = `${key.campaignId}\u0000${key.version.getTime()}\u0000${key.args ?? ""}`;
    const hit = entries.get(k);
    if (hit) {
      entries.delete(k); // most recently used last
      entries.set(k, hit);
      return hit;
    }
    const p = load();
    entries.set(k, p);
    p.catch(() => entries.get(k) === p && entries.delete(k)); // a failed read is not kept
    while (entries.size > max) entries.delete(entries.keys().next().value as string);
    return p;
  };
  return Object.assign(memo, { size: () => entries.size });
}
