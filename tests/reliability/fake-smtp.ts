import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A minimal SMTP server for the fault suite (enough of RFC 5321 for nodemailer: EHLO, MAIL, RCPT,
 * DATA, RSET, QUIT; no STARTTLS offered). The first `failFirst` messages are refused at the end of
 * DATA with a temporary error (451), the way a struggling relay refuses; later ones are accepted and
 * recorded by Message-ID, so a test can count how many times each outbox row was delivered.
 */
export type AcceptedMessage = { messageId: string; dedupeKey: string | null; to: string[]; at: number };

export async function startFakeSmtp(opts: { failFirst?: number } = {}) {
  const state = {
    failLeft: opts.failFirst ?? 0,
    refused: 0,
    accepted: [] as AcceptedMessage[],
    connections: 0,
  };

  const server = net.createServer((socket) => {
    state.connections++;
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let data = "";
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp.local ESMTP ready");

    const endOfData = () => {
      const header = (name: string) =>
        data.match(new RegExp(`^${name}:\\s*(.+)$`, "im"))?.[1]?.trim() ?? null;
      if (state.failLeft > 0) {
        state.failLeft--;
        state.refused++;
        reply("451 4.3.0 Temporary local problem, please try again later");
      } else {
        state.accepted.push({
          messageId: header("Message-ID") ?? "(none)",
          dedupeKey: header("X-PactNexus-Dedupe-Key"),
          to,
          at: Date.now(),
        });
        reply("250 2.0.0 Ok: queued");
      }
      data = "";
      to = [];
    };

    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const i = buffer.indexOf("\r\n");
        if (i < 0) return;
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            endOfData();
          } else data += `${line.startsWith("..") ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") reply("250-fake-smtp.local\r\n250-8BITMIME\r\n250 SMTPUTF8");
        else if (verb === "HELO") reply("250 fake-smtp.local");
        else if (verb === "MAIL") reply("250 2.1.0 Ok");
        else if (verb === "RCPT") {
          to.push(line.replace(/^RCPT TO:\s*/i, "").replace(/[<>]/g, ""));
          reply("250 2.1.5 Ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "RSET") {
          to = [];
          reply("250 2.0.0 Ok");
        } else if (verb === "NOOP") reply("250 2.0.0 Ok");
        else if (verb === "QUIT") {
          reply("221 2.0.0 Bye");
          socket.end();
        } else reply("502 5.5.2 Command not recognized");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
