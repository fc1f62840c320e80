"""Tests against a real svc server. The repository's Go test (sdk/live_test.go) starts one,
creates the accounts and sets: SVC_BASE_URL, SVC_API_KEY (an account holding
sdk/testdata/kb.jsonl), SVC_LIMITED_API_KEY (one send a minute), SVC_TEST_KB=1 when the server
has the knowledge-base API, SVC_TEST_CRAWL_URL (a site the server may crawl)."""

import os
import unittest

from svc_client import Client, SvcError

BASE = os.environ.get("SVC_BASE_URL", "")
KEY = os.environ.get("SVC_API_KEY", "")
QUESTION = "How long is the warranty on the Trailmaster tent?"


@unittest.skipUnless(BASE and KEY, "SVC_BASE_URL and SVC_API_KEY are not set")
class LiveTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(BASE, KEY)

    def assertRefused(self, status, code, fn, *args, **kwargs):
        with self.assertRaises(SvcError) as cm:
            fn(*args, **kwargs)
        self.assertEqual((cm.exception.status, cm.exception.error), (status, code))
        self.assertTrue(cm.exception.message)
        return cm.exception

    def test_conversation(self):
        sent = self.client.send(QUESTION)
        self.assertEqual([m.role for m in sent.messages], ["user", "assistant"])
        self.assertIn("five-year", sent.reply.body)
        self.assertFalse(sent.low_confidence)
        self.assertIsInstance(sent.reply.sources, list)
        started = self.client.start()
        self.assertEqual(started.conversation_id, sent.conversation_id)
        self.assertIn(started.lang, ("tr", "en", "de"))
        self.assertIn(sent.reply.id, [m.id for m in started.messages])
        synced = self.client.sync(sent.messages[0].id)
        self.assertEqual([m.id for m in synced.messages], [sent.reply.id])
        sugg = self.client.suggestions()
        self.assertIsInstance(sugg.seeds, list)
        self.assertTrue(self.client.feedback(sent.reply.id, "helpful"))

    def test_account(self):
        info = self.client.api_key()
        self.assertRegex(info.api_key.api_key_prefix, r"^svc_pk_[0-9a-f]{8}$")
        self.assertTrue(KEY.startswith(info.api_key.api_key_prefix))
        self.assertIsInstance(info.balance, (int, float))
        self.assertEqual(self.client.usage_summary().window_days, 30)
        tone = self.client.get_tone()
        self.assertIn(tone.preset, tone.presets)

    def test_embed_tokens(self):
        created = self.client.embed_token_create(["shop.example"], label="Py", title="Help", welcome="Hi!",
                                                 position="left", theme="dark")
        self.assertRegex(created.token, r"^svc_emb_[A-Za-z0-9]{32}$")
        mine = next(t for t in self.client.embed_tokens() if t.id == created.id)
        self.assertEqual((mine.status, mine.allowed_domains), ("active", ["shop.example"]))
        self.assertTrue(self.client.embed_token_update(created.id, label="Py 2", daily_budget_usd="2.50"))
        mine = next(t for t in self.client.embed_tokens() if t.id == created.id)
        self.assertEqual((mine.label, mine.daily_budget_usd), ("Py 2", "2.5000"))
        self.assertTrue(self.client.embed_token_revoke(created.id))
        self.assertRefused(404, "not_found", self.client.embed_token_revoke, 999999)

    def test_generators(self):
        m = self.client.marketing_generate("A social post about our tents for weekend campers", lang="en", variants=2)
        self.assertEqual(m.meta.depth, "lean")
        self.assertIsInstance(m.content["headline"], str)
        self.assertEqual(len(m.content["variants"]), 2)
        table = self.client.intelligence("data", type="products", format="table")
        self.assertTrue(table.result["columns"])
        self.assertGreaterEqual(table.meta.total, 2)
        answer = self.client.intelligence("answer", question="How long does delivery to Germany take?", format="text")
        self.assertEqual(answer.op, "answer")
        self.assertIsInstance(answer.result["result"], str)

    def test_refusals(self):
        self.assertRefused(400, "bad_request", self.client.send, "")
        stranger = Client(BASE, "svc_pk_00000000000000000000000000000000")
        self.assertRefused(401, "unauthorized", stranger.get_tone)
        limited_key = os.environ.get("SVC_LIMITED_API_KEY")
        if not limited_key:
            return
        # The wait the server asks for is longer than the client may wait: raised at once.
        limited = Client(BASE, limited_key, max_retry_wait=0)
        limited.send("Hello!")
        err = self.assertRefused(429, "rate_limited", limited.send, "Hello again!")
        self.assertGreater(err.retry_after, 0)

    @unittest.skipUnless(os.environ.get("SVC_TEST_KB") == "1", "the server has no knowledge-base API (SVC_TEST_KB is not 1)")
    def test_knowledge_base(self):
        c = self.client
        q = "What is the return window for socks at the Py shop?"
        qa_id = c.kb_qa_create(q, "Socks can be returned within 45 days.", lang="en")
        listed = c.kb_documents(type="qa", limit=100)
        self.assertIn(qa_id, [d.id for d in listed.documents if d.type == "qa"])
        self.assertGreaterEqual(listed.total, len(listed.documents))
        self.assertIn("45 days", c.send(q).reply.body)
        self.assertTrue(c.kb_qa_update(qa_id, answer="Socks can be returned within 60 days."))
        self.assertTrue(c.kb_qa_delete(qa_id))
        self.assertRefused(404, "not_found", c.kb_qa_delete, qa_id)

        product = {"name": "Summit Sock", "sku": "PY-SOCK-1", "price": "9.00 EUR", "url": "https://trail.example/en/p/py-sock"}
        self.assertEqual(c.kb_products_upsert([product]).created, 1)
        res = c.kb_products_upsert([dict(product, price="11.00 EUR")])
        self.assertEqual((res.created, res.updated), (0, 1))
        self.assertEqual(c.kb_products_upsert_file(b"name,sku,price\nValley Sock,PY-SOCK-2,7.00 EUR\n", filename="products.csv").created, 1)

        counts = c.kb_import('{"type":"page","url":"https://trail.example/en/py-import","title":"Py import",'
                             '"body":"Imported by the Python client.","lang":"en"}\n')
        self.assertEqual(counts["pages"], 1)
        self.assertRefused(400, "bad_request", c.kb_import, '{"type":"page"}\nnot json\n')

        up = c.kb_document_upload(b"# Tent care\n\nDry the Trailmaster tent before storing it.\n", filename="care.md",
                                  lang="en", title="Tent care")
        self.assertTrue(up.documents and up.chunks >= 1)
        self.assertTrue(c.kb_document_delete(up.documents[0]))
        self.assertRefused(400, "bad_request", c.kb_document_upload, bytes([0, 1, 2, 3, 255, 254]), filename="x.bin")

        self.assertRefused(404, "not_found", c.kb_crawl_status, 999999)
        crawl_url = os.environ.get("SVC_TEST_CRAWL_URL")
        if crawl_url:
            crawl_id = c.kb_crawl_start(url=crawl_url)
            self.assertGreater(crawl_id, 0)
            self.assertIn(c.kb_crawl_status(crawl_id).state, ("queued", "running", "done", "failed"))


if __name__ == "__main__":
    unittest.main()
