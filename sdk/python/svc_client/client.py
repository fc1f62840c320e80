"""The client of one svc service with one secret key."""

import email.utils
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, BinaryIO, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from ._operations import OPERATIONS
from .errors import SvcError
from .types import (
    Conversation, CrawlStatus, CreatedEmbedToken, EmbedToken, IntelligenceResult, KBDocumentList,
    KeyInfo, MarketingResult, SendResult, Suggestions, Tone, UploadResult, UpsertResult,
    UsageSummary, decode,
)

__version__ = "0.1.0"

#: The largest file the knowledge-base API takes (20 MiB); a larger one is refused here.
MAX_UPLOAD = 20 << 20

#: A file to upload: a path, bytes, or an open binary file.
FileInput = Union[str, "os.PathLike[str]", bytes, BinaryIO]


class Client:
    """Calls svc's API with a secret key (``svc_pk_…``; server side only).

    ``timeout`` bounds each network operation of an attempt, in seconds. A 429 answer (and a
    503 to a read) is retried after its Retry-After, at most ``max_retries`` times and only
    when the wait is no longer than ``max_retry_wait`` seconds; otherwise the SvcError is
    raised at once.
    """

    def __init__(self, base_url: str, api_key: str, *, timeout: float = 60.0, max_retries: int = 2,
                 max_retry_wait: float = 30.0, sleep: Callable[[float], None] = time.sleep) -> None:
        base = (base_url or "").strip().rstrip("/")
        parsed = urllib.parse.urlparse(base)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"svc: base URL {base_url!r}: want http(s)://host[:port]")
        if not (api_key or "").strip():
            raise ValueError("svc: the API key is empty")
        self._base = base
        self._key = api_key
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_retry_wait = max_retry_wait
        self._sleep = sleep

    # --- Chat API -------------------------------------------------------------------------

    def start(self) -> Conversation:
        """Opens or resumes the account's conversation and returns its history."""
        return self._call(Conversation, "chat/start")

    def send(self, message: str) -> SendResult:
        """Asks a question (at most 2,000 characters); ``.reply`` is the assistant's answer."""
        return self._call(SendResult, "chat/send", json_body={"message": message})

    def suggestions(self) -> Suggestions:
        """Help articles and starter questions."""
        return self._call(Suggestions, "chat/suggestions")

    def sync(self, since_id: int = 0) -> Conversation:
        """The messages whose id is greater than ``since_id``."""
        return self._call(Conversation, "chat/sync", query={"sinceId": since_id})

    def feedback(self, message_id: int, rating: str, comment: Optional[str] = None) -> bool:
        """Rates an assistant message ``helpful`` or ``not_helpful``; returns ``saved``."""
        body = _fields(messageId=message_id, rating=rating, comment=comment)
        return bool(self._call(dict, "chat/feedback", json_body=body).get("saved"))

    def api_key(self) -> KeyInfo:
        """The key's metadata (never the key), the balance and the pricing."""
        return self._call(KeyInfo, "chat/apiKey")

    def usage_summary(self) -> UsageSummary:
        """The last 30 days' usage and the all-time totals."""
        return self._call(UsageSummary, "chat/usageSummary")

    def get_tone(self) -> Tone:
        """The assistant's tone (changed in the dashboard only)."""
        return self._call(Tone, "chat/getTone")

    # --- Embed tokens ---------------------------------------------------------------------

    def embed_tokens(self) -> List[EmbedToken]:
        """The account's embed tokens with today's usage."""
        return self._call(List[EmbedToken], "chat/embedTokens", key="tokens")

    def embed_token_create(self, domains: Union[str, Iterable[str]], *, label: Optional[str] = None,
                           daily_budget_usd: Union[str, float, None] = None, show_sources: Optional[bool] = None,
                           title: Optional[str] = None, welcome: Optional[str] = None, position: Optional[str] = None,
                           theme: Optional[str] = None, avatar_url: Optional[str] = None) -> CreatedEmbedToken:
        """Creates a token (at most 5 active); its full value is in the answer, this once.
        ``position`` is right or left, ``theme`` light, dark or auto."""
        body = _fields(domains=_domains(domains), label=label, daily_budget_usd=daily_budget_usd,
                       show_sources=show_sources, title=title, welcome=welcome, position=position,
                       theme=theme, avatar_url=avatar_url)
        return self._call(CreatedEmbedToken, "chat/embedTokenCreate", json_body=body)

    def embed_token_update(self, token_id: int, *, domains: Union[str, Iterable[str], None] = None,
                           label: Optional[str] = None, daily_budget_usd: Union[str, float, None] = None,
                           show_sources: Optional[bool] = None, title: Optional[str] = None,
                           welcome: Optional[str] = None, position: Optional[str] = None,
                           theme: Optional[str] = None, avatar_url: Optional[str] = None) -> bool:
        """Changes the settings given (None leaves one unchanged); returns ``updated``."""
        body = _fields(id=token_id, domains=None if domains is None else _domains(domains), label=label,
                       daily_budget_usd=daily_budget_usd, show_sources=show_sources, title=title,
                       welcome=welcome, position=position, theme=theme, avatar_url=avatar_url)
        return bool(self._call(dict, "chat/embedTokenUpdate", json_body=body).get("updated"))

    def embed_token_revoke(self, token_id: int) -> bool:
        """Revokes a token for good; returns ``revoked``."""
        return bool(self._call(dict, "chat/embedTokenRevoke", json_body={"id": token_id}).get("revoked"))

    # --- Generators -----------------------------------------------------------------------

    def marketing_generate(self, brief: str, *, product: Optional[str] = None, audience: Optional[str] = None,
                           goal: Optional[str] = None, tone: Optional[str] = None, format: Optional[str] = None,
                           variants: Optional[int] = None, site_id: Optional[int] = None,
                           lang: Optional[str] = None, depth: Optional[str] = None) -> MarketingResult:
        """Marketing copy grounded on the knowledge base and products."""
        body = _fields(brief=brief, product=product, audience=audience, goal=goal, tone=tone, format=format,
                       variants=variants, site_id=site_id, lang=lang, depth=depth)
        return self._call(MarketingResult, "chat/marketingGenerate", json_body=body)

    def intelligence(self, op: str, **params: Any) -> IntelligenceResult:
        """Runs an op of the Intelligence API (answer, summarize, compare, extract, data) with
        its parameters: format, depth, site_id, lang, question, topic, items, query, fields,
        type, page, limit, category."""
        name = "intelligence/" + op
        if name not in OPERATIONS:
            raise ValueError(f"svc: unknown intelligence op {op!r}")
        return self._call(IntelligenceResult, name, json_body=_fields(**params))

    # --- Knowledge-base API ---------------------------------------------------------------

    def kb_documents(self, *, type: Optional[str] = None, q: Optional[str] = None,
                     page: Optional[int] = None, limit: Optional[int] = None) -> KBDocumentList:
        """Lists the knowledge base's documents (``type`` page, qa, product or article)."""
        return self._call(KBDocumentList, "kb/documents", query=_fields(type=type, q=q, page=page, limit=limit))

    def kb_document_upload(self, file: FileInput, *, filename: Optional[str] = None, lang: Optional[str] = None,
                           title: Optional[str] = None, url: Optional[str] = None) -> UploadResult:
        """Uploads a PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, text or HTML file."""
        name, data = _read_file(file, filename)
        form = _fields(lang=lang, title=title, url=url)
        return self._call(UploadResult, "kb/documentUpload", multipart=(form, name, data))

    def kb_document_delete(self, document_id: int) -> bool:
        """Deletes a document; the next question no longer finds it. Returns ``deleted``."""
        return bool(self._call(dict, "kb/documentDelete", json_body={"id": document_id}).get("deleted"))

    def kb_qa_create(self, question: str, answer: str, lang: Optional[str] = None) -> int:
        """Adds a curated Q&A entry and returns its id."""
        body = _fields(question=question, answer=answer, lang=lang)
        return int(self._call(dict, "kb/qaCreate", json_body=body)["id"])

    def kb_qa_update(self, qa_id: int, *, question: Optional[str] = None, answer: Optional[str] = None,
                     lang: Optional[str] = None) -> bool:
        """Changes the fields given of a Q&A entry; returns ``updated``."""
        body = _fields(id=qa_id, question=question, answer=answer, lang=lang)
        return bool(self._call(dict, "kb/qaUpdate", json_body=body).get("updated"))

    def kb_qa_delete(self, qa_id: int) -> bool:
        """Deletes a Q&A entry; returns ``deleted``."""
        return bool(self._call(dict, "kb/qaDelete", json_body={"id": qa_id}).get("deleted"))

    def kb_products_upsert(self, products: Iterable[Mapping[str, Any]]) -> UpsertResult:
        """Creates or updates products (name, url, price, category, image, description, sku),
        each matched by sku, else by url."""
        return self._call(UpsertResult, "kb/productsUpsert", json_body={"products": [dict(p) for p in products]})

    def kb_products_upsert_file(self, file: FileInput, *, filename: Optional[str] = None) -> UpsertResult:
        """Upserts the rows of a CSV or XLSX file whose header row names the product fields."""
        name, data = _read_file(file, filename)
        return self._call(UpsertResult, "kb/productsUpsert", multipart=({}, name, data))

    def kb_import(self, jsonl: Union[str, bytes, BinaryIO, "os.PathLike[str]"]) -> Dict[str, int]:
        """Imports JSON Lines, as ``svc kb import``: all of it, or nothing and a 400 naming the
        bad line. A str is the JSON Lines text itself; bytes, an open binary file or a path
        (pathlib.Path) are read. Returns the counts by type (pages, qa, products, articles,
        unchanged)."""
        if isinstance(jsonl, str):
            name, data = "import.jsonl", jsonl.encode("utf-8")
        else:
            name, data = _read_file(jsonl, "import.jsonl" if isinstance(jsonl, (bytes, bytearray)) else None)
        return self._call(Dict[str, int], "kb/import", multipart=({}, name, data))

    def kb_crawl_start(self, *, url: Optional[str] = None, site_id: Optional[int] = None) -> int:
        """Starts a crawl of a URL or of one of the account's sites; returns its id."""
        return int(self._call(dict, "kb/crawlStart", json_body=_fields(url=url, site_id=site_id))["crawl_id"])

    def kb_crawl_status(self, crawl_id: int) -> CrawlStatus:
        """A crawl's state (queued, running, done, failed) and counts."""
        return self._call(CrawlStatus, "kb/crawlStatus", query={"crawl_id": crawl_id})

    # --- Transport ------------------------------------------------------------------------

    def _call(self, tp: Any, op: str, *, query: Optional[Mapping[str, Any]] = None,
              json_body: Optional[Mapping[str, Any]] = None,
              multipart: Optional[Tuple[Mapping[str, Any], str, bytes]] = None, key: Optional[str] = None) -> Any:
        method = OPERATIONS[op]
        url = f"{self._base}/api/v1/{op}"
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Authorization": "Bearer " + self._key, "Accept": "application/json",
                   "User-Agent": "svc-python/" + __version__}
        body = None
        if multipart is not None:
            body, headers["Content-Type"] = _multipart(*multipart)
        elif json_body is not None:
            body, headers["Content-Type"] = json.dumps(json_body).encode("utf-8"), "application/json"
        attempt = 0
        while True:
            try:
                data = self._once(method, url, headers, body)
                break
            except SvcError as err:
                if attempt >= self._max_retries or not self._retryable(method, err):
                    raise
                attempt += 1
                self._sleep(err.retry_after if err.retry_after is not None else 1.0)
        if key is not None:
            data = (data or {}).get(key)
        return decode(tp, data) if tp is not dict else dict(data or {})

    def _retryable(self, method: str, err: SvcError) -> bool:
        # A rate limit whose wait is within bounds, or an unavailable database under a read
        # (a write may have been applied), is worth sending again.
        if err.status != 429 and not (err.status == 503 and method == "GET"):
            return False
        return (err.retry_after or 0.0) <= self._max_retry_wait

    def _once(self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes]) -> Any:
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                status, resp_headers, raw = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            status, resp_headers, raw = e.code, e.headers, e.read()
        try:
            env = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            env = None
        if 200 <= status < 300 and isinstance(env, dict) and env.get("success") is True:
            return env.get("data")
        request_id = resp_headers.get("X-Request-Id")
        retry_after = _retry_after(resp_headers.get("Retry-After"))
        if not isinstance(env, dict) or not env.get("error"):
            raise SvcError(status, "invalid_response",
                           f"HTTP {status} with a body that is not the service's JSON envelope", request_id, retry_after)
        raise SvcError(status, str(env["error"]), str(env.get("message", "")), request_id, retry_after)


def _fields(**kwargs: Any) -> Dict[str, Any]:
    """The keyword arguments that are set."""
    return {k: v for k, v in kwargs.items() if v is not None}


def _domains(domains: Union[str, Iterable[str]]) -> str:
    return domains if isinstance(domains, str) else ",".join(domains)


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Reads a Retry-After header (delay seconds or an HTTP date) as seconds."""
    if not value or not value.strip():
        return None
    v = value.strip()
    if v.isdigit():
        return float(v)
    try:
        at = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() - time.time())


def _read_file(file: FileInput, filename: Optional[str]) -> Tuple[str, bytes]:
    """The name and bytes of a file to upload, at most MAX_UPLOAD."""
    if isinstance(file, (bytes, bytearray)):
        if not filename:
            raise ValueError("svc: a filename is needed with bytes (its extension helps tell the format)")
        name, data = filename, bytes(file[:MAX_UPLOAD + 1])
    elif isinstance(file, (str, os.PathLike)):
        name = filename or os.path.basename(os.fspath(file))
        with open(file, "rb") as f:
            data = f.read(MAX_UPLOAD + 1)
    else:
        name = filename or os.path.basename(str(getattr(file, "name", "") or "")) or "upload"
        data = file.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise ValueError(f"svc: {name} is larger than {MAX_UPLOAD >> 20} MiB")
    return name, data


def _multipart(fields: Mapping[str, Any], filename: str, data: bytes) -> Tuple[bytes, str]:
    """A multipart/form-data body of fields and one file part "file"."""
    boundary = "svc-" + uuid.uuid4().hex
    quoted = filename.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")
    out = []
    for k, v in fields.items():
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode("utf-8"))
    out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{quoted}"\r\n'
               f"Content-Type: application/octet-stream\r\n\r\n".encode("utf-8"))
    out.append(data)
    out.append(f"\r\n--{boundary}--\r\n".encode("utf-8"))
    return b"".join(out), "multipart/form-data; boundary=" + boundary
