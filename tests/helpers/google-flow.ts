import type { AuthOptions } from "next-auth";
import { AuthHandler, type AuthRequest } from "./next-auth-core";

/**
 * Drives "Continue with Google" through NextAuth's own handler (next-auth/core, the code the route
 * handler runs) and a real OpenID Connect issuer on loopback (scripts/lib/local-oidc.mjs), with
 * HTTP and cookies only: sign-in request → the issuer's login form → its consent form (or its
 * Cancel link) → NextAuth's callback, which exchanges the code for tokens at the issuer.
 */
export const APP_ORIGIN = "http://localhost:3000";
export const GOOGLE_CALLBACK = `${APP_ORIGIN}/api/auth/callback/google`;

type Jar = Record<string, string>;

function keepCookies(
  jar: Jar,
  cookies: Array<{ name: string; value: string; options?: { maxAge?: number } }> = [],
) {
  for (const c of cookies) {
    if (c.value === "" || (c.options?.maxAge ?? 1) <= 0) delete jar[c.name];
    else jar[c.name] = c.value;
  }
}

/** A browser's cookie jar for one origin, enough for the issuer's interaction cookies. */
function issuerCookies(jar: Map<string, string>, res: Response) {
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a));
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

export type GoogleFlowResult = {
  /** Where NextAuth sends the browser at the end (an app URL). */
  redirect: string;
  /** The app's cookies after the callback (the session cookie among them when signed in). */
  cookies: Jar;
};

/**
 * `options` is NextAuth's configuration, or (like app/api/auth/[...nextauth]/route.ts) a function of
 * the request's cookies that returns it for each request. `cookies`: the browser's app cookies before
 * it starts (a session cookie when someone is already signed in).
 */
export async function signInWithGoogle(
  options: AuthOptions | ((cookies: Jar) => AuthOptions),
  email: string,
  { consent = true, cookies: before = {} }: { consent?: boolean; cookies?: Jar } = {},
): Promise<GoogleFlowResult> {
  const app: Jar = { ...before };
  const call = async (req: AuthRequest) => {
    const res = await AuthHandler({
      req,
      options: typeof options === "function" ? options(req.cookies ?? {}) : options,
    });
    keepCookies(app, res.cookies);
    return res;
  };
  const base = { origin: APP_ORIGIN, headers: {}, query: {}, body: {} };

  const csrf = await call({ ...base, action: "csrf", method: "GET", cookies: { ...app } });
  const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
  const start = await call({
    ...base,
    action: "signin",
    providerId: "google",
    method: "POST",
    cookies: { ...app },
    body: { csrfToken, callbackUrl: "/profile" },
  });
  if (!start.redirect) throw new Error("NextAuth did not send the browser to the issuer");

  // At the issuer, as a browser would: follow redirects, fill the login form, consent or cancel.
  const jar = new Map<string, string>();
  let url = start.redirect;
  let method = "GET";
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(GOOGLE_CALLBACK)) break;
    const res = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: cookieHeader(jar),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form,
    });
    issuerCookies(jar, res);
    method = "GET";
    form = undefined;
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the issuer answered ${res.status}: ${html.slice(0, 300)}`);
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt = html.match(/name="prompt" value="(\w+)"/)?.[1];
    if (!action || !prompt) throw new Error(`unexpected issuer page: ${html.slice(0, 300)}`);
    if (prompt === "consent" && !consent) {
      const abort = html.match(/<a href="([^"]+)">\[ Cancel \]<\/a>/)?.[1];
      if (!abort) throw new Error("no Cancel link on the consent page");
      url = new URL(abort, url).toString();
      continue;
    }
    url = new URL(action, url).toString();
    method = "POST";
    form = new URLSearchParams(
      prompt === "login" ? { prompt, login: email, password: "any password" } : { prompt },
    );
  }
  if (!url.startsWith(GOOGLE_CALLBACK)) throw new Error(`never came back to the app: ${url}`);

  const back = new URL(url);
  const done = await call({
    ...base,
    action: "callback",
    providerId: "google",
    method: "GET",
    cookies: { ...app },
    query: Object.fromEntries(back.searchParams),
  });
  let redirect = done.redirect ?? "";
  // A failure goes through NextAuth's own routes (error → signin), which send the browser on to
  // the app's pages (pages.error / pages.signIn): follow those hops as a browser would.
  const authRoutes = `${APP_ORIGIN}/api/auth/`;
  for (let hop = 0; hop < 3 && redirect.startsWith(authRoutes); hop++) {
    const next = new URL(redirect);
    const [action, providerId] = next.pathname.slice("/api/auth/".length).split("/");
    const res = await call({
      ...base,
      action,
      providerId,
      method: "GET",
      cookies: { ...app },
      query: Object.fromEntries(next.searchParams),
      error: next.searchParams.get("error") ?? undefined,
    });
    redirect = res.redirect ?? "";
  }
  return { redirect, cookies: app };
}
