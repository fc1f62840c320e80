"""svc_client: the client of svc's HTTP API (standard library only).

    from svc_client import Client
    client = Client("https://svc.example.com", "svc_pk_...")
    print(client.send("Do you ship to Germany?").reply.body)
"""

from ._operations import OPERATIONS
from .client import MAX_UPLOAD, Client, __version__
from .errors import SvcError
from .types import (
    AllTimeUsage, ApiKeyMeta, Article, Conversation, CrawlStatus, CreatedEmbedToken, EmbedToken,
    IntelligenceMeta, IntelligenceResult, KBDocument, KBDocumentList, KeyInfo, MarketingMeta,
    MarketingResult, Message, Pricing, Product, SendResult, Source, Suggestions, Tone,
    UploadResult, UpsertResult, UsageEvent, UsageSummary, UsageTotals,
)

__all__ = [
    "OPERATIONS", "MAX_UPLOAD", "Client", "SvcError", "__version__",
    "AllTimeUsage", "ApiKeyMeta", "Article", "Conversation", "CrawlStatus", "CreatedEmbedToken",
    "EmbedToken", "IntelligenceMeta", "IntelligenceResult", "KBDocument", "KBDocumentList",
    "KeyInfo", "MarketingMeta", "MarketingResult", "Message", "Pricing", "Product", "SendResult",
    "Source", "Suggestions", "Tone", "UploadResult", "UpsertResult", "UsageEvent", "UsageSummary",
    "UsageTotals",
]
