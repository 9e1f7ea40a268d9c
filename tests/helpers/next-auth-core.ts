import { createRequire } from "node:module";
import path from "node:path";

/**
 * NextAuth's request handler, `next-auth/core` AuthHandler: what app/api/auth/[...nextauth] runs,
 * framework-free. The package's `exports` map does not list it, so it is loaded by file path.
 */
export type AuthRequest = {
  origin?: string;
  method?: string;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown> | object;
  action: string;
  providerId?: string;
  error?: string;
};
export type AuthResponse<Body = unknown> = {
  status?: number;
  body?: Body;
  redirect?: string;
  cookies?: Array<{ name: string; value: string; options?: { maxAge?: number } }>;
};

export const { AuthHandler } = createRequire(import.meta.url)(
  path.resolve("node_modules/next-auth/core/index.js"),
) as {
  AuthHandler: <Body = unknown>(params: {
    req: AuthRequest;
    options: unknown;
  }) => Promise<AuthResponse<Body>>;
};
