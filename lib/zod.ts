import { config } from "zod";

/**
 * Import for its effect, before `zod`, in every schema module that forms also import:
 *   import "@/lib/zod";
 *   import { z } from "zod";
 * In the browser zod is told not to compile parsers with `new Function`: our CSP has no
 * 'unsafe-eval', and zod's probe for it at the first z.object() is reported as a CSP violation
 * (Lighthouse "issues in DevTools") even though zod catches it. The server keeps the compiled
 * parsers. (Re-exporting zod's `z` from here would defeat tree shaking and ship all its locales.)
 */
if (typeof window !== "undefined") config({ jitless: true });
