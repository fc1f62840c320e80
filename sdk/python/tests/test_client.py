"""Offline tests: a stand-in server on the loopback records each request and answers from a
script."""

import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

from svc_client import OPERATIONS, Client, SvcError

OK = (200, {}, {"success": True, "data": {"messages": [], "tokens": [], "id": 1, "crawl_id": 1}})


def refuse(status, error, retry_after=None):
    headers = {"X-Request-Id": "req-1"}
    if retry_after:
        headers["Retry-After"] = retry_after
    return (status, headers, {"success": False, "error": error, "message": "No."})


class Stub:
    def __init__(self, script=()):
        self.script = list(script)
        self.seen = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                stub.seen.append({"method": self.command, "url": urlparse(self.path), "body": body,
                                  "type": self.headers.get("Content-Type", ""), "auth": self.headers.get("Authorization")})
                status, headers, payload = stub.script.pop(0) if stub.script else OK
                raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = _answer

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.waits = []
        self.client = Client(f"http://127.0.0.1:{self.server.server_port}/", "svc_pk_0123456789abcdef0123456789abcdef",
                             sleep=self.waits.append)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class ClientTest(unittest.TestCase):
    def stub(self, script=()):
        s = Stub(script)
        self.addCleanup(s.close)
        return s

    def test_every_operation_has_a_method(self):
        s = self.stub()
        c = s.client
        c.start()
        c.send("hi")
        c.suggestions()
        c.sync(3)
        c.feedback(2, "not_helpful", "short")
        c.api_key()
        c.usage_summary()
        c.get_tone()
        c.embed_tokens()
        c.embed_token_create(["a.example"], theme="dark")
        c.embed_token_update(1, title="Help")
        c.embed_token_revoke(1)
        c.marketing_generate("b")
        for op in ("answer", "summarize", "compare", "extract", "data"):
            c.intelligence(op, question="q")
        c.kb_documents(type="qa", limit=5)
        c.kb_document_upload(b"# A", filename="a.md", lang="en")
        c.kb_document_delete(1)
        c.kb_qa_create("q", "a")
        c.kb_qa_update(1, answer="b")
        c.kb_qa_delete(1)
        c.kb_products_upsert([{"name": "P", "sku": "1"}])
        c.kb_products_upsert_file(b"name,sku\nP,1\n", filename="p.csv")
        c.kb_import('{"type":"qa","question":"q","answer":"a"}\n')
        c.kb_crawl_start(url="https://x.example/")
        c.kb_crawl_status(4)
        got = {f"{r['method']} {r['url'].path}" for r in s.seen}
        want = {f"{m} /api/v1/{name}" for name, m in OPERATIONS.items()}
        self.assertEqual(got, want)
        for r in s.seen:
            self.assertEqual(r["auth"], "Bearer svc_pk_0123456789abcdef0123456789abcdef")
        with self.assertRaises(ValueError):
            c.intelligence("bogus")

    def test_request_encodings(self):
        s = self.stub()
        s.client.sync(42)
        s.client.embed_token_update(7, domains=["a.example", "b.example"], show_sources=False, position="left", avatar_url="")
        s.client.kb_document_upload(b"size,chest\nM,96-101\n", filename="size chart.csv", title="Sizes")
        self.assertEqual(s.seen[0]["url"].query, "sinceId=42")
        self.assertEqual(s.seen[0]["body"], b"")
        self.assertEqual(s.seen[1]["type"], "application/json")
        self.assertEqual(json.loads(s.seen[1]["body"]),
                         {"id": 7, "domains": "a.example,b.example", "show_sources": False, "position": "left", "avatar_url": ""})
        up = s.seen[2]
        self.assertTrue(up["type"].startswith("multipart/form-data; boundary="))
        self.assertIn(b'name="file"; filename="size chart.csv"', up["body"])
        self.assertIn(b"M,96-101", up["body"])
        self.assertIn(b"Sizes", up["body"])

    def test_refusals_raise_svc_error(self):
        s = self.stub([refuse(400, "bad_request"), (502, {}, b"<html>bad gateway</html>")])
        with self.assertRaises(SvcError) as cm:
            s.client.send("")
        e = cm.exception
        self.assertEqual((e.status, e.error, e.message, e.request_id), (400, "bad_request", "No.", "req-1"))
        self.assertIn("req-1", str(e))
        with self.assertRaises(SvcError) as cm:
            s.client.get_tone()
        self.assertEqual((cm.exception.status, cm.exception.error), (502, "invalid_response"))

    def test_retry_after(self):
        s = self.stub([refuse(429, "rate_limited", "7"), refuse(429, "rate_limited")])
        s.client.send("hi")
        self.assertEqual(s.waits, [7.0, 1.0])
        self.assertEqual(len(s.seen), 3)

        s = self.stub([refuse(429, "limit_reached", "50000")])
        with self.assertRaises(SvcError) as cm:
            s.client.send("hi")
        self.assertEqual((cm.exception.error, cm.exception.retry_after, s.waits), ("limit_reached", 50000.0, []))

        s = self.stub([refuse(503, "server_error", "2"), OK, refuse(503, "server_error", "2")])
        s.client.get_tone()
        with self.assertRaises(SvcError):
            s.client.send("hi")
        self.assertEqual(s.waits, [2.0])

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            Client("ftp://x", "k")
        with self.assertRaises(ValueError):
            Client("http://x", " ")
        with self.assertRaises(ValueError):
            Client("http://x", "k").kb_document_upload(b"x")  # no filename


if __name__ == "__main__":
    unittest.main()
