// A real OpenID Connect issuer on loopback, standing in for Google in the e2e and integration
// suites: the certified `oidc-provider` package with its development login and consent pages.
// The app reaches it through GOOGLE_TEST_ISSUER (honoured for loopback URLs only, lib/env.ts).
//
// Who signs in: anyone, as the login typed (the password is not checked). The login is the
// account's email; an address whose local part starts with "unverified" comes back with
// `email_verified: false`, every other one verified. The name is the local part, capitalised.
// Like Google, the issuer remembers a browser that signed in and consented: its next "Continue with
// Google" comes straight back. `failNextToken()` (or POST /test/fail-next-token) makes the next token request fail with the
// provider's `server_error`, the way an outage at the provider looks to the app.
import crypto from "node:crypto";
import http from "node:http";
import Provider from "oidc-provider";

export const LOCAL_OIDC_CLIENT = {
  id: "pactnexus-test.apps.local",
  secret: "local-oidc-test-secret",
};

const subjectOf = (login) =>
  `local-${crypto.createHash("sha256").update(String(login).trim().toLowerCase()).digest("hex").slice(0, 20)}`;

function claimsOf(login) {
  const email = String(login).trim().toLowerCase();
  const local = email.split("@")[0] ?? email;
  return {
    sub: login,
    email,
    email_verified: !local.startsWith("unverified"),
    name: local.charAt(0).toUpperCase() + local.slice(1).replace(/[._-]+/g, " "),
  };
}

/**
 * Starts the issuer. `redirectUris`: the app's callback URLs (…/api/auth/callback/google).
 * Returns { issuer, failNextToken(), close() }.
 */
export async function startLocalOidc({ redirectUris, port = 0 }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  let failTokens = 0;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: LOCAL_OIDC_CLIENT.id,
        client_secret: LOCAL_OIDC_CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        subject_type: "pairwise",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Google puts email and email_verified in the ID token, which is what NextAuth reads.
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id) }),
    // The `sub` the app sees is opaque, as Google's is: a pairwise identifier of the login.
    subjectTypes: ["pairwise"],
    pairwiseIdentifier: (_ctx, accountId) => subjectOf(accountId),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: [crypto.randomBytes(16).toString("hex")] },
  });
  const handle = provider.callback();

  server.on("request", (req, res) => {
    if (req.method === "POST" && req.url === "/test/fail-next-token") {
      failTokens++;
      res.writeHead(204).end();
      return;
    }
    if (req.method === "POST" && req.url?.startsWith("/token") && failTokens > 0) {
      failTokens--;
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "server_error", error_description: "the provider failed (test)" }));
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    failNextToken: () => void failTokens++,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
