// Offline tests: a stand-in fetch records each request and answers from a script.
import { test } from "node:test";
import assert from "node:assert/strict";
import { OPERATIONS, SvcClient, SvcError } from "../dist/index.js";

function envelope(status, body, headers = {}) {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
const ok = () => envelope(200, { success: true, data: { messages: [], tokens: [] } });
const refuse = (status, error, retryAfter) =>
  envelope(status, { success: false, error, message: "No." }, { "X-Request-Id": "req-1", ...(retryAfter ? { "Retry-After": retryAfter } : {}) });

function stub(script = []) {
  const seen = [];
  const waits = [];
  const client = new SvcClient({
    baseUrl: "http://svc.test/",
    apiKey: "svc_pk_0123456789abcdef0123456789abcdef",
    fetch: async (url, init) => {
      seen.push({ url: new URL(url), init });
      return (script.shift() ?? ok)();
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { client, seen, waits };
}

test("every operation of the table is reached by a method", async () => {
  const { client, seen } = stub();
  const file = { name: "a.md", data: "# A" };
  await client.start();
  await client.send("hi");
  await client.suggestions();
  await client.sync(3);
  await client.feedback(2, "not_helpful", "short");
  await client.apiKey();
  await client.usageSummary();
  await client.getTone();
  await client.embedTokens();
  await client.embedTokenCreate({ domains: ["a.example"], theme: "dark" });
  await client.embedTokenUpdate(1, { title: "Help" });
  await client.embedTokenRevoke(1);
  await client.marketingGenerate({ brief: "b" });
  for (const op of ["answer", "summarize", "compare", "extract", "data"]) await client.intelligence(op, { question: "q" });
  await client.kbDocuments({ type: "qa", limit: 5 });
  await client.kbDocumentUpload(file, { lang: "en" });
  await client.kbDocumentDelete(1);
  await client.kbQaCreate({ question: "q", answer: "a" });
  await client.kbQaUpdate(1, { answer: "b" });
  await client.kbQaDelete(1);
  await client.kbProductsUpsert([{ name: "P", sku: "1" }]);
  await client.kbProductsUpsert({ name: "p.csv", data: "name,sku\nP,1\n" });
  await client.kbImport('{"type":"qa","question":"q","answer":"a"}\n');
  await client.kbCrawlStart({ url: "https://x.example/" });
  await client.kbCrawlStatus(4);
  const got = new Set(seen.map((s) => `${s.init.method} ${s.url.pathname}`));
  const want = new Set(Object.entries(OPERATIONS).map(([name, method]) => `${method} /api/v1/${name}`));
  assert.deepEqual([...got].sort(), [...want].sort());
  for (const s of seen) assert.equal(s.init.headers.Authorization, "Bearer svc_pk_0123456789abcdef0123456789abcdef");
  await assert.rejects(client.intelligence("bogus"), TypeError);
});

test("requests are encoded as the API reads them", async () => {
  const { client, seen } = stub();
  await client.sync(42);
  await client.embedTokenUpdate(7, { domains: ["a.example", "b.example"], show_sources: false, position: "left", avatar_url: "" });
  await client.kbDocumentUpload({ name: "size chart.csv", data: "size,chest\nM,96-101\n" }, { title: "Sizes" });
  assert.equal(seen[0].url.search, "?sinceId=42");
  assert.equal(seen[0].init.body, undefined);
  assert.equal(seen[1].init.headers["Content-Type"], "application/json");
  assert.deepEqual(JSON.parse(seen[1].init.body), { id: 7, domains: "a.example,b.example", show_sources: false, position: "left", avatar_url: "" });
  const form = seen[2].init.body;
  assert.ok(form instanceof FormData);
  assert.equal(form.get("title"), "Sizes");
  assert.equal(form.get("file").name, "size chart.csv");
  assert.equal(await form.get("file").text(), "size,chest\nM,96-101\n");
});

test("a refusal is an SvcError carrying the envelope", async () => {
  const { client } = stub([() => refuse(400, "bad_request"), () => envelope(502, "<html>bad gateway</html>")]);
  await assert.rejects(client.send(""), (err) => {
    assert.ok(err instanceof SvcError);
    assert.equal(err.status, 400);
    assert.equal(err.error, "bad_request");
    assert.equal(err.message, "No.");
    assert.equal(err.requestId, "req-1");
    return true;
  });
  await assert.rejects(client.getTone(), (err) => err instanceof SvcError && err.status === 502 && err.error === "invalid_response");
});

test("Retry-After is honoured, within bounds", async () => {
  let s = stub([() => refuse(429, "rate_limited", "7"), () => refuse(429, "rate_limited")]);
  const res = await s.client.send("hi");
  assert.deepEqual(s.waits, [7000, 1000]);
  assert.equal(s.seen.length, 3);
  assert.deepEqual(res.messages, []);

  s = stub([() => refuse(429, "limit_reached", "50000")]);
  await assert.rejects(s.client.send("hi"), (err) => err.error === "limit_reached" && err.retryAfterSeconds === 50000);
  assert.deepEqual(s.waits, []);

  s = stub([() => refuse(503, "server_error", "2"), ok, () => refuse(503, "server_error", "2")]);
  await s.client.getTone();
  await assert.rejects(s.client.send("hi"), (err) => err.status === 503);
  assert.deepEqual(s.waits, [2000]);

  const none = new SvcClient({ baseUrl: "http://svc.test", apiKey: "k", maxRetries: 0, fetch: async () => refuse(429, "rate_limited", "1") });
  await assert.rejects(none.send("hi"), (err) => err.error === "rate_limited" && err.retryAfterSeconds === 1);
});

test("bad arguments are refused before any request", () => {
  assert.throws(() => new SvcClient({ baseUrl: "ftp://x", apiKey: "k" }), TypeError);
  assert.throws(() => new SvcClient({ baseUrl: "http://x", apiKey: " " }), TypeError);
});
