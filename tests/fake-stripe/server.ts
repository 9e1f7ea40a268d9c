import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Stripe API for tests: the real `stripe` SDK talks to it over HTTP (its host/port/protocol
 * options, via STRIPE_API_HOST). It implements the endpoints PactNexus uses, with Stripe's
 * form-encoded bodies, error shapes and Idempotency-Key semantics (same key -> the stored response
 * is replayed, nothing is executed twice; same key while the first is in flight -> 409), and lets a
 * test inject latency, declines, 429s, 500s and dropped connections. Every request and every
 * executed charge is recorded for assertions.
 */
export type CardBehavior =
  "ok" | "generic_decline" | "insufficient_funds" | "authentication_required" | "expired_card" | "lost_card";

export type Fault = {
  /** which requests: method + path prefix, e.g. "POST /v1/payment_intents" */
  match: string;
  /** "timeout": executed, then never answered (the client gives up after its own timeout) */
  kind: "429" | "500" | "drop-before" | "drop-after" | "timeout";
  /** how many matching requests get the fault (default 1) */
  times?: number;
  /** only requests whose form body satisfies this */
  when?: (body: Record<string, unknown>) => boolean;
};

export type RecordedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  body: Record<string, unknown>;
  at: number;
  replayed: boolean;
};

type Pm = {
  id: string;
  customer: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behavior: CardBehavior;
};
type Pi = Record<string, unknown> & {
  id: string;
  status: string;
  amount: number;
  metadata: Record<string, string>;
};

let counter = 0;
const newId = (prefix: string) => `${prefix}_fake${Date.now().toString(36)}${(++counter).toString(36)}`;

/** Decodes Stripe's form encoding (`metadata[pledgeId]=x`, `a[b][c]=y`) into nested objects. */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const DECLINES: Record<
  Exclude<CardBehavior, "ok" | "authentication_required">,
  { code: string; decline_code?: string; message: string }
> = {
  generic_decline: {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
  },
  insufficient_funds: {
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds.",
  },
  expired_card: { code: "expired_card", message: "Your card has expired." },
  lost_card: { code: "card_declined", decline_code: "lost_card", message: "Your card was declined." },
};

export async function startFakeStripe(opts: { latencyMs?: number } = {}) {
  const state = {
    latencyMs: opts.latencyMs ?? 0,
    requests: [] as RecordedRequest[],
    customers: new Map<string, Record<string, unknown>>(),
    paymentMethods: new Map<string, Pm>(),
    paymentIntents: new Map<string, Pi>(),
    /** executed (not replayed) PaymentIntent creations per pledge id, with their outcome */
    chargesByPledge: new Map<string, { id: string; status: string; amount: number }[]>(),
    /** executed (not replayed) refunds, in order: a refund of part of a payment names its amount (issue 36) */
    refunds: [] as { id: string; paymentIntent: string; amount: number }[],
    idempotent: new Map<string, { status: number; body: unknown; raw: string }>(),
    inFlight: new Set<string>(),
    faults: [] as (Fault & { left: number })[],
    // Connect (issue 23): connected accounts, transfers and their reversals, the platform's balance
    accounts: new Map<string, FakeAccount>(),
    transfers: new Map<string, FakeTransfer>(),
    /** executed (not replayed) transfers and reversals per payout id */
    movesByPayout: new Map<string, string[]>(),
    /** the platform's available balance in cents: charges add (less the fee), transfers take */
    balance: 0,
    /** when set, the balance is enforced (a transfer beyond it is refused, as Stripe does) */
    enforceBalance: false,
  };
  const feeOf = (amount: number) => Math.round(amount * 0.029) + 30;
  const recordMove = (payoutId: string | undefined, id: string) => {
    const list = state.movesByPayout.get(payoutId ?? "(none)") ?? [];
    list.push(id);
    state.movesByPayout.set(payoutId ?? "(none)", list);
  };
  function accountObject(a: FakeAccount) {
    return {
      id: a.id,
      object: "account",
      type: "express",
      email: a.email,
      metadata: a.metadata,
      details_submitted: a.state !== "pending",
      payouts_enabled: a.state === "ready",
      charges_enabled: a.state === "ready",
      capabilities: { transfers: a.state === "ready" ? "active" : "inactive" },
      requirements: {
        currently_due: a.state === "ready" ? [] : ["external_account"],
        past_due: a.state === "restricted" ? ["external_account"] : [],
        disabled_reason: a.state === "restricted" ? "requirements.past_due" : null,
      },
    };
  }

  const error = (status: number, type: string, extra: Record<string, unknown>) => ({
    status,
    body: { error: { type, ...extra } },
  });

  function execute(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/customers") {
      const c = {
        id: newId("cus"),
        object: "customer",
        email: body.email ?? null,
        metadata: body.metadata ?? {},
      };
      state.customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if (method === "POST" && path === "/v1/setup_intents") {
      const id = newId("seti");
      return {
        status: 200,
        body: {
          id,
          object: "setup_intent",
          client_secret: `${id}_secret_fake`,
          status: "requires_payment_method",
          customer: body.customer ?? null,
          usage: body.usage ?? "off_session",
          metadata: body.metadata ?? {},
        },
      };
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)$/)) && method === "GET") {
      const pm = state.paymentMethods.get(m[1]);
      if (!pm)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: `No such PaymentMethod: '${m[1]}'`,
          param: "payment_method",
        });
      return { status: 200, body: pmObject(pm) };
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/)) && method === "POST") {
      const pm = state.paymentMethods.get(m[1]);
      if (!pm)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: `No such PaymentMethod: '${m[1]}'`,
        });
      pm.customer = m[2] === "attach" ? String(body.customer) : null;
      return { status: 200, body: pmObject(pm) };
    }
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(body);
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)$/)) && method === "GET") {
      const pi = state.paymentIntents.get(m[1]);
      if (!pi)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: `No such payment_intent: '${m[1]}'`,
        });
      const expand = Object.entries(body).some(
        ([k, v]) => k.startsWith("expand") && String(v).includes("latest_charge"),
      );
      if (expand && pi.status === "succeeded")
        return {
          status: 200,
          body: {
            ...pi,
            latest_charge: {
              id: `ch_${pi.id.slice(3)}`,
              object: "charge",
              balance_transaction: {
                id: `txn_${pi.id.slice(3)}`,
                object: "balance_transaction",
                fee: feeOf(pi.amount),
              },
            },
          },
        };
      return { status: 200, body: pi };
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/)) && method === "POST") {
      const pi = state.paymentIntents.get(m[1]);
      if (!pi)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: `No such payment_intent: '${m[1]}'`,
        });
      if (pi.status === "succeeded" || pi.status === "canceled")
        return error(400, "invalid_request_error", {
          code: "payment_intent_unexpected_state",
          message: `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
        });
      pi.status = "canceled";
      return { status: 200, body: pi };
    }
    if (method === "POST" && path === "/v1/accounts") {
      const a: FakeAccount = {
        id: newId("acct"),
        email: (body.email as string) ?? null,
        metadata: (body.metadata ?? {}) as Record<string, string>,
        state: "pending",
      };
      state.accounts.set(a.id, a);
      return { status: 200, body: accountObject(a) };
    }
    if ((m = path.match(/^\/v1\/accounts\/([^/]+)$/)) && method === "GET") {
      const a = state.accounts.get(m[1]);
      if (!a)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: `No such account: '${m[1]}'`,
        });
      return { status: 200, body: accountObject(a) };
    }
    if (method === "POST" && path === "/v1/account_links") {
      if (!state.accounts.has(String(body.account)))
        return error(400, "invalid_request_error", { code: "resource_missing", message: "No such account." });
      return {
        status: 200,
        body: {
          object: "account_link",
          url: `https://connect.stripe.test/setup/${String(body.account)}?return=${encodeURIComponent(String(body.return_url))}`,
          expires_at: Math.floor(Date.now() / 1000) + 300,
        },
      };
    }
    if (method === "POST" && path === "/v1/transfers") {
      const a = state.accounts.get(String(body.destination));
      const amount = Number(body.amount);
      if (!a)
        return error(400, "invalid_request_error", {
          code: "resource_missing",
          message: "No such destination account.",
        });
      if (a.state !== "ready")
        return error(400, "invalid_request_error", {
          code: "account_invalid",
          message: "The destination account cannot receive transfers: its requirements are not met.",
        });
      if (state.enforceBalance && amount > state.balance)
        return error(400, "invalid_request_error", {
          code: "balance_insufficient",
          message: "You have insufficient available funds in your Stripe account.",
        });
      const t: FakeTransfer = {
        id: newId("tr"),
        object: "transfer",
        amount,
        amount_reversed: 0,
        currency: "usd",
        destination: a.id,
        transfer_group: (body.transfer_group as string) ?? null,
        metadata: (body.metadata ?? {}) as Record<string, string>,
        reversals: [],
      };
      state.transfers.set(t.id, t);
      state.balance -= amount;
      recordMove(t.metadata.payoutId, t.id);
      return { status: 200, body: t };
    }
    if ((m = path.match(/^\/v1\/transfers\/([^/]+)\/reversals$/)) && method === "POST") {
      const t = state.transfers.get(m[1]);
      const amount = Number(body.amount);
      if (!t)
        return error(404, "invalid_request_error", {
          code: "resource_missing",
          message: "No such transfer.",
        });
      if (amount > t.amount - t.amount_reversed)
        return error(400, "invalid_request_error", {
          code: "transfer_reversal_exceeds",
          message: "The reversal amount exceeds what is left of the transfer.",
        });
      const r = {
        id: newId("trr"),
        object: "transfer_reversal",
        amount,
        transfer: t.id,
        metadata: (body.metadata ?? {}) as Record<string, string>,
      };
      t.amount_reversed += amount;
      t.reversals.push(r.id);
      state.balance += amount;
      recordMove(r.metadata.payoutId, r.id);
      return { status: 200, body: r };
    }
    if (method === "GET" && path === "/v1/transfers") {
      const group = String(body.transfer_group ?? "");
      const data = [...state.transfers.values()].filter((t) => !group || t.transfer_group === group);
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/transfers" } };
    }
    if (method === "GET" && path === "/v1/balance")
      return {
        status: 200,
        body: { object: "balance", available: [{ amount: state.balance, currency: "usd" }] },
      };
    if (method === "POST" && path === "/v1/refunds") {
      const pi = state.paymentIntents.get(String(body.payment_intent));
      if (!pi || pi.status !== "succeeded")
        return error(400, "invalid_request_error", {
          code: "charge_not_refundable",
          message: "This PaymentIntent cannot be refunded.",
        });
      // Stripe's rule: refunds of one payment never add up to more than it took
      const before = state.refunds.filter((r) => r.paymentIntent === pi.id).reduce((s, r) => s + r.amount, 0);
      const amount = body.amount === undefined ? pi.amount - before : Number(body.amount);
      if (!Number.isInteger(amount) || amount <= 0 || before + amount > pi.amount)
        return error(400, "invalid_request_error", {
          code: before >= pi.amount ? "charge_already_refunded" : "amount_too_large",
          message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((pi.amount - before) / 100).toFixed(2)})`,
        });
      const refund = { id: newId("re"), paymentIntent: pi.id, amount };
      state.refunds.push(refund);
      return {
        status: 200,
        body: { id: refund.id, object: "refund", payment_intent: pi.id, amount, status: "succeeded" },
      };
    }
    return error(404, "invalid_request_error", { message: `Unrecognized request URL (${method}: ${path}).` });
  }

  function pmObject(pm: Pm) {
    return {
      id: pm.id,
      object: "payment_method",
      type: "card",
      customer: pm.customer,
      card: { brand: pm.brand, last4: pm.last4, exp_month: pm.exp_month, exp_year: pm.exp_year },
    };
  }

  function createIntent(body: Record<string, unknown>): { status: number; body: unknown } {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount < 50)
      return error(400, "invalid_request_error", {
        code: "amount_too_small",
        message: "Amount must be at least $0.50 usd",
        param: "amount",
      });
    const pm = state.paymentMethods.get(String(body.payment_method));
    if (!pm)
      return error(400, "invalid_request_error", {
        code: "resource_missing",
        message: `No such PaymentMethod: '${String(body.payment_method)}'`,
        param: "payment_method",
      });
    if (pm.customer !== body.customer) {
      return error(400, "invalid_request_error", {
        code: "payment_method_unexpected_state",
        message:
          "The provided PaymentMethod was previously used without being attached to a Customer or it was detached from a Customer.",
      });
    }
    const metadata = (body.metadata ?? {}) as Record<string, string>;
    const offSession = body.off_session === "true";
    const pi: Pi = {
      id: newId("pi"),
      object: "payment_intent",
      amount,
      currency: body.currency,
      customer: body.customer,
      payment_method: pm.id,
      metadata,
      created: Math.floor(Date.now() / 1000),
      status: "succeeded",
      client_secret: "",
      last_payment_error: null,
    };
    pi.client_secret = `${pi.id}_secret_fake`;
    let failure: { code: string; decline_code?: string; message: string } | null = null;
    if (pm.behavior === "authentication_required") {
      if (offSession) {
        failure = {
          code: "authentication_required",
          decline_code: "authentication_required",
          message: "Your card was declined. This transaction requires authentication.",
        };
        pi.status = "requires_payment_method";
      } else pi.status = "requires_action";
    } else if (pm.behavior !== "ok") {
      failure = DECLINES[pm.behavior];
      pi.status = "requires_payment_method";
    }
    if (failure) pi.last_payment_error = { type: "card_error", ...failure };
    state.paymentIntents.set(pi.id, pi);
    if (pi.status === "succeeded") state.balance += amount - feeOf(amount);
    const pledgeId = metadata.pledgeId ?? "(none)";
    const list = state.chargesByPledge.get(pledgeId) ?? [];
    list.push({ id: pi.id, status: pi.status, amount });
    state.chargesByPledge.set(pledgeId, list);
    if (failure) return error(402, "card_error", { ...failure, payment_intent: pi });
    return { status: 200, body: pi };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const method = req.method ?? "GET";
      const path = url.pathname;
      const body = method === "GET" ? Object.fromEntries(url.searchParams) : parseForm(raw);
      const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
      const record: RecordedRequest = {
        method,
        path,
        idempotencyKey: key,
        body,
        at: Date.now(),
        replayed: false,
      };
      state.requests.push(record);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          "content-type": "application/json",
          "request-id": newId("req"),
          ...(key ? { "idempotency-key": key } : {}),
          ...headers,
        });
        res.end(JSON.stringify(payload));
      };
      if (!String(req.headers.authorization ?? "").startsWith("Bearer sk_")) {
        return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
      }
      const fault = state.faults.find(
        (f) => f.left > 0 && `${method} ${path}`.startsWith(f.match) && (!f.when || f.when(body)),
      );
      if (fault && fault.kind !== "drop-after" && fault.kind !== "timeout") {
        fault.left--;
        if (fault.kind === "429")
          return send(429, {
            error: {
              type: "invalid_request_error",
              code: "rate_limit",
              message: "Too many requests hit the API too quickly.",
            },
          });
        if (fault.kind === "500")
          return send(500, { error: { type: "api_error", message: "An unknown error occurred." } });
        req.socket.destroy();
        return;
      }
      if (key) {
        const stored = state.idempotent.get(`${method} ${path} ${key}`);
        if (stored && stored.raw !== raw) {
          // Stripe compares the parameters of a reused key and refuses other ones.
          return send(400, {
            error: {
              type: "idempotency_error",
              message:
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            },
          });
        }
        if (stored) {
          record.replayed = true;
          return send(stored.status, stored.body, { "idempotent-replayed": "true" });
        }
        if (state.inFlight.has(key)) {
          return send(409, {
            error: {
              type: "invalid_request_error",
              code: "idempotency_key_in_use",
              message:
                "There is currently another in-progress request using this Idempotency Key. Please try again later.",
            },
          });
        }
        state.inFlight.add(key);
      }
      // Latency is the time Stripe spends executing: a same-key request meanwhile gets the 409.
      if (state.latencyMs) await new Promise((r) => setTimeout(r, state.latencyMs));
      const result = execute(method, path, body);
      if (key) {
        // Stripe stores the result of an executed request (including 4xx) and replays it.
        if (result.status < 500) state.idempotent.set(`${method} ${path} ${key}`, { ...result, raw });
        state.inFlight.delete(key);
      }
      if (fault?.kind === "timeout") {
        fault.left--;
        setTimeout(() => req.socket.destroy(), 120_000).unref();
        return;
      }
      if (fault?.kind === "drop-after") {
        fault.left--;
        req.socket.destroy();
        return;
      }
      send(result.status, result.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** A card saved for a customer, behaving like one of Stripe's test cards. */
    addPaymentMethod(customer: string | null, behavior: CardBehavior = "ok", last4 = "4242"): string {
      const id = newId("pm");
      state.paymentMethods.set(id, {
        id,
        customer,
        brand: "visa",
        last4,
        exp_month: 12,
        exp_year: 2030,
        behavior,
      });
      return id;
    },
    /** Connect: a connected account that finished onboarding (or is in `accountState`). */
    addAccount(accountState: FakeAccount["state"] = "ready") {
      const a: FakeAccount = { id: newId("acct"), email: null, metadata: {}, state: accountState };
      state.accounts.set(a.id, a);
      return a.id;
    },
    /** Connect: sets a connected account's state, as onboarding (or Stripe's review) would. */
    setAccountState(accountId: string, accountState: FakeAccount["state"]) {
      const a = state.accounts.get(accountId);
      if (!a) throw new Error(`no fake account ${accountId}`);
      a.state = accountState;
      return accountObject(a);
    },
    /** Executed transfers and reversals of a payout (a replay is not an execution). */
    moveCount(payoutId: string) {
      return state.movesByPayout.get(payoutId)?.length ?? 0;
    },
    feeOf,
    inject(fault: Fault) {
      state.faults.push({ ...fault, left: fault.times ?? 1 });
    },
    /** Executed charges per pledge (a replayed idempotent request is not an execution). */
    chargeCount(pledgeId: string) {
      return state.chargesByPledge.get(pledgeId)?.length ?? 0;
    },
    /** succeeded charges executed (not replayed) for these pledges */
    succeededChargesFor(pledgeIds: string[]) {
      return pledgeIds.reduce(
        (n, id) => n + (state.chargesByPledge.get(id) ?? []).filter((c) => c.status === "succeeded").length,
        0,
      );
    },
    succeededCharges() {
      return [...state.chargesByPledge.values()].flat().filter((c) => c.status === "succeeded").length;
    },
    reset() {
      state.requests.length = 0;
      state.faults.length = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

type FakeAccount = {
  id: string;
  email: string | null;
  metadata: Record<string, string>;
  state: "pending" | "ready" | "restricted";
};
type FakeTransfer = {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversals: string[];
};
