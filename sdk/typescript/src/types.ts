// The shapes of the API's requests and results (timestamps are RFC 3339 strings in UTC,
// amounts are USD).

export type Lang = "tr" | "en" | "de";
export type MessageSource = "ai" | "cache_tenant" | "cache_shared" | "system" | "fallback";

/** A product card of an assistant message. */
export interface Product {
  name: string;
  url?: string;
  price?: string;
  category?: string;
  image?: string;
}

/** A knowledge-base document a reply quotes; `url` is `""` for one without a page. */
export interface Source {
  title: string;
  url: string;
}

export interface Message {
  id: number;
  role: "user" | "assistant" | "system";
  body: string;
  source: MessageSource;
  created_at: string;
  products?: Product[];
  sources: Source[];
}

/** What `start` and `sync` return; `lang` is set by `start` only. */
export interface Conversation {
  conversationId: number;
  lang?: Lang;
  messages: Message[];
}

export interface SendResult {
  conversationId: number;
  /** The stored user message, then the assistant's reply. */
  messages: Message[];
  lowConfidence: boolean;
  /** The assistant's reply (the last message), added by the client for convenience. */
  reply: Message;
}

export interface Article {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  category_slug: string;
  category_name: string;
  view_count: number;
}

export interface Suggestions {
  articles: Article[];
  seeds: string[];
}

export type Rating = "helpful" | "not_helpful";

export interface KeyInfo {
  apiKey: {
    id: number;
    api_key_prefix: string;
    status: string;
    last_used_at: string;
    created_at: string;
  };
  balance: number;
  pricing: { input_per_m_usd: number; output_per_m_usd: number; typical_ai_usd: number };
}

export interface UsageTotals {
  count: number;
  cost: number;
}

export interface UsageSummary {
  window_days: number;
  by_event: Record<string, UsageTotals>;
  total_cost: number;
  total_events: number;
  all_time: { events: number; cost: number };
  recent: { id: number; event_type: string; cost_usd: number; created_at: string }[];
  price_per_message_usd: number;
}

export interface Tone {
  preset: string;
  custom: string;
  presets: string[];
}

/** A public widget token with today's usage; `token` is shortened except on creation. */
export interface EmbedToken {
  id: number;
  token: string;
  label: string;
  allowed_domains: string[];
  daily_budget_usd: string;
  show_sources: boolean;
  status: "active" | "revoked";
  today_spend_usd: number;
  budget_used_pct: number;
  conversations: number;
  visitors: number;
  last_used_at: string | null;
  created_at: string;
  title?: string;
  welcome?: string;
  position?: "right" | "left";
  theme?: "light" | "dark" | "auto";
  avatar_url?: string;
}

/** The settings of `embedTokenCreate` and `embedTokenUpdate`; a field left out is not sent. */
export interface EmbedTokenSettings {
  /** Allowed domains, as a list or comma-separated; required on create. */
  domains?: string[] | string;
  /** At most 80 characters. */
  label?: string;
  /** 0.05 to 100 USD, default 1.00; a decimal string keeps it exact. */
  daily_budget_usd?: string | number;
  show_sources?: boolean;
  /** The widget's title, at most 60 characters. */
  title?: string;
  /** The widget's welcome message, at most 300 characters. */
  welcome?: string;
  position?: "right" | "left";
  theme?: "light" | "dark" | "auto";
  /** An https URL, or `""` for none. */
  avatar_url?: string;
}

export interface CreatedEmbedToken {
  id: number;
  /** The full token, shown this once. */
  token: string;
}

export interface MarketingRequest {
  brief: string;
  product?: string;
  audience?: string;
  goal?: string;
  tone?: string;
  format?: string;
  variants?: number;
  site_id?: number;
  lang?: Lang;
  depth?: "lean" | "full" | "strategy";
}

export interface MarketingLean {
  headline: string;
  body: string;
  cta: string;
  variants: string[];
  hashtags: string[];
  strategy_used: string;
}

export interface MarketingMeta {
  lang: Lang;
  grounded: boolean;
  kb_used: number;
  products: number;
  tokens: number;
  depth: "lean" | "full" | "strategy";
}

export interface MarketingResult {
  /** Lean content by default; the full deliverable or the 12-section strategy by `depth`. */
  content: MarketingLean | Record<string, unknown>;
  meta: MarketingMeta;
}

export type IntelligenceOp = "answer" | "summarize" | "compare" | "extract" | "data";
export type IntelligenceFormat = "text" | "markdown" | "json" | "table" | "list";

/** The parameters of every op; set those the op reads. */
export interface IntelligenceRequest {
  format?: IntelligenceFormat;
  depth?: "lean" | "full";
  site_id?: number;
  lang?: Lang;
  /** answer */
  question?: string;
  /** summarize, extract */
  topic?: string;
  /** compare */
  items?: string[];
  /** compare, data */
  query?: string;
  /** extract */
  fields?: string[];
  /** data */
  type?: "products" | "faq" | "categories";
  page?: number;
  limit?: number;
  category?: string;
}

export type IntelligenceOutput =
  | { columns: string[]; rows: string[][] }
  | { items: string[] }
  | { data: unknown }
  | { result: string };

export interface IntelligenceResult {
  op: IntelligenceOp;
  format: IntelligenceFormat;
  /** `{result}` for text and markdown, `{columns, rows}` for table, `{items}` for list, `{data}` for json. */
  result: IntelligenceOutput;
  meta: {
    lang: Lang;
    grounded: boolean;
    kb_used: number;
    products: number;
    tokens: number;
    depth: "lean" | "full";
    total?: number;
  };
}

export interface KBDocumentsQuery {
  type?: "page" | "qa" | "product" | "article";
  q?: string;
  page?: number;
  limit?: number;
}

export interface KBDocument {
  id: number;
  type: "page" | "qa" | "product" | "article";
  title: string;
  url: string;
  lang: Lang;
  updated_at: string;
}

export interface KBDocumentList {
  documents: KBDocument[];
  total: number;
}

/** A file to upload: its name (whose extension helps tell the format) and its bytes. */
export interface UploadFile {
  name: string;
  data: Blob | Uint8Array | ArrayBuffer | string;
  type?: string;
}

export interface UploadOptions {
  lang?: Lang;
  title?: string;
  url?: string;
}

export interface UploadResult {
  documents: number[];
  chunks: number;
}

export interface QA {
  question?: string;
  answer?: string;
  lang?: Lang;
}

export interface KBProduct {
  name: string;
  url?: string;
  price?: string;
  category?: string;
  image?: string;
  description?: string;
  sku?: string;
}

export interface UpsertResult {
  created: number;
  updated: number;
}

/** Counts of what an import stored, by type: pages, qa, products, articles, unchanged. */
export type ImportCounts = Record<string, number>;

export type CrawlTarget = { url: string } | { site_id: number };

export interface CrawlStatus {
  state: "queued" | "running" | "done" | "failed";
  pages: number;
  products: number;
  articles: number;
  skipped: number;
}
