import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runAction } from "@/lib/actions";
import { handle } from "@/lib/http";
import { redactSecrets } from "@/lib/security/redact";

afterEach(() => vi.unstubAllEnvs());

const SECRETS = {
  stripe: "sk_live_51HxYzAbCdEfGhIjKlMnOp",
  webhook: "whsec_9f8e7d6c5b4a3210",
  nextauth: "n3xtAuthS3cret-value-xyz",
  dbPassword: "pg-pa55word",
  jwt: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abcdefghijkl.mnopqrstuvwx",
  password: "hunter2-correct",
  argon: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
  clientSecret: "seti_1Abc_secret_ZyXwVu123",
};

/** An error as a library might produce it, quoting credentials in its message. */
function leakyError() {
  return new Error(
    `Invalid \`db.user.create()\` invocation: { email: "a@b.c", password: "${SECRETS.password}", passwordHash: "${SECRETS.argon}" } ` +
      `while connecting to postgresql://app:${SECRETS.dbPassword}@db.internal:5432/pactnexus with key ${SECRETS.stripe}, ` +
      `webhook ${SECRETS.webhook}, cookie next-auth.session-token=${SECRETS.jwt}; Authorization: Bearer ${SECRETS.nextauth}; client ${SECRETS.clientSecret}`,
  );
}

const expectNoSecret = (text: string) => {
  for (const [name, value] of Object.entries(SECRETS)) expect(text, `${name} leaked`).not.toContain(value);
};

describe("secrets are never logged", () => {
  it("redactSecrets masks keys, passwords, hashes, tokens, cookies and configured secret values", () => {
    vi.stubEnv("NEXTAUTH_SECRET", SECRETS.nextauth);
    const out = redactSecrets(leakyError().message + ` raw ${SECRETS.nextauth}`);
    expectNoSecret(out);
    expect(out).toContain("a@b.c"); // ordinary context stays readable
    expect(out).toContain("db.internal:5432/pactnexus");
    expect(out).toContain("[NEXTAUTH_SECRET]");
  });

  it("a route handler's unexpected error is logged without secrets and answered with a generic 500", async () => {
    vi.stubEnv("NEXTAUTH_SECRET", SECRETS.nextauth);
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation(
      (...a: unknown[]) => void logged.push(a.map(String).join(" ")),
    );
    const res = await handle(async (_req: Request) => {
      throw leakyError();
    })(new Request("http://localhost/api/x", { method: "POST" }));
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({
      error: { code: "INTERNAL", message: "Something went wrong. Please try again." },
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("[api] unexpected error");
    expect(logged[0]).toContain("Invalid `db.user.create()` invocation");
    expectNoSecret(logged[0]);
  });

  it("a server action's unexpected error is logged without secrets and answered with the fallback text", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation(
      (...a: unknown[]) => void logged.push(a.map(String).join(" ")),
    );
    const result = await runAction("Error posting comment. Please try again.", async () => {
      throw Object.assign(leakyError(), { cause: new Error(`inner ${SECRETS.stripe}`) });
    });
    expect(result).toEqual({ ok: false, error: "Error posting comment. Please try again." });
    expect(logged[0]).toContain("cause:");
    expectNoSecret(logged[0]);
  });

  it(".env.example holds no secret: secret variables are empty, URLs carry only placeholder credentials", () => {
    const lines = readFileSync(".env.example", "utf8").split("\n");
    const vars = lines
      .map((l) => /^#?\s*([A-Z][A-Z0-9_]+)=(\S*)/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map(([, name, value]) => ({ name, value: value.replace(/^"|"$/g, "") }));
    expect(vars.map((v) => v.name)).toEqual(
      expect.arrayContaining([
        "NEXTAUTH_SECRET",
        "STRIPE_SECRET_KEY",
        "STRIPE_WEBHOOK_SECRET",
        "GOOGLE_CLIENT_SECRET",
        "DATABASE_URL",
        "SMTP_URL",
      ]),
    );
    for (const v of vars) {
      if (/SECRET|KEY|TOKEN|PASSWORD/.test(v.name)) expect(v.value, v.name).toBe("");
      const creds = /:\/\/([^:@/\s]+):([^@\s]+)@/.exec(v.value);
      if (creds) expect(`${creds[1]}:${creds[2]}`, v.name).toBe("user:password");
    }
    const text = lines.join("\n");
    expect(text).not.toMatch(
      /\b(sk|rk)_(live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9]+|\beyJ[A-Za-z0-9_-]{10,}/,
    );
  });

  it("no server code logs raw errors, request bodies, headers, cookies or env (console.* calls are all known)", () => {
    const roots = ["lib", "app", "components", "proxy.ts", "instrumentation.ts"];
    const files: string[] = [];
    const walk = (p: string) => {
      if (!statSync(p, { throwIfNoEntry: false })) return;
      if (statSync(p).isDirectory()) {
        if (p.endsWith("generated")) return;
        for (const f of readdirSync(p)) walk(path.join(p, f));
      } else if (/\.(ts|tsx)$/.test(p) && !/\.test\.tsx?$/.test(p)) files.push(p);
    };
    roots.forEach(walk);
    const offenders: string[] = [];
    for (const f of files) {
      readFileSync(f, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (!/console\.(log|error|warn|info|debug)\(/.test(line)) return;
          // Allowed (besides logUnexpected itself): warnings that print only an error's message with ids.
          if (f === path.join("lib", "security", "redact.ts")) return;
          // Also allowed: fixed texts (string literals, possibly chosen by a condition).
          const args = /console\.\w+\((.*)\);?\s*$/.exec(line)?.[1] ?? "";
          const fixedText =
            !args.includes("${") &&
            /^[\s\w?:!=&|()]*$/.test(args.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "")) &&
            !/\b(err|error|e|req|request|body|env|headers|cookies|input|data|session|token|user)\b/.test(
              args.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, ""),
            );
          const ok =
            fixedText ||
            /console\.warn\(`[^`]*\$\{\(?err(?: as Error\))?\)?\??\.message\}[^`]*`\)/.test(line);
          const leaky = /req(uest)?\.(body|headers)|cookies\(|process\.env|password|secret|token/i.test(line);
          if (!ok || leaky) offenders.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
