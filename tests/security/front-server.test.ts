import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFrontServer, LIMITS } from "../../scripts/lib/front-server.mjs";

// The door of the server process (issues 14 and 35), around a stand-in for Next's request handler that
// echoes what it got: the request Next would see, its body replayed when the door had to read it.
let echo: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let front: http.Server;
let frontTrusting: http.Server;
const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const warn = vi.fn();

const listen = (s: http.Server, host = "127.0.0.1") =>
  new Promise<number>((r) => s.listen(0, host, () => r((s.address() as AddressInfo).port)));
let port = 0;
let trustingPort = 0;

beforeAll(async () => {
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { "content-type": "text/plain", "set-cookie": ["a=1", "b=2"] });
      res.end(`ok ${req.method} ${req.url}`);
    });
  };
  echo = handle;
  front = createFrontServer({ handle, port: 3000, trustedHops: 0, log: { warn } as unknown as Console });
  frontTrusting = createFrontServer({
    handle,
    port: 3000,
    trustedHops: 1,
    log: { warn } as unknown as Console,
  });
  port = await listen(front);
  trustingPort = await listen(frontTrusting);
});
afterAll(async () => {
  for (const s of [front, frontTrusting]) await new Promise((r) => s.close(r));
});

function send(
  p: number,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: p,
          method: opts.method ?? "GET",
          path: opts.path ?? "/",
          headers: opts.headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode!,
              body: Buffer.concat(chunks).toString(),
              headers: res.headers,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(opts.body);
    },
  );
}
const last = () => seen[seen.length - 1];

describe("front server", () => {
  it("passes requests through with the socket's address; a client's X-Forwarded-For or client-ip header is replaced", async () => {
    const res = await send(port, {
      path: "/x?y=1",
      headers: {
        "x-forwarded-for": "203.0.113.7",
        "x-pactnexus-client-ip": "1.2.3.4",
        "x-real-ip": "5.6.7.8",
      },
    });
    expect(res).toMatchObject({ status: 200, body: "ok GET /x?y=1" });
    expect(res.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(last().headers).toMatchObject({
      "x-pactnexus-client-ip": "127.0.0.1",
      "x-forwarded-for": "127.0.0.1",
    });
    expect(last().headers["x-real-ip"]).toBeUndefined();
    // Next sees its own address as Host; the public host travels in X-Forwarded-Host
    expect(last().headers["x-forwarded-host"]).toBe(`127.0.0.1:${port}`);
    expect(last().headers.host).toBe("localhost:3000");
    expect(warn).toHaveBeenCalledTimes(1); // warned once: forwarded headers while TRUST_PROXY is unset
    await send(port, { headers: { "x-forwarded-for": "203.0.113.8" } });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("with TRUST_PROXY=1 takes the address the proxy appended", async () => {
    await send(trustingPort, { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.9" } });
    expect(last().headers["x-pactnexus-client-ip"]).toBe("203.0.113.9");
    await send(trustingPort, { headers: { "x-forwarded-for": "garbage" } });
    expect(last().headers["x-pactnexus-client-ip"]).toBe("127.0.0.1");
  });

  it("refuses TRACE with 405 (TRACK is not even parsed by Node: 400)", async () => {
    const res = await send(port, { method: "TRACE" });
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body).error.message).toBe("This method is not allowed.");
    expect((await send(port, { method: "TRACK" }).catch(() => ({ status: 400 }))).status).toBe(400);
  });

  it("caps bodies: 64 kB for route handlers, more for server actions, with a message; nothing reaches Next", async () => {
    const before = seen.length;
    const big = await send(port, {
      method: "POST",
      path: "/api/check-and-charge",
      headers: { "content-type": "application/json" },
      body: "x".repeat(LIMITS.api + 1),
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.message).toBe(
      "The request body is too large: an API request may send at most 64 kB.",
    );
    const action = await send(port, {
      method: "POST",
      path: "/campaign/x",
      headers: { "next-action": "ab", "content-type": "text/plain" },
      body: "[" + "1,".repeat(LIMITS.action / 2) + "1]",
    });
    expect(action.status).toBe(413);
    expect(seen.length).toBe(before);
    const fine = await send(port, {
      method: "POST",
      path: "/api/check-and-charge",
      headers: { "content-type": "application/json" },
      body: '{"campaignId":"x"}',
    });
    expect(fine.status).toBe(200);
    expect(last().body).toBe('{"campaignId":"x"}');
  });

  it("turns malformed server-action requests into 400/403 and lets good ones through", async () => {
    const action = (body: string, headers: Record<string, string> = {}) =>
      send(port, {
        method: "POST",
        path: "/campaign/x",
        headers: {
          "next-action": "ab",
          "content-type": "text/plain;charset=UTF-8",
          host: `127.0.0.1:${port}`,
          ...headers,
        },
        body,
      });
    for (const body of ["{not json", '{"a":1}', '"x"', "null", ""]) {
      const res = await action(body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.body).error.message).toBe(
        "A server action's arguments must be sent as a JSON array.",
      );
    }
    const deep = await action("[" + "[".repeat(3000) + "]".repeat(3000) + "]");
    expect([deep.status, JSON.parse(deep.body).error.message]).toEqual([
      400,
      "A server action's arguments are nested too deeply.",
    ]);
    expect(
      (await action('[{"text":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}]'))
        .status,
    ).toBe(200); // brackets in a string do not count
    const auth = await send(port, {
      method: "POST",
      path: "/api/auth/callback/credentials",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect([auth.status, JSON.parse(auth.body).error.message]).toEqual([
      400,
      "Sign-in requests are sent as a form (application/x-www-form-urlencoded).",
    ]);
    const form = await send(port, {
      method: "POST",
      path: "/api/auth/callback/credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.c",
    });
    expect(form.status).toBe(200);
    const cross = await action("[]", { origin: "https://evil.example" });
    expect([cross.status, JSON.parse(cross.body).error.message]).toEqual([
      403,
      "Cross-origin requests are not allowed.",
    ]);
    expect((await action("[]", { origin: "null" })).status).toBe(403);
    expect((await action("[]", { "content-type": "multipart/form-data" })).status).toBe(400);
    const ok = await action('[{"campaignId":"x"}]', { origin: `http://127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
    expect(last().body).toBe('[{"campaignId":"x"}]');
  });
});

describe("what Next would answer 500 to never reaches it (issue 31 item 5)", () => {
  const actionHeaders = (type: string) => ({
    "next-action": "7f00000000000000000000000000000000000000aa",
    "content-type": type,
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
  });
  const post = (body: string | Buffer, type: string, headers = actionHeaders(type)) =>
    send(port, { method: "POST", path: "/campaign/x", headers, body });
  const form = async (f: FormData) => {
    const res = new Response(f);
    return { type: res.headers.get("content-type")!, body: Buffer.from(await res.arrayBuffer()) };
  };

  it("reference-syntax bodies that name no part: 400 with a message, nothing forwarded", async () => {
    const before = seen.length;
    for (const body of [
      '["$F1"]',
      '["$Q1"]',
      '["$B1"]',
      '["$h1"]',
      '["$AT1"]',
      '["$i"]',
      '["$S"]',
      '["$W1"]',
      '["$Z"]',
    ]) {
      const res = await post(body, "text/plain;charset=UTF-8");
      expect([res.status, JSON.parse(res.body).error.message], body).toEqual([
        400,
        "A server action's arguments refer to a part of the request that is missing or of the wrong kind.",
      ]);
    }
    expect(seen.length).toBe(before);
  });

  it("malformed multipart action bodies: 400 'The form data of this request is malformed.'", async () => {
    const before = seen.length;
    for (const body of [
      "garbage",
      "--xx\r\n\r\n",
      '--xx\r\nContent-Disposition: form-data; name="0"\r\n\r\n["a',
    ])
      for (const headers of [actionHeaders("multipart/form-data; boundary=xx"), undefined]) {
        // with a Next-Action header (a fetch action) and without (a form posted to a page)
        const res = await send(port, {
          method: "POST",
          path: "/campaign/x",
          headers: headers ?? { "content-type": "multipart/form-data; boundary=xx" },
          body,
        });
        expect([res.status, JSON.parse(res.body).error.message], body).toEqual([
          400,
          "The form data of this request is malformed.",
        ]);
      }
    expect(seen.length).toBe(before);
  });

  it("legitimate bodies pass unchanged: FormData, Map and Blob arguments, and a form posted without JavaScript", async () => {
    const f = new FormData();
    f.append("_1_token", "abc"); // what encodeReply writes for new FormData([["token", "abc"]])
    f.append("0", '["$K1"]');
    const formArg = await form(f);
    const res = await post(formArg.body, formArg.type);
    expect(res.status).toBe(200);
    expect(Buffer.from(last().body).equals(formArg.body)).toBe(true);
    const m = new FormData();
    m.append("1", '[["k","v"]]');
    m.append("2", new Blob(["bytes"]));
    m.append("0", '["$Q1","$B2"]');
    const mapArg = await form(m);
    expect((await post(mapArg.body, mapArg.type)).status).toBe(200);
    const mpa = new FormData();
    mpa.append("$ACTION_ID_7f00000000000000000000000000000000000000aa", "");
    mpa.append("token", "abc");
    const page = await form(mpa);
    const plain = await send(port, {
      method: "POST",
      path: "/unsubscribe",
      headers: { "content-type": page.type },
      body: page.body,
    });
    expect(plain.status).toBe(200);
  });

  it("a server reference passes only for an action of the build", async () => {
    const known = createFrontServer({
      handle: echo,
      port: 3000,
      log: { warn } as unknown as Console,
      isServerReference: (id: string) => id === "7f00000000000000000000000000000000000000aa",
    });
    const knownPort = await listen(known);
    try {
      const body = (id: string) => {
        const f = new FormData();
        f.append("1", JSON.stringify({ id, bound: null }));
        f.append("0", '["$h1"]');
        return form(f);
      };
      for (const [id, status] of [
        ["7f00000000000000000000000000000000000000aa", 200],
        ["7f000000000000000000000000000000000000dead", 400],
      ] as const) {
        const b = await body(id);
        const res = await send(knownPort, {
          method: "POST",
          path: "/x",
          headers: { "next-action": "ab", "content-type": b.type },
          body: b.body,
        });
        expect(res.status, id).toBe(status);
      }
    } finally {
      await new Promise((r) => known.close(r));
    }
  });

  it("a small-answer action (the commit) and the commit route reach Next without Accept-Encoding; other actions, routes and pages keep it", async () => {
    const small = createFrontServer({
      handle: echo,
      port: 3000,
      log: { warn } as unknown as Console,
      isSmallAnswer: (id: string) => id === "40aa",
    });
    const smallPort = await listen(small);
    try {
      for (const [action, kept] of [
        ["40aa", false],
        ["40bb", true],
        [null, true],
      ] as const) {
        const res = await send(smallPort, {
          method: "POST",
          path: "/campaign/x",
          headers: {
            "accept-encoding": "gzip, deflate, br",
            "content-type": "text/plain;charset=UTF-8",
            ...(action ? { "next-action": action } : {}),
          },
          body: '[{"campaignId":"x"}]',
        });
        expect(res.status).toBe(200);
        expect(last().headers["accept-encoding"], String(action)).toBe(
          kept ? "gzip, deflate, br" : undefined,
        );
      }
      // issue 35 item 3: the commit route's JSON answer alike; another route, or a GET, keeps it
      for (const [method, path, kept] of [
        ["POST", "/api/campaigns/c123/commit", false],
        ["POST", "/api/campaigns/c123/commit?x=1", false],
        ["POST", "/api/campaigns/c123/cover", true],
        ["POST", "/api/campaigns/c123/commit/more", true],
        ["GET", "/api/campaigns/c123/commit", true],
      ] as const) {
        const res = await send(smallPort, {
          method,
          path,
          headers: { "accept-encoding": "gzip, deflate, br", "content-type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        expect(res.status).toBe(200);
        expect(last().headers["accept-encoding"], `${method} ${path}`).toBe(
          kept ? "gzip, deflate, br" : undefined,
        );
      }
    } finally {
      await new Promise((r) => small.close(r));
    }
  });

  it("smallAnswerActionIds finds the commit action in the build's manifest, and nothing else", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { smallAnswerActionIds } = await import("../../scripts/lib/front-server.mjs");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "small-answer-"));
    fs.mkdirSync(path.join(dir, "server"));
    fs.writeFileSync(
      path.join(dir, "server", "server-reference-manifest.json"),
      JSON.stringify({
        node: {
          "40c0": {
            exportedName: "commitToCampaignAction",
            filename: "app/campaign/[campaignId]/commit-action.ts",
          },
          "40c1": { exportedName: "commitToCampaignAction", filename: "app/other/commit-action.ts" },
          "40c2": { exportedName: "postComment", filename: "app/campaign/[campaignId]/comment-actions.ts" },
        },
      }),
    );
    const isSmall = smallAnswerActionIds(dir);
    expect(["40c0", "40c1", "40c2", "nope"].map(isSmall)).toEqual([true, false, false, false]);
    expect(smallAnswerActionIds(path.join(dir, "missing"))("40c0")).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the request target '*': OPTIONS 204 with Allow, other methods 400; an absolute target 400; never forwarded", async () => {
    const net = await import("node:net");
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
        let out = "";
        socket.on("data", (c) => (out += c.toString()));
        socket.on("end", () => resolve(out));
        socket.on("error", reject);
      });
    const before = seen.length;
    const options = await raw("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(options).toMatch(/^HTTP\/1\.1 204 /);
    expect(options.toLowerCase()).toContain("allow: get, head, post");
    for (const line of ["GET * HTTP/1.1", "POST * HTTP/1.1", "GET http://evil.example/ HTTP/1.1"]) {
      const res = await raw(`${line}\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(res, line).toMatch(/^HTTP\/1\.1 400 /);
      expect(res, line).toContain("The request target must be a path.");
    }
    expect(seen.length).toBe(before);
  });
});
