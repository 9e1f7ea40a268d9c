// The front door of the server process (DESIGN §1 "client address", issues 14 and 35). `npm start`
// (and so the e2e server, the bench and the fault suite, which all start through scripts/start.mjs)
// runs Next's request handler in its own process, behind this door, on PORT: one process, no second
// hop (issue 35; it was a proxy in front of `next start` before). For every request it:
//  - takes the client address from the socket, or from X-Forwarded-For only across the TRUST_PROXY
//    hops configured, and passes it on in CLIENT_IP_HEADER (and as the only X-Forwarded-For entry),
//    removing whatever the client sent in either;
//  - refuses TRACE/TRACK (405);
//  - caps request bodies: 413 with a message (JSON route handlers 64 kB, server actions, the
//    Stripe webhook and the cover upload their own limit); a body without a length is refused (411);
//  - turns malformed server-action requests into 4xx answers: a cross-origin action (403), a body
//    that is not a JSON array or a multipart form, a multipart body that does not parse, a reference
//    (React's "$…" reply syntax) to a part the body lacks or of the wrong kind (400; the checks live in
//    ./action-body.mjs) — Next would answer those with a 500; the same for a multipart form posted to a
//    page without JavaScript;
//  - answers the request target "*" itself (OPTIONS * → 204, anything else → 400), and any other
//    target that is not a path with 400: Next answers them with a 500;
//  - warns once when forwarded headers arrive while TRUST_PROXY is unset.
// Everything else goes to Next's handler as it came; a body the door had to read is handed on as a
// request that replays it. (The 503 gate while the database is down is proxy.ts's, in this process too.)
import fs from "node:fs";
import http from "node:http";
import { isIP } from "node:net";
import { isUtf8 } from "node:buffer";
import path from "node:path";
import { checkActionBody, checkFormPost } from "./action-body.mjs";

export const CLIENT_IP_HEADER = "x-pactnexus-client-ip";
export const LIMITS = {
  api: 64 * 1024,
  action: 1024 * 1024,
  webhook: 512 * 1024,
  // a cover upload (issue 17): 5 MB of image (lib/images/limits COVER_MAX_BYTES) and the form's envelope
  cover: 5 * 1024 * 1024 + 64 * 1024,
};
const COVER_PATH = /^\/api\/campaigns\/[^/]+\/cover$/;

const json = (res, status, code, message, extra = {}) => {
  if (res.headersSent) return res.destroy();
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    ...extra,
  });
  res.end(body);
};

/** An address as written in a header or by the socket, normalised; null when it is not an IP. */
export function normaliseIp(raw) {
  let ip = String(raw ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) ip = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(":"));
  if (ip.toLowerCase().startsWith("::ffff:") && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip.toLowerCase() : null;
}

/**
 * The client's address: the socket's, unless TRUST_PROXY hops are configured; then the address that
 * many hops back in X-Forwarded-For (each trusted proxy appends the address it saw). A malformed or
 * missing entry where the client should be falls back to the nearest address we trust — it never
 * yields "no address" (which would switch a per-address limit off).
 */
export function clientAddress(socketAddress, forwardedFor, trustedHops) {
  const socket = normaliseIp(socketAddress) ?? "0.0.0.0";
  if (!trustedHops) return socket;
  const chain = [
    ...String(forwardedFor ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    socket,
  ];
  let best = socket;
  for (let i = chain.length - 2, hops = 1; i >= 0 && hops <= trustedHops; i--, hops++) {
    const ip = normaliseIp(chain[i]);
    if (!ip) break;
    best = ip;
  }
  return best;
}

const hostOf = (value) => {
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
};

function bodyLimit(req) {
  if (req.headers["next-action"]) return { limit: LIMITS.action, what: "a server action" };
  const path = (req.url || "/").split("?")[0];
  if (path === "/api/stripe/webhook") return { limit: LIMITS.webhook, what: "a webhook" };
  if (COVER_PATH.test(path)) return { limit: LIMITS.cover, what: "an image upload" };
  if (path.startsWith("/api/")) return { limit: LIMITS.api, what: "an API" };
  return { limit: LIMITS.action, what: "a" };
}

/**
 * Whether an id is one of the build's server actions (a "$h" reference names one), from Next's
 * server-reference manifest; read when first needed and again when the build changes.
 */
export function serverActionIds(distDir = process.env.NEXT_DIST_DIR || ".next") {
  const file = path.join(distDir, "server", "server-reference-manifest.json");
  let cached = { mtime: -1, ids: new Set() };
  return (id) => {
    try {
      const { mtimeMs } = fs.statSync(file);
      if (mtimeMs !== cached.mtime) {
        const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
        cached = {
          mtime: mtimeMs,
          ids: new Set([...Object.keys(manifest.node ?? {}), ...Object.keys(manifest.edge ?? {})]),
        };
      }
    } catch {
      cached = { mtime: -1, ids: new Set() };
    }
    return cached.ids.has(id);
  };
}

/**
 * Server actions whose answer is only their returned data (they never revalidate, so Next renders no
 * page into it): a few hundred bytes, which Next would still gzip — a zlib stream per answer, about
 * 1 ms of CPU per commit in the commit bench (issue 35 item 3). The door asks Next for them uncompressed.
 */
const SMALL_ANSWER_ACTIONS = [
  { file: "app/campaign/[campaignId]/commit-action.ts", name: "commitToCampaignAction" },
];

/** Route handlers whose answer is a few hundred bytes of JSON (the commit: issue 35 item 3), uncompressed alike. */
export const SMALL_ANSWER_ROUTES = [/^\/api\/campaigns\/[^/?#]+\/commit(?:\?|$)/];

/** Whether an action id is one of SMALL_ANSWER_ACTIONS in the build's server-reference manifest (read once). */
export function smallAnswerActionIds(distDir = process.env.NEXT_DIST_DIR || ".next") {
  let ids = null;
  return (id) => {
    if (!ids) {
      try {
        const file = path.join(distDir, "server", "server-reference-manifest.json");
        const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
        ids = new Set(
          Object.entries(manifest.node ?? {})
            .filter(([, v]) =>
              SMALL_ANSWER_ACTIONS.some(
                (a) => v.exportedName === a.name && String(v.filename ?? "").endsWith(a.file),
              ),
            )
            .map(([k]) => k),
        );
      } catch {
        ids = new Set();
      }
    }
    return ids.has(id);
  };
}

/**
 * The headers the door sets itself, never passed on as the client sent them; `true`: passed on when
 * proxies are trusted (the proxy in front set it), until the door sets it below.
 */
const DOOR_SETS = new Map([
  [CLIENT_IP_HEADER, false],
  ["x-real-ip", false],
  ["x-forwarded-for", false],
  ["x-forwarded-host", true],
  ["x-forwarded-proto", true],
  ["host", false],
]);

const kb = (n) => `${Math.round(n / 1024)} kB`;

/** The headers as a raw [name, value, …] list (Next reads the parsed ones; both are kept in step). */
const rawOf = (headers) =>
  Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((v) => [name, v]) : value === undefined ? [] : [name, String(value)],
  );

/**
 * The request as Next should see it: the door's headers and, when the door read the body, a stream
 * that replays it (the original was consumed by the checks). Without a body, the request itself.
 */
function handOn(req, headers, body) {
  if (body === undefined) {
    req.headers = headers;
    // Next reads the parsed headers only: the raw list is built if someone asks for it
    Object.defineProperty(req, "rawHeaders", {
      configurable: true,
      enumerable: true,
      get: () => rawOf(req.headers),
    });
    return req;
  }
  const replay = new http.IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  replay.headers = headers;
  replay.rawHeaders = rawOf(headers);
  replay.complete = true;
  if (body.length) replay.push(body);
  replay.push(null);
  return replay;
}

/**
 * The door around `handle` (Next's request handler, or any (req, res) handler in tests). `port` is
 * the port Next was told it serves on: Next sees `localhost:port` as the Host, its own origin (a
 * proxy rewrite is internal only when its origin is Next's own), and the public host in
 * X-Forwarded-Host.
 */
export function createFrontServer({
  handle,
  port,
  trustedHops = 0,
  log = console,
  isServerReference = serverActionIds(),
  isSmallAnswer = (/** @type {string} */ _id) => false,
}) {
  let warned = false;

  function forward(req, res, headers, body) {
    Promise.resolve()
      .then(() => handle(handOn(req, headers, body), res))
      .catch((err) => {
        log.error?.("[pactnexus] request failed:", err);
        json(res, 500, "INTERNAL", "Something went wrong. Please try again.");
      });
  }

  const server = http.createServer((req, res) => {
    const method = (req.method || "GET").toUpperCase();
    if (!(req.url || "").startsWith("/")) {
      // "*" (RFC 9110 §7.1: OPTIONS only) or an absolute/authority form: Next expects a path
      req.resume();
      if (req.url === "*" && method === "OPTIONS") {
        res.writeHead(204, { allow: "GET, HEAD, POST", "content-length": "0" });
        return res.end();
      }
      return json(res, 400, "BAD_REQUEST", "The request target must be a path.");
    }
    if (method === "TRACE" || method === "TRACK")
      return json(res, 405, "METHOD_NOT_ALLOWED", "This method is not allowed.", {
        allow: "GET, HEAD, POST",
      });

    if (!trustedHops && !warned && (req.headers["x-forwarded-for"] || req.headers["x-real-ip"])) {
      warned = true;
      log.warn(
        "[pactnexus] requests arrive with X-Forwarded-For but TRUST_PROXY is unset: every client behind your proxy or load balancer shares its address for rate limits. Set TRUST_PROXY to the number of proxies in front of the app (e.g. TRUST_PROXY=1).",
      );
    }
    const ip = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedHops);
    // A copy without the headers the door sets (no `delete`: it would turn the object Next reads on
    // every request into a slow dictionary).
    const headers = {};
    const sent = req.headers;
    for (const name in sent) {
      const own = DOOR_SETS.get(name);
      if (own === undefined || (own && trustedHops)) headers[name] = sent[name];
    }
    headers[CLIENT_IP_HEADER] = ip;
    headers["x-forwarded-for"] = ip;
    // Next sees its own address as the Host (a middleware rewrite is internal only when its origin is
    // Next's own); the public host goes on in X-Forwarded-Host, as the proxies in front set it, or
    // as the client asked for it when no proxy is trusted.
    if (!trustedHops || !headers["x-forwarded-host"]) headers["x-forwarded-host"] = sent.host ?? "";
    headers.host = `localhost:${port}`;

    const hasBody =
      req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody) return forward(req, res, headers);
    if (method === "GET" || method === "HEAD") {
      // a body on a GET is not read by anyone: dropped, and Next gets the request without it
      req.resume();
      delete headers["content-length"];
      delete headers["transfer-encoding"];
      return forward(req, res, headers, Buffer.alloc(0));
    }

    const { limit, what } = bodyLimit(req);
    const declared = Number(req.headers["content-length"]);
    if (req.headers["content-length"] === undefined) {
      req.resume();
      return json(res, 411, "LENGTH_REQUIRED", "Please send the request body with a Content-Length.");
    }
    if (!Number.isFinite(declared) || declared < 0) {
      req.resume();
      return json(res, 400, "BAD_REQUEST", "The Content-Length header is not valid.");
    }
    if (declared > limit) {
      req.resume();
      return json(
        res,
        413,
        "PAYLOAD_TOO_LARGE",
        `The request body is too large: ${what} request may send at most ${kb(limit)}.`,
      );
    }

    const action = req.headers["next-action"];
    if (action) {
      // Server actions: same origin only (a browser always sends Origin on a POST), and a body Next can decode.
      const origin = req.headers.origin;
      if (origin !== undefined) {
        const allowed = [req.headers["x-forwarded-host"], req.headers.host]
          .filter(Boolean)
          .map((h) => String(h).split(",")[0].trim().toLowerCase());
        if (origin === "null" || !allowed.includes(hostOf(origin))) {
          req.resume();
          return json(res, 403, "FORBIDDEN", "Cross-origin requests are not allowed.");
        }
      }
      if (method !== "POST") {
        req.resume();
        return json(res, 405, "METHOD_NOT_ALLOWED", "Server actions are called with POST.", {
          allow: "POST",
        });
      }
      if (isSmallAnswer(String(action))) delete headers["accept-encoding"];
    } else if (method === "POST" && SMALL_ANSWER_ROUTES.some((r) => r.test(req.url || ""))) {
      delete headers["accept-encoding"];
    }

    // Read the (bounded) body, check it, then send it on.
    const chunks = [];
    let size = 0;
    let refused = false;
    req.on("data", (c) => {
      if (refused) return;
      size += c.length;
      if (size > limit) {
        refused = true;
        json(
          res,
          413,
          "PAYLOAD_TOO_LARGE",
          `The request body is too large: ${what} request may send at most ${kb(limit)}.`,
        );
        return;
      }
      chunks.push(c);
    });
    req.on("error", () => res.destroy());
    req.on("end", async () => {
      if (refused) return;
      const body = Buffer.concat(chunks);
      // NextAuth's POST endpoints take a form; a JSON or binary body makes its parser throw (a 500).
      if ((req.url || "").startsWith("/api/auth/")) {
        const type = String(req.headers["content-type"] || "").toLowerCase();
        if (!type.startsWith("application/x-www-form-urlencoded") || !isUtf8(body)) {
          return json(
            res,
            400,
            "BAD_REQUEST",
            "Sign-in requests are sent as a form (application/x-www-form-urlencoded).",
          );
        }
      }
      const contentType = String(req.headers["content-type"] || "");
      let problem = null;
      try {
        if (action) problem = await checkActionBody({ contentType, body, isServerReference });
        else if (
          method === "POST" &&
          contentType.toLowerCase().startsWith("multipart/form-data") &&
          !(req.url || "").startsWith("/api/")
        )
          // a form posted without JavaScript: Next parses it to look for a server action
          problem = await checkFormPost({ contentType, body, isServerReference });
      } catch {
        problem = "The request body could not be read.";
      }
      if (problem) return json(res, 400, "BAD_REQUEST", problem);
      headers["content-length"] = String(body.length);
      delete headers["transfer-encoding"];
      forward(req, res, headers, body);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
