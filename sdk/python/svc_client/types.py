"""The typed results of the API (timestamps are RFC 3339 strings in UTC, amounts are USD).

Each result is a dataclass whose attributes are the API's fields in snake_case
(``conversationId`` is ``conversation_id``). Fields the service adds later are ignored, and a
field it leaves out keeps its default, so a newer or older server still decodes.
"""

import dataclasses
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union, get_args, get_origin, get_type_hints


@dataclass
class Product:
    name: str = ""
    url: str = ""
    price: str = ""
    category: str = ""
    image: str = ""


@dataclass
class Source:
    """A knowledge-base document a reply quotes; ``url`` is "" for one without a page."""
    title: str = ""
    url: str = ""


@dataclass
class Message:
    id: int = 0
    role: str = ""  # user, assistant, system
    body: str = ""
    source: str = ""  # ai, cache_tenant, cache_shared, system, fallback
    created_at: str = ""
    products: List[Product] = field(default_factory=list)
    sources: List[Source] = field(default_factory=list)


@dataclass
class Conversation:
    """What start and sync return; ``lang`` is set by start only."""
    conversation_id: int = 0
    lang: str = ""
    messages: List[Message] = field(default_factory=list)


@dataclass
class SendResult:
    conversation_id: int = 0
    messages: List[Message] = field(default_factory=list)  # the user message, then the reply
    low_confidence: bool = False

    @property
    def reply(self) -> Message:
        """The assistant's reply (the last message)."""
        return self.messages[-1] if self.messages else Message()


@dataclass
class Article:
    id: int = 0
    slug: str = ""
    title: str = ""
    excerpt: str = ""
    category_slug: str = ""
    category_name: str = ""
    view_count: int = 0


@dataclass
class Suggestions:
    articles: List[Article] = field(default_factory=list)
    seeds: List[str] = field(default_factory=list)


@dataclass
class ApiKeyMeta:
    id: int = 0
    api_key_prefix: str = ""
    status: str = ""
    last_used_at: str = ""
    created_at: str = ""


@dataclass
class Pricing:
    input_per_m_usd: float = 0.0
    output_per_m_usd: float = 0.0
    typical_ai_usd: float = 0.0


@dataclass
class KeyInfo:
    api_key: ApiKeyMeta = field(default_factory=ApiKeyMeta)
    balance: float = 0.0
    pricing: Pricing = field(default_factory=Pricing)


@dataclass
class UsageTotals:
    count: int = 0
    cost: float = 0.0


@dataclass
class AllTimeUsage:
    events: int = 0
    cost: float = 0.0


@dataclass
class UsageEvent:
    id: int = 0
    event_type: str = ""
    cost_usd: float = 0.0
    created_at: str = ""


@dataclass
class UsageSummary:
    window_days: int = 0
    by_event: Dict[str, UsageTotals] = field(default_factory=dict)
    total_cost: float = 0.0
    total_events: int = 0
    all_time: AllTimeUsage = field(default_factory=AllTimeUsage)
    recent: List[UsageEvent] = field(default_factory=list)
    price_per_message_usd: float = 0.0


@dataclass
class Tone:
    preset: str = ""
    custom: str = ""
    presets: List[str] = field(default_factory=list)


@dataclass
class EmbedToken:
    """A public widget token with today's usage; ``token`` is shortened except on creation."""
    id: int = 0
    token: str = ""
    label: str = ""
    allowed_domains: List[str] = field(default_factory=list)
    daily_budget_usd: str = ""  # decimal, four places
    show_sources: bool = False
    status: str = ""  # active, revoked
    today_spend_usd: float = 0.0
    budget_used_pct: int = 0
    conversations: int = 0
    visitors: int = 0
    last_used_at: Optional[str] = None
    created_at: str = ""
    # The widget's appearance.
    title: str = ""
    welcome: str = ""
    position: str = ""
    theme: str = ""
    avatar_url: str = ""


@dataclass
class CreatedEmbedToken:
    id: int = 0
    token: str = ""  # the full token, shown this once


@dataclass
class MarketingMeta:
    lang: str = ""
    grounded: bool = False
    kb_used: int = 0
    products: int = 0
    tokens: int = 0
    depth: str = ""


@dataclass
class MarketingResult:
    """``content`` is a dict: headline, body, cta, variants, hashtags, strategy_used when lean;
    the full deliverable or the 12-section strategy by ``depth``."""
    content: Dict[str, Any] = field(default_factory=dict)
    meta: MarketingMeta = field(default_factory=MarketingMeta)


@dataclass
class IntelligenceMeta:
    lang: str = ""
    grounded: bool = False
    kb_used: int = 0
    products: int = 0
    tokens: int = 0
    depth: str = ""
    total: Optional[int] = None  # the data op's count of matches


@dataclass
class IntelligenceResult:
    """``result`` is {"result"} for text and markdown, {"columns", "rows"} for table,
    {"items"} for list, {"data"} for json."""
    op: str = ""
    format: str = ""
    result: Dict[str, Any] = field(default_factory=dict)
    meta: IntelligenceMeta = field(default_factory=IntelligenceMeta)


@dataclass
class KBDocument:
    id: int = 0
    type: str = ""  # page, qa, product, article
    title: str = ""
    url: str = ""
    lang: str = ""
    updated_at: str = ""


@dataclass
class KBDocumentList:
    documents: List[KBDocument] = field(default_factory=list)
    total: int = 0


@dataclass
class UploadResult:
    documents: List[int] = field(default_factory=list)
    chunks: int = 0


@dataclass
class UpsertResult:
    created: int = 0
    updated: int = 0


@dataclass
class CrawlStatus:
    state: str = ""  # queued, running, done, failed
    pages: int = 0
    products: int = 0
    articles: int = 0
    skipped: int = 0


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def decode(tp: Any, value: Any) -> Any:
    """Builds a value of type ``tp`` from decoded JSON: dataclasses field by field (snake_case
    or camelCase keys), lists and dicts element by element, anything else as it is."""
    if value is None:
        return None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, dict):
            return tp()
        hints = get_type_hints(tp, vars(sys.modules[tp.__module__]))
        kwargs = {}
        for f in dataclasses.fields(tp):
            for key in (f.name, _camel(f.name)):
                if key in value:
                    kwargs[f.name] = decode(hints[f.name], value[key])
                    break
        return tp(**kwargs)
    origin = get_origin(tp)
    if origin is list and isinstance(value, list):
        (item,) = get_args(tp)
        return [decode(item, v) for v in value]
    if origin is dict and isinstance(value, dict):
        _, item = get_args(tp)
        return {k: decode(item, v) for k, v in value.items()}
    if origin is Union:
        inner = [a for a in get_args(tp) if a is not type(None)]
        return decode(inner[0], value) if len(inner) == 1 else value
    return value

