import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { isClearMessage, nastyInput, nastyValue, NUM_RUNS } from "@/tests/security/arbitraries";

/** Every zod input schema in lib/<domain>/schema.ts (schema factories such as createCampaignSchema() included). */
const modules = import.meta.glob<Record<string, unknown>>("/lib/**/schema.ts", { eager: true });

type AnySchema = z.ZodType & { shape?: Record<string, unknown>; _zod: { def: Record<string, unknown> } };
const isSchema = (v: unknown): v is AnySchema =>
  typeof v === "object" && v !== null && typeof (v as { safeParse?: unknown }).safeParse === "function";

function collectSchemas(): [string, AnySchema][] {
  const out: [string, AnySchema][] = [];
  for (const [file, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (isSchema(value)) out.push([`${file}#${name}`, value]);
      else if (typeof value === "function" && /Schema$/.test(name) && value.length === 0) {
        const made = (value as () => unknown)();
        if (isSchema(made)) out.push([`${file}#${name}()`, made]);
      }
    }
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

/** The object keys a schema expects, looking through pipes, transforms, optional and default wrappers. */
function keysOf(s: unknown, depth = 0): string[] {
  if (!s || typeof s !== "object" || depth > 6) return [];
  const schema = s as AnySchema;
  if (schema.shape && typeof schema.shape === "object") return Object.keys(schema.shape);
  const def = schema._zod?.def ?? {};
  return keysOf(def.in, depth + 1).concat(keysOf(def.innerType, depth + 1));
}

const schemas = collectSchemas();

describe("fuzz: every zod input schema", () => {
  it("finds the schemas of every domain (guards against an empty glob)", () => {
    const files = new Set(schemas.map(([k]) => k.split("#")[0]));
    expect(files.size).toBe(Object.keys(modules).length);
    expect(schemas.length).toBeGreaterThanOrEqual(20);
  });

  for (const [name, schema] of schemas) {
    it(`${name}: ${NUM_RUNS} hostile inputs never throw; every rejection carries a message`, () => {
      const keys = keysOf(schema);
      const input = keys.length ? nastyInput(keys) : nastyValue();
      let rejected = 0;
      fc.assert(
        fc.property(input, (value) => {
          const result = schema.safeParse(value);
          if (result.success) return true;
          rejected++;
          expect(result.error.issues.length).toBeGreaterThan(0);
          for (const issue of result.error.issues)
            expect(isClearMessage(issue.message), `unclear message ${JSON.stringify(issue.message)}`).toBe(
              true,
            );
          return true;
        }),
        { numRuns: NUM_RUNS },
      );
      // a fuzzer that never gets refused is not testing anything (schemas with .catch() accept everything)
      const catchesAll =
        JSON.stringify(Object.values(schema._zod.def)).includes('"catch"') ||
        /homeQuerySchema|outboxPageSchema/.test(name);
      if (!catchesAll) expect(rejected).toBeGreaterThan(NUM_RUNS / 10);
    });
  }
});
