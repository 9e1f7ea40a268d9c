// A round-robin balancer for the two-instance bench and fault suite (issue 35): the registries hold no
// HAProxy binary for this machine, so a few lines of Node `http` proxying, nothing more. Each request
// goes to the next upstream in turn; the client's address is appended to X-Forwarded-For, as a load
// balancer does (the instances run with TRUST_PROXY=1). An upstream that refuses the connection (an
// instance killed) is skipped for that request and the next one tried; a request it cut mid-way is
// answered 502, as a real balancer would.
import http from "node:http";

export function createBalancer(upstreamPorts) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 4_000 });
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers };
      const client = (req.socket.remoteAddress || "").replace(/^::ffff:/, "");
      headers["x-forwarded-for"] = headers["x-forwarded-for"]
        ? `${headers["x-forwarded-for"]}, ${client}`
        : client;
      const attempt = (left) => {
        const port = upstreamPorts[next++ % upstreamPorts.length];
        const up = http.request(
          { host: "127.0.0.1", port, method: req.method, path: req.url, headers, agent },
          (r) => {
            res.writeHead(r.statusCode || 502, r.headers);
            r.pipe(res);
            r.on("error", () => res.destroy());
          },
        );
        up.on("error", (err) => {
          if (err?.code === "ECONNREFUSED" && left > 1) return attempt(left - 1);
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end("bad gateway");
        });
        up.end(body);
      };
      attempt(upstreamPorts.length);
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
