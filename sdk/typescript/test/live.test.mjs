// Tests against a real svc server. The repository's Go test (sdk/live_test.go) starts one,
// creates the accounts and sets: SVC_BASE_URL, SVC_API_KEY (an account holding
// sdk/testdata/kb.jsonl), SVC_LIMITED_API_KEY (one send a minute), SVC_TEST_KB=1 when the
// server has the knowledge-base API, SVC_TEST_CRAWL_URL (a site the server may crawl).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SvcClient, SvcError } from "../dist/index.js";

const base = process.env.SVC_BASE_URL;
const key = process.env.SVC_API_KEY;
const skip = !base || !key ? "SVC_BASE_URL and SVC_API_KEY are not set" : false;
const client = skip ? null : new SvcClient({ baseUrl: base, apiKey: key });
const question = "How long is the warranty on the Trailmaster tent?";
const isCode = (status, code) => (err) => err instanceof SvcError && err.status === status && err.error === code && err.message.length > 0;

test("conversation: send, start, sync, suggestions, feedback", { skip }, async () => {
  const sent = await client.send(question);
  assert.equal(sent.messages.length, 2);
  assert.equal(sent.messages[0].role, "user");
  assert.equal(sent.reply.role, "assistant");
  assert.match(sent.reply.body, /five-year/);
  assert.equal(sent.lowConfidence, false);
  assert.ok(Array.isArray(sent.reply.sources));
  const started = await client.start();
  assert.equal(started.conversationId, sent.conversationId);
  assert.ok(["tr", "en", "de"].includes(started.lang));
  assert.ok(started.messages.some((m) => m.id === sent.reply.id));
  const synced = await client.sync(sent.messages[0].id);
  assert.deepEqual(synced.messages.map((m) => m.id), [sent.reply.id]);
  const sugg = await client.suggestions();
  assert.ok(Array.isArray(sugg.articles) && Array.isArray(sugg.seeds));
  assert.deepEqual(await client.feedback(sent.reply.id, "helpful"), { saved: true });
});

test("account: apiKey, usageSummary, getTone", { skip }, async () => {
  const info = await client.apiKey();
  assert.match(info.apiKey.api_key_prefix, /^svc_pk_[0-9a-f]{8}$/);
  assert.ok(key.startsWith(info.apiKey.api_key_prefix));
  assert.equal(typeof info.balance, "number");
  const usage = await client.usageSummary();
  assert.equal(usage.window_days, 30);
  const tone = await client.getTone();
  assert.ok(tone.presets.includes(tone.preset));
});

test("embed tokens: create, list, update, revoke", { skip }, async () => {
  const created = await client.embedTokenCreate({ domains: ["shop.example"], label: "TS", title: "Help", welcome: "Hi!", position: "left", theme: "dark" });
  assert.match(created.token, /^svc_emb_[A-Za-z0-9]{32}$/);
  let mine = (await client.embedTokens()).find((t) => t.id === created.id);
  assert.equal(mine.status, "active");
  assert.deepEqual(mine.allowed_domains, ["shop.example"]);
  if ("title" in mine) assert.equal(mine.title, "Help"); // a server with widget appearance
  assert.deepEqual(await client.embedTokenUpdate(created.id, { label: "TS 2", daily_budget_usd: "2.50" }), { updated: true });
  mine = (await client.embedTokens()).find((t) => t.id === created.id);
  assert.equal(mine.label, "TS 2");
  assert.equal(mine.daily_budget_usd, "2.5000");
  assert.deepEqual(await client.embedTokenRevoke(created.id), { revoked: true });
  await assert.rejects(client.embedTokenRevoke(999999), isCode(404, "not_found"));
});

test("generators: marketingGenerate and intelligence", { skip }, async () => {
  const m = await client.marketingGenerate({ brief: "A social post about our tents for weekend campers", lang: "en", variants: 2 });
  assert.equal(m.meta.depth, "lean");
  assert.equal(typeof m.content.headline, "string");
  assert.equal(m.content.variants.length, 2);
  const table = await client.intelligence("data", { type: "products", format: "table" });
  assert.ok(table.result.columns.length > 0);
  assert.ok(table.meta.total >= 2);
  const answer = await client.intelligence("answer", { question: "How long does delivery to Germany take?", format: "text" });
  assert.equal(answer.op, "answer");
  assert.equal(typeof answer.result.result, "string");
});

test("refusals: bad request, bad key, rate limit with Retry-After", { skip }, async () => {
  await assert.rejects(client.send(""), isCode(400, "bad_request"));
  const stranger = new SvcClient({ baseUrl: base, apiKey: "svc_pk_00000000000000000000000000000000" });
  await assert.rejects(stranger.getTone(), isCode(401, "unauthorized"));
  const limitedKey = process.env.SVC_LIMITED_API_KEY;
  if (!limitedKey) return;
  // The wait the server asks for is longer than the client may wait: thrown at once.
  const limited = new SvcClient({ baseUrl: base, apiKey: limitedKey, maxRetryWaitMs: 0 });
  await limited.send("Hello!");
  await assert.rejects(limited.send("Hello again!"), (err) => isCode(429, "rate_limited")(err) && err.retryAfterSeconds > 0);
});

const skipKB = skip || (process.env.SVC_TEST_KB !== "1" ? "the server has no knowledge-base API (SVC_TEST_KB is not 1)" : false);

test("knowledge base: Q&A, products, import, upload, crawl", { skip: skipKB }, async () => {
  const q = "What is the return window for socks at the TS shop?";
  const { id } = await client.kbQaCreate({ question: q, answer: "Socks can be returned within 45 days.", lang: "en" });
  const listed = await client.kbDocuments({ type: "qa", limit: 100 });
  assert.ok(listed.documents.some((d) => d.id === id && d.type === "qa"));
  assert.ok(listed.total >= listed.documents.length);
  assert.match((await client.send(q)).reply.body, /45 days/);
  assert.equal((await client.kbQaUpdate(id, { answer: "Socks can be returned within 60 days." })).updated, true);
  assert.equal((await client.kbQaDelete(id)).deleted, true);
  await assert.rejects(client.kbQaDelete(id), isCode(404, "not_found"));

  const product = { name: "Summit Sock", sku: "TS-SOCK-1", price: "9.00 EUR", url: "https://trail.example/en/p/summit-sock" };
  let res = await client.kbProductsUpsert([product]);
  assert.equal(res.created, 1);
  res = await client.kbProductsUpsert([{ ...product, price: "11.00 EUR" }]);
  assert.equal(res.created, 0);
  assert.equal(res.updated, 1);
  const fromFile = await client.kbProductsUpsert({ name: "products.csv", data: "name,sku,price\nValley Sock,TS-SOCK-2,7.00 EUR\n" });
  assert.equal(fromFile.created, 1);

  const counts = await client.kbImport('{"type":"page","url":"https://trail.example/en/ts-import","title":"TS import","body":"Imported by the TypeScript client.","lang":"en"}\n');
  assert.equal(counts.pages, 1);
  await assert.rejects(client.kbImport('{"type":"page"}\nnot json\n'), isCode(400, "bad_request"));

  const up = await client.kbDocumentUpload({ name: "care.md", data: "# Tent care\n\nDry the Trailmaster tent before storing it.\n" }, { lang: "en", title: "Tent care" });
  assert.ok(up.documents.length >= 1 && up.chunks >= 1);
  assert.equal((await client.kbDocumentDelete(up.documents[0])).deleted, true);
  await assert.rejects(client.kbDocumentUpload({ name: "x.bin", data: new Uint8Array([0, 1, 2, 3, 255, 254]) }), isCode(400, "bad_request"));

  await assert.rejects(client.kbCrawlStatus(999999), isCode(404, "not_found"));
  const crawlURL = process.env.SVC_TEST_CRAWL_URL;
  if (crawlURL) {
    const { crawl_id } = await client.kbCrawlStart({ url: crawlURL });
    assert.ok(crawl_id > 0);
    const status = await client.kbCrawlStatus(crawl_id);
    assert.ok(["queued", "running", "done", "failed"].includes(status.state));
  }
});
