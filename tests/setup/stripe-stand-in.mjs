// A small local server that plays Stripe's part for the calls Memento makes: customers, Checkout
// sessions (create, list, expire), customer-portal sessions, subscriptions (retrieve, list, update,
// cancel), invoice payments and refunds. POSTs honour `Idempotency-Key` as Stripe does: the same
// key answers the same object, even while the first request is still being answered; `hold` keeps
// answers back, as a slow Stripe would. The app's real `stripe` SDK talks to it when STRIPE_API_BASE is its `apiBase`. It also serves the two pages a
// person clicks through, Checkout and the portal, and sends the webhooks Stripe would send, signed
// with the real SDK's test signer, to Memento's webhook route. Used by the API tests (in their
// process, delivering through app.inject) and the browser tests.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';

const DAY_SECONDS = 24 * 3600;
const PERIOD_DAYS = 30;

/** What a plan's price looks like on the pages, found from a word in its price id. */
const CATALOGUE = [
  { word: 'standard', name: 'Memento Standard', amount: 499 },
  { word: 'premium', name: 'Memento Premium', amount: 999 },
  { word: 'professional', name: 'Memento Professional', amount: 2499 },
];

function describePrice(priceId) {
  const known = CATALOGUE.find((entry) => String(priceId).toLowerCase().includes(entry.word));
  return known ?? { name: `Plan ${priceId}`, amount: 0 };
}

const pounds = (pence) => `£${(pence / 100).toFixed(2)}`;
const longDate = (seconds) =>
  new Date(seconds * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

const newId = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function escapeHtml(value) {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Stripe's form encoding (`a[b][0][c]=1`) read back into nested objects and arrays. */
export function parseStripeForm(text) {
  const root = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/[[\]]+/).filter(Boolean);
    let node = root;
    path.forEach((segment, index) => {
      const isLast = index === path.length - 1;
      if (isLast) {
        node[segment] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1]);
      node[segment] ??= nextIsIndex ? [] : {};
      node = node[segment];
    });
  }
  return root;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
  res.end(JSON.stringify(body));
}

function sendError(res, status, message, code = 'resource_missing') {
  sendJson(res, status, { error: { type: 'invalid_request_error', code, message } });
}

function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; font-size: 22px; line-height: 1.5; max-width: 34rem; margin: 2rem auto; padding: 0 1rem">
<main>
${body}
</main>
</body></html>`;
}

const buttonStyle = 'font-size: 22px; padding: 0.6rem 1.2rem; margin: 0.5rem 0';

/**
 * Starts the stand-in on a port the operating system chooses. `webhookUrl` is Memento's
 * `/api/billing/webhook`; `webhookSecret` is its STRIPE_WEBHOOK_SECRET. `deliver`, when given,
 * sends each webhook instead of an HTTP POST (the API tests pass one that uses app.inject).
 */
export async function startStripeStandIn({ webhookUrl, webhookSecret, deliver }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${server.address().port}`;

  const customers = new Map();
  const checkoutSessions = new Map();
  const portalSessions = new Map();
  const subscriptions = new Map();
  const invoices = new Map();
  /** Invoice payments by invoice id: what a refund is made against. */
  const invoicePayments = new Map();
  const refunds = new Map();
  /** Answers kept by idempotency key: `{ status, body }`, or the promise of one in flight. */
  const idempotent = new Map();
  /** Every API call the app made, in order: `{ method, path, params }`. */
  const requests = [];
  /** Every webhook sent, in order: `{ event, status, body }`. */
  const deliveries = [];
  /** Webhooks sent after an API answer (as Stripe sends them), awaited by `settled()`. */
  const pending = new Set();

  async function post(payload, header) {
    if (deliver) return deliver({ payload, signature: header });
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': header,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    });
    return { status: response.status, body: await response.text() };
  }

  function buildEvent(type, object, { id } = {}) {
    return {
      id: id ?? newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /**
   * Signs and sends one event (a fresh one, or `event` again as Stripe's retries do). `timestamp`
   * (seconds) and `secret` change the signature's time and key, for the refusal tests.
   */
  async function sendSigned(event, { timestamp, secret } = {}) {
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: secret ?? webhookSecret,
      ...(timestamp ? { timestamp } : {}),
    });
    const answer = await post(payload, header);
    deliveries.push({ event, status: answer.status, body: answer.body });
    return { event, status: answer.status, body: answer.body };
  }

  async function sendEvent(type, object, options = {}) {
    return sendSigned(buildEvent(type, object, options), options);
  }

  /** An event sent after the API call that caused it has been answered. */
  function sendLater(type, object) {
    const event = buildEvent(type, object);
    const sending = new Promise((resolve) => setImmediate(resolve))
      .then(() => sendSigned(event))
      .catch(() => undefined)
      .finally(() => pending.delete(sending));
    pending.add(sending);
  }

  function createCustomer(params) {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      created: nowSeconds(),
      email: params.email ?? null,
      name: params.name ?? null,
      metadata: params.metadata ?? {},
      livemode: false,
    };
    customers.set(customer.id, customer);
    return customer;
  }

  /** A paid invoice kept as the subscription's latest, with its payment (when money moved). */
  function recordPaidInvoice(subscription) {
    const invoice = invoiceFor(subscription, 'paid');
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    invoicePayments.set(
      invoice.id,
      invoice.amount_paid > 0
        ? [
            {
              id: newId('inpay'),
              object: 'invoice_payment',
              invoice: invoice.id,
              amount_paid: invoice.amount_paid,
              status: 'paid',
              payment: { type: 'payment_intent', payment_intent: newId('pi') },
            },
          ]
        : [],
    );
    return invoice;
  }

  function invoiceFor(subscription, status) {
    const item = subscription.items.data[0];
    const amount =
      status === 'paid' && subscription.status === 'trialing' ? 0 : item.price.unit_amount;
    return {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: status === 'paid' ? 'paid' : 'open',
      paid: status === 'paid',
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: 'gbp',
      created: nowSeconds(),
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      billing_reason: 'subscription_cycle',
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
      },
      livemode: false,
    };
  }

  function createSubscription({ customer, priceId, trialDays, metadata }) {
    const start = nowSeconds();
    const trialEnd = trialDays ? start + trialDays * DAY_SECONDS : null;
    const periodEnd = trialEnd ?? start + PERIOD_DAYS * DAY_SECONDS;
    const { name, amount } = describePrice(priceId);
    const id = newId('sub');
    const subscription = {
      id,
      object: 'subscription',
      customer,
      status: trialEnd ? 'trialing' : 'active',
      created: start,
      start_date: start,
      billing_cycle_anchor: periodEnd,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: trialEnd ? start : null,
      trial_end: trialEnd,
      latest_invoice: null,
      currency: 'gbp',
      metadata: metadata ?? {},
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            subscription: id,
            quantity: 1,
            current_period_start: start,
            current_period_end: periodEnd,
            price: {
              id: priceId,
              object: 'price',
              currency: 'gbp',
              unit_amount: amount,
              product: name,
              recurring: { interval: 'month', interval_count: 1 },
            },
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      livemode: false,
    };
    subscriptions.set(id, subscription);
    return subscription;
  }

  function requireSubscription(id) {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`The stand-in has no subscription ${id}`);
    return subscription;
  }

  /** Changes a subscription as Stripe would (status, cancellation, price, period). */
  function updateSubscription(id, patch) {
    const subscription = requireSubscription(id);
    const item = subscription.items.data[0];
    const { priceId, currentPeriodEnd, ...rest } = patch;
    if (priceId) {
      const { name, amount } = describePrice(priceId);
      item.price = { ...item.price, id: priceId, unit_amount: amount, product: name };
    }
    if (currentPeriodEnd) item.current_period_end = currentPeriodEnd;
    Object.assign(subscription, rest);
    if ('cancel_at_period_end' in rest) {
      subscription.cancel_at = rest.cancel_at_period_end ? item.current_period_end : null;
      subscription.canceled_at = rest.cancel_at_period_end ? nowSeconds() : null;
    }
    return structuredClone(subscription);
  }

  /** Ends a subscription now, as Stripe does at the end of a cancelled period. */
  function endSubscription(id) {
    const subscription = requireSubscription(id);
    subscription.status = 'canceled';
    subscription.ended_at = nowSeconds();
    subscription.canceled_at ??= subscription.ended_at;
    return structuredClone(subscription);
  }

  /**
   * What 'Pay and subscribe' does: customer, subscription, then Stripe's three webhooks, in the
   * order Stripe usually sends them unless `order` gives another.
   */
  async function completeCheckout(
    sessionId,
    {
      order = ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid'],
    } = {},
  ) {
    const session = checkoutSessions.get(sessionId);
    if (!session) throw new Error(`The stand-in has no Checkout session ${sessionId}`);
    if (session.status !== 'open') return { session, deliveries: [] };
    const customer = session.customer ?? createCustomer({ email: session.customer_email }).id;
    const subscription = createSubscription({
      customer,
      priceId: session.line_items[0].price,
      trialDays: Number(session.subscription_data?.trial_period_days ?? 0) || null,
      metadata: session.subscription_data?.metadata,
    });
    Object.assign(session, {
      status: 'complete',
      payment_status: subscription.status === 'trialing' ? 'no_payment_required' : 'paid',
      customer,
      subscription: subscription.id,
    });
    const invoice = recordPaidInvoice(subscription);
    const events = {
      'checkout.session.completed': session,
      'customer.subscription.created': structuredClone(subscription),
      'invoice.paid': invoice,
    };
    const sent = [];
    for (const type of order) sent.push(await sendEvent(type, events[type]));
    return {
      session: structuredClone(session),
      subscription: structuredClone(subscription),
      deliveries: sent,
    };
  }

  /** The portal's 'Cancel plan': the plan runs to the end of its period. */
  async function cancelAtPeriodEnd(subscriptionId) {
    const subscription = updateSubscription(subscriptionId, { cancel_at_period_end: true });
    return sendEvent('customer.subscription.updated', subscription);
  }

  /** A renewal's payment fails: the subscription is past due and Stripe says so twice. */
  async function failPayment(subscriptionId) {
    const subscription = updateSubscription(subscriptionId, { status: 'past_due' });
    const invoice = invoiceFor(subscription, 'failed');
    return [
      await sendEvent('invoice.payment_failed', invoice),
      await sendEvent('customer.subscription.updated', subscription),
    ];
  }

  /** A payment goes through (a renewal, or a retry after a failure): a new period starts. */
  async function payInvoice(subscriptionId) {
    const current = requireSubscription(subscriptionId);
    const periodEnd = current.items.data[0].current_period_end;
    const subscription = updateSubscription(subscriptionId, {
      status: 'active',
      currentPeriodEnd: Math.max(periodEnd, nowSeconds()) + PERIOD_DAYS * DAY_SECONDS,
    });
    return [
      await sendEvent('invoice.paid', invoiceFor(subscription, 'paid')),
      await sendEvent('customer.subscription.updated', subscription),
    ];
  }

  /** The end of a subscription reaches Memento (the event Stripe sends when a period runs out). */
  async function sendSubscriptionEnded(subscriptionId) {
    return sendEvent('customer.subscription.deleted', endSubscription(subscriptionId));
  }

  function latestSubscriptionOf(customerId) {
    const mine = [...subscriptions.values()].filter((sub) => sub.customer === customerId);
    return mine.filter((sub) => sub.status !== 'canceled').at(-1) ?? mine.at(-1) ?? null;
  }

  function checkoutPage(session) {
    const { name, amount } = describePrice(session.line_items[0].price);
    const trialDays = Number(session.subscription_data?.trial_period_days ?? 0);
    const terms = trialDays
      ? `Free for ${trialDays} days, then ${pounds(amount)} a month.`
      : `${pounds(amount)} a month.`;
    return page(
      `Subscribe to ${name}`,
      `<h1>Subscribe to ${escapeHtml(name)}</h1>
<p>${escapeHtml(terms)}</p>
<p>Test payment page: no card is needed.</p>
<form method="post" action="/checkout/${escapeHtml(session.id)}/pay">
  <button type="submit" style="${buttonStyle}">Pay and subscribe</button>
</form>
<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>`,
    );
  }

  function portalPage(portal) {
    const subscription = latestSubscriptionOf(portal.customer);
    const lines = [];
    if (!subscription || subscription.status === 'canceled') {
      lines.push('<p>You have no plan at the moment.</p>');
    } else {
      const item = subscription.items.data[0];
      const { name, amount } = describePrice(item.price.id);
      lines.push(`<p>Your plan: ${escapeHtml(name)}, ${pounds(amount)} a month.</p>`);
      if (subscription.cancel_at_period_end) {
        lines.push(`<p>Your plan ends on ${longDate(item.current_period_end)}.</p>`);
      } else {
        lines.push(`<p>Renews on ${longDate(item.current_period_end)}.</p>`);
        lines.push(`<form method="post" action="/portal/${escapeHtml(portal.id)}/cancel">
  <button type="submit" style="${buttonStyle}">Cancel plan</button>
</form>`);
      }
    }
    lines.push(`<form method="post" action="/portal/${escapeHtml(portal.id)}/return">
  <button type="submit" style="${buttonStyle}">Return to Memento</button>
</form>`);
    return page('Manage your plan', `<h1>Manage your plan</h1>\n${lines.join('\n')}`);
  }

  function redirect(res, location) {
    res.writeHead(303, { location });
    res.end();
  }

  /** A Checkout session as Stripe opens one (also what another tab or a stranger could open). */
  function openCheckout(params) {
    const id = newId('cs_test');
    const created = nowSeconds();
    const session = {
      id,
      object: 'checkout.session',
      mode: params.mode ?? 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${apiBase}/checkout/${id}`,
      created,
      expires_at: created + DAY_SECONDS,
      customer: params.customer ?? null,
      customer_email: params.customer_email ?? null,
      client_reference_id: params.client_reference_id ?? null,
      line_items: params.line_items ?? [],
      subscription_data: params.subscription_data ?? null,
      success_url: params.success_url ?? `${apiBase}/done`,
      cancel_url: params.cancel_url ?? `${apiBase}/back`,
      metadata: params.metadata ?? {},
      subscription: null,
      livemode: false,
    };
    checkoutSessions.set(id, session);
    return structuredClone(session);
  }

  const listOf = (data, url) => ({ object: 'list', data, has_more: false, url });

  async function handleApi(req, res, url) {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) {
      sendError(res, 401, 'You did not provide an API key.', 'api_key_missing');
      return;
    }
    const body = req.method === 'GET' ? '' : await readBody(req);
    const query = url.searchParams.toString();
    const params = parseStripeForm([query, body].filter(Boolean).join('&'));
    const path = url.pathname;
    const idempotencyKey = req.headers['idempotency-key'] ?? null;
    requests.push({ method: req.method, path, params, idempotencyKey });
    let match;

    if (req.method === 'POST' && path === '/v1/customers') {
      return sendJson(res, 200, createCustomer(params));
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      if (!params.line_items?.[0]?.price) {
        return sendError(res, 400, 'line_items[0][price] is required', 'parameter_missing');
      }
      return sendJson(res, 200, openCheckout(params));
    }
    if (req.method === 'GET' && path === '/v1/checkout/sessions') {
      const found = [...checkoutSessions.values()].filter(
        (session) =>
          (!params.customer || session.customer === params.customer) &&
          (!params.status || session.status === params.status),
      );
      return sendJson(res, 200, listOf(found, path));
    }
    if ((match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/))) {
      const session = checkoutSessions.get(match[1]);
      if (!session) return sendError(res, 404, `No such checkout.session: '${match[1]}'`);
      if (session.status !== 'open') {
        return sendError(
          res,
          400,
          'Only Checkout Sessions with a status in ["open"] can be expired.',
          'checkout_session_not_open',
        );
      }
      Object.assign(session, { status: 'expired', url: null });
      sendLater('checkout.session.expired', session);
      return sendJson(res, 200, session);
    }
    if ((match = path.match(/^\/v1\/checkout\/sessions\/([\w-]+)$/)) && req.method === 'GET') {
      const session = checkoutSessions.get(match[1]);
      return session
        ? sendJson(res, 200, session)
        : sendError(res, 404, 'No such checkout session');
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(params.customer)) {
        return sendError(res, 400, `No such customer: '${params.customer}'`);
      }
      const id = newId('bps');
      const portal = {
        id,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url,
        url: `${apiBase}/portal/${id}`,
        livemode: false,
      };
      portalSessions.set(id, portal);
      return sendJson(res, 200, portal);
    }
    if (req.method === 'GET' && path === '/v1/subscriptions') {
      const found = [...subscriptions.values()].filter(
        (sub) =>
          (!params.customer || sub.customer === params.customer) &&
          (params.status === 'all' || sub.status !== 'canceled'),
      );
      return sendJson(res, 200, listOf(found, path));
    }
    if (req.method === 'GET' && path === '/v1/invoice_payments') {
      const found = (invoicePayments.get(params.invoice) ?? []).filter(
        (payment) => !params.status || payment.status === params.status,
      );
      return sendJson(res, 200, listOf(found, path));
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      const payment = [...invoicePayments.values()]
        .flat()
        .find((paid) => paid.payment.payment_intent === params.payment_intent);
      if (!payment)
        return sendError(res, 400, `No such payment_intent: '${params.payment_intent}'`);
      const refunded = [...refunds.values()].some(
        (r) => r.payment_intent === params.payment_intent,
      );
      if (refunded) {
        return sendError(
          res,
          400,
          'This charge has already been refunded.',
          'charge_already_refunded',
        );
      }
      const refund = {
        id: newId('re'),
        object: 'refund',
        payment_intent: params.payment_intent,
        amount: Number(params.amount ?? payment.amount_paid),
        currency: 'gbp',
        status: 'succeeded',
        created: nowSeconds(),
      };
      refunds.set(refund.id, refund);
      return sendJson(res, 200, refund);
    }
    if ((match = path.match(/^\/v1\/subscriptions\/([\w-]+)$/))) {
      const subscription = subscriptions.get(match[1]);
      if (!subscription) return sendError(res, 404, `No such subscription: '${match[1]}'`);
      if (req.method === 'GET') return sendJson(res, 200, subscription);
      if (req.method === 'POST') {
        const patch = {};
        if ('cancel_at_period_end' in params) {
          patch.cancel_at_period_end = params.cancel_at_period_end === 'true';
        }
        const updated = updateSubscription(subscription.id, patch);
        sendLater('customer.subscription.updated', updated);
        return sendJson(res, 200, updated);
      }
      if (req.method === 'DELETE') {
        if (subscription.status === 'canceled') {
          return sendError(
            res,
            400,
            'This subscription has already been canceled.',
            'resource_missing',
          );
        }
        const ended = endSubscription(subscription.id);
        sendLater('customer.subscription.deleted', ended);
        return sendJson(res, 200, ended);
      }
    }
    return sendError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
  }

  async function handlePage(req, res, url) {
    let match;
    if ((match = url.pathname.match(/^\/checkout\/([\w-]+)(\/pay)?$/))) {
      const session = checkoutSessions.get(match[1]);
      if (!session || session.status === 'expired') {
        return sendError(res, 404, 'This payment page has expired.');
      }
      if (req.method === 'GET' && !match[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(checkoutPage(session));
      }
      if (req.method === 'POST' && match[2]) {
        await readBody(req);
        await completeCheckout(session.id);
        return redirect(res, session.success_url);
      }
    }
    if ((match = url.pathname.match(/^\/portal\/([\w-]+)(\/cancel|\/return)?$/))) {
      const portal = portalSessions.get(match[1]);
      if (!portal) return sendError(res, 404, 'This page has expired.');
      if (req.method === 'GET' && !match[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(portalPage(portal));
      }
      if (req.method === 'POST' && match[2]) {
        await readBody(req);
        const subscription = latestSubscriptionOf(portal.customer);
        if (match[2] === '/cancel' && subscription && subscription.status !== 'canceled') {
          await cancelAtPeriodEnd(subscription.id);
        }
        return redirect(res, portal.return_url);
      }
    }
    return sendError(res, 404, 'Not found');
  }

  /** The answer of an API call, captured so a repeat with the same key gets it again. */
  async function answerOnce(req, url, key) {
    const captured = { status: 0, headers: {}, body: '' };
    const capture = {
      headersSent: false,
      writeHead(status, headers) {
        captured.status = status;
        captured.headers = headers ?? {};
      },
      end(body) {
        captured.body = body ?? '';
      },
    };
    await handleApi(req, capture, url).catch((error) =>
      sendError(capture, 500, String(error?.message ?? error), 'api_error'),
    );
    // Stripe keeps no answer to a request it could not run, so a retry runs it again.
    if (captured.status >= 500) idempotent.delete(key);
    return captured;
  }

  async function handleIdempotent(req, res, url) {
    const key = `${req.method} ${req.headers['idempotency-key']}`;
    let answer = idempotent.get(key);
    const replayed = answer !== undefined;
    if (answer) {
      await readBody(req);
      requests.push({
        method: req.method,
        path: url.pathname,
        params: {},
        idempotencyKey: req.headers['idempotency-key'],
        replayed: true,
      });
    } else {
      answer = answerOnce(req, url, key);
      idempotent.set(key, answer);
    }
    const { status, headers, body } = await answer;
    res.writeHead(status, { ...headers, 'idempotent-replayed': String(replayed) });
    res.end(body);
  }

  /** Answers held back, as a slow Stripe would: `{ method, path, reached, released, ... }`. */
  const holds = new Set();

  /**
   * Holds every `method path` API call until `release()` (or `releaseAfterMs`, so a test that
   * fails never waits on Stripe's own timeout). `reached` settles when the first such call arrives.
   */
  function hold(method, path, { releaseAfterMs = 5000 } = {}) {
    let arrived;
    let open;
    const entry = {
      method,
      path,
      released: false,
      arrivals: 0,
      reached: new Promise((resolve) => (arrived = resolve)),
      gate: new Promise((resolve) => (open = resolve)),
      arrived: () => arrived(),
      release() {
        if (entry.released) return;
        entry.released = true;
        clearTimeout(timer);
        holds.delete(entry);
        open();
      },
    };
    const timer = setTimeout(() => entry.release(), releaseAfterMs);
    holds.add(entry);
    return entry;
  }

  async function waitIfHeld(req, url) {
    for (const entry of holds) {
      if (entry.method === req.method && entry.path === url.pathname) {
        entry.arrivals += 1;
        entry.arrived();
        await entry.gate;
      }
    }
  }

  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', apiBase);
    await waitIfHeld(req, url);
    const isApi = url.pathname.startsWith('/v1/');
    const handler =
      isApi && req.method !== 'GET' && req.headers['idempotency-key']
        ? handleIdempotent
        : isApi
          ? handleApi
          : handlePage;
    handler(req, res, url).catch((error) => {
      if (!res.headersSent) sendError(res, 500, String(error?.message ?? error), 'api_error');
    });
  });

  return {
    apiBase,
    customers,
    checkoutSessions,
    portalSessions,
    subscriptions,
    invoices,
    refunds,
    requests,
    openCheckout,
    hold,
    createCustomer,
    createSubscription,
    deliveries,
    buildEvent,
    sendEvent,
    sendSigned,
    invoiceFor,
    updateSubscription,
    endSubscription,
    completeCheckout,
    cancelAtPeriodEnd,
    failPayment,
    payInvoice,
    sendSubscriptionEnded,
    /** Waits for the webhooks still on their way after API calls. */
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      await this.settled();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
