import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on loopback for the integration and fault suites: nodemailer's own
 * `smtp-server` package, so the app's sender (nodemailer over SMTP_URL) speaks the whole protocol
 * to it. Every accepted message is kept raw and parsed (`mailparser`), so a test checks what a
 * recipient's mail program would see. `failNext(n)` refuses the next n messages at the end of
 * DATA with a temporary 451, the way a struggling relay does.
 */
export type ReceivedMail = {
  messageId: string;
  dedupeKey: string | null;
  /** The envelope (RCPT TO), which may differ from the To header. */
  to: string[];
  from: string;
  raw: string;
  parsed: ParsedMail;
  at: number;
};

export async function startLocalSmtp(opts: { failFirst?: number } = {}) {
  const state = {
    failLeft: opts.failFirst ?? 0,
    refused: 0,
    accepted: [] as ReceivedMail[],
    connections: 0,
  };
  const server = new SMTPServer({
    banner: "PactNexus test relay",
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (state.failLeft > 0) {
          state.failLeft--;
          state.refused++;
          const err = Object.assign(new Error("Temporary local problem, please try again later"), {
            responseCode: 451,
          });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            state.accepted.push({
              messageId: parsed.messageId ? `<${parsed.messageId.replace(/^<|>$/g, "")}>` : "(none)",
              dedupeKey: (parsed.headers.get("x-pactnexus-dedupe-key") as string | undefined) ?? null,
              to: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              raw: raw.toString("utf8"),
              parsed,
              at: Date.now(),
            });
            callback(null, "Ok: queued");
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    state,
    failNext: (n: number) => void (state.failLeft += n),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
