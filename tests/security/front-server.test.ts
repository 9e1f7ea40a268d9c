import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createFrontServer,
  LIMITS,
  NEXT_KEEP_ALIVE_MS,
  UPSTREAM_IDLE_MS,
} from "../../scripts/lib/front-server.mjs";

// The thin server in front of Next (issue 14), against a stand-in upstream that echoes what it got.
let upstream: http.Server;
let front: http.Server;
let frontTrusting: http.Server;
const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const warn = vi.fn();

const listen = (s: http.Server, host = "127.0.0.1") =>
  new Promise<number>((r) => s.listen(0, host, () => r((s.address() as AddressInfo).port)));
let port = 0;
let trustingPort = 0;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { "content-type": "text/plain", "set-cookie": ["a=1", "b=2"] });
      res.end(`ok ${req.method} ${req.url}`);
    });
  });
  const upstreamPort = await listen(upstream, "localhost"); // as `next start -H localhost`
  front = createFrontServer({ upstreamPort, trustedHops: 0, log: { warn } as unknown as Console });
  frontTrusting = createFrontServer({ upstreamPort, trustedHops: 1, log: { warn } as unknown as Console });
  port = await listen(front);
  trustingPort = await listen(frontTrusting);
});
afterAll(async () => {
  for (const s of [front, frontTrusting, upstream]) await new Promise((r) => s.close(r));
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
    expect(last().headers.host).toMatch(/^localhost:\d+$/);
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
      upstreamPort: (upstream.address() as AddressInfo).port,
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

describe("the keep-alive race with the upstream", () => {
  it("a GET whose reused upstream socket was just closed is sent again on a new one, not answered 502", async () => {
    // An upstream that answers the first request of each connection and resets the connection on the
    // second: exactly what a kept-alive socket closed by Next as idle looks like to the front server.
    const net = await import("node:net");
    const raw = net.createServer((socket) => {
      let requests = 0;
      socket.on("data", (chunk) => {
        if (!chunk.toString().includes("\r\n\r\n")) return;
        if (++requests === 1)
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else socket.resetAndDestroy();
      });
    });
    const rawPort = await new Promise<number>((r) =>
      raw.listen(0, "localhost", () => r((raw.address() as AddressInfo).port)),
    );
    const racing = createFrontServer({ upstreamPort: rawPort, log: { warn } as unknown as Console });
    const racingPort = await listen(racing);
    try {
      expect(await send(racingPort, { path: "/first" })).toMatchObject({ status: 200, body: "ok" });
      expect(await send(racingPort, { path: "/second" })).toMatchObject({ status: 200, body: "ok" });
      // a POST is never sent twice: on the reused socket (now the retry's) the reset is answered 502
      const post = await send(racingPort, {
        method: "POST",
        path: "/third",
        headers: { "content-type": "text/plain", "content-length": "1" },
        body: "x",
      });
      expect(post.status).toBe(502);
    } finally {
      await new Promise((r) => racing.close(r));
      await new Promise((r) => raw.close(r));
    }
  });
  it("a POST after a lull goes out on a fresh socket: the agent drops idle sockets before the upstream closes them", async () => {
    // An upstream like Next: keep-alive, announcing `Keep-Alive: timeout=2` (Node's server does), and a
    // request that arrives on a connection idle for 2 s or more is lost — its close crossed the request on
    // the wire (the bench's 502s on commits after a lull). Requests are parsed by Content-Length.
    const net = await import("node:net");
    const IDLE_MS = 2000;
    let connections = 0;
    const raw = net.createServer((socket) => {
      connections++;
      let buffered = Buffer.alloc(0);
      let idleSince = Date.now();
      socket.on("data", (chunk) => {
        if (buffered.length === 0 && Date.now() - idleSince >= IDLE_MS) return void socket.resetAndDestroy();
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.subarray(0, end).toString())?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = Buffer.alloc(0);
        socket.write(
          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: timeout=2\r\n\r\nok",
          () => (idleSince = Date.now()),
        );
      });
    });
    const rawPort = await new Promise<number>((r) =>
      raw.listen(0, "localhost", () => r((raw.address() as AddressInfo).port)),
    );
    const racing = createFrontServer({ upstreamPort: rawPort, log: { warn } as unknown as Console });
    const racingPort = await listen(racing);
    const post = () =>
      send(racingPort, {
        method: "POST",
        path: "/api/commit",
        headers: { "content-type": "application/json", "content-length": "2" },
        body: "{}",
      });
    try {
      expect(await post()).toMatchObject({ status: 200, body: "ok" });
      expect(await post()).toMatchObject({ status: 200, body: "ok" });
      expect(connections).toBe(1); // kept alive while busy
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, IDLE_MS + 200));
        expect(await post()).toMatchObject({ status: 200, body: "ok" });
      }
      expect(connections).toBe(4); // a new socket after each lull, none reused past the upstream's timeout
    } finally {
      await new Promise((r) => racing.close(r));
      await new Promise((r) => raw.close(r));
    }
  }, 20_000);

  it("the idle timeout does not cut a slow answer; Next is started with a longer keep-alive than the agent's", async () => {
    expect(NEXT_KEEP_ALIVE_MS - UPSTREAM_IDLE_MS).toBeGreaterThanOrEqual(10_000);
    const slow = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => setTimeout(() => res.end(`slow ${req.method}`), 600));
    });
    const slowPort = await listen(slow, "localhost");
    const front2 = createFrontServer({
      upstreamPort: slowPort,
      upstreamIdleMs: 200,
      log: { warn } as unknown as Console,
    });
    const front2Port = await listen(front2);
    try {
      const res = await send(front2Port, {
        method: "POST",
        path: "/api/commit",
        headers: { "content-type": "application/json", "content-length": "2" },
        body: "{}",
      });
      expect(res).toMatchObject({ status: 200, body: "slow POST" });
    } finally {
      await new Promise((r) => front2.close(r));
      await new Promise((r) => slow.close(r));
    }
  });
});
