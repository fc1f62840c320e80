package svcclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/url"
	"strconv"
)

// MaxUpload is the largest file the knowledge-base API takes (DECISIONS.md: 20 MiB); a larger
// one is refused here, before it is sent.
const MaxUpload = 20 << 20

// KBDocuments lists the knowledge base's documents.
func (c *Client) KBDocuments(ctx context.Context, q KBDocumentsQuery) (*KBDocumentList, error) {
	v := url.Values{}
	if q.Type != "" {
		v.Set("type", q.Type)
	}
	if q.Q != "" {
		v.Set("q", q.Q)
	}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	var out KBDocumentList
	return &out, c.call(ctx, request{op: "kb/documents", query: v}, &out)
}

// KBDocumentUpload uploads one file (PDF, DOCX, ODT, XLSX, ODS, CSV, Markdown, plain text,
// HTML); filename names it, and its extension helps tell the format.
func (c *Client) KBDocumentUpload(ctx context.Context, filename string, file io.Reader, opt UploadOptions) (*UploadResult, error) {
	fields := map[string]string{}
	for name, v := range map[string]string{"lang": opt.Lang, "title": opt.Title, "url": opt.URL} {
		if v != "" {
			fields[name] = v
		}
	}
	r, err := multipartRequest("kb/documentUpload", fields, filename, file)
	if err != nil {
		return nil, err
	}
	var out UploadResult
	return &out, c.call(ctx, r, &out)
}

// KBDocumentDelete deletes a document; the next question no longer finds it.
func (c *Client) KBDocumentDelete(ctx context.Context, id int64) error {
	return c.deleteByID(ctx, "kb/documentDelete", id)
}

// KBQACreate adds a curated Q&A entry (Question and Answer required; Lang detected when nil)
// and returns its id.
func (c *Client) KBQACreate(ctx context.Context, qa QA) (int64, error) {
	r, err := jsonRequest("kb/qaCreate", qa.fields())
	if err != nil {
		return 0, err
	}
	var out struct {
		ID int64 `json:"id"`
	}
	return out.ID, c.call(ctx, r, &out)
}

// KBQAUpdate changes the fields of qa that are set.
func (c *Client) KBQAUpdate(ctx context.Context, id int64, qa QA) error {
	f := qa.fields()
	f["id"] = id
	r, err := jsonRequest("kb/qaUpdate", f)
	if err != nil {
		return err
	}
	var out struct {
		Updated bool `json:"updated"`
	}
	return c.call(ctx, r, &out)
}

// KBQADelete deletes a Q&A entry.
func (c *Client) KBQADelete(ctx context.Context, id int64) error {
	return c.deleteByID(ctx, "kb/qaDelete", id)
}

// KBProductsUpsert creates or updates products, each matched by SKU, else by URL.
func (c *Client) KBProductsUpsert(ctx context.Context, products []KBProduct) (*UpsertResult, error) {
	if products == nil {
		products = []KBProduct{}
	}
	r, err := jsonRequest("kb/productsUpsert", map[string]any{"products": products})
	if err != nil {
		return nil, err
	}
	var out UpsertResult
	return &out, c.call(ctx, r, &out)
}

// KBProductsUpsertFile upserts the rows of a CSV or XLSX file whose header row names the
// product fields (name, url, price, category, image, description, sku).
func (c *Client) KBProductsUpsertFile(ctx context.Context, filename string, file io.Reader) (*UpsertResult, error) {
	r, err := multipartRequest("kb/productsUpsert", nil, filename, file)
	if err != nil {
		return nil, err
	}
	var out UpsertResult
	return &out, c.call(ctx, r, &out)
}

// KBImport imports a JSON Lines knowledge base, as `svc kb import` does: all of it, or
// nothing and a 400 naming the bad line.
func (c *Client) KBImport(ctx context.Context, jsonl io.Reader) (ImportCounts, error) {
	r, err := multipartRequest("kb/import", nil, "import.jsonl", jsonl)
	if err != nil {
		return nil, err
	}
	var out ImportCounts
	return out, c.call(ctx, r, &out)
}

// CrawlTarget is what a crawl starts from: a URL, or one of the account's site ids.
type CrawlTarget struct {
	URL    string
	SiteID int64
}

// KBCrawlStart starts a crawl and returns its id.
func (c *Client) KBCrawlStart(ctx context.Context, t CrawlTarget) (int64, error) {
	f := map[string]any{}
	if t.URL != "" {
		f["url"] = t.URL
	}
	if t.SiteID != 0 {
		f["site_id"] = t.SiteID
	}
	r, err := jsonRequest("kb/crawlStart", f)
	if err != nil {
		return 0, err
	}
	var out struct {
		CrawlID int64 `json:"crawl_id"`
	}
	return out.CrawlID, c.call(ctx, r, &out)
}

// KBCrawlStatus returns a crawl's state and counts.
func (c *Client) KBCrawlStatus(ctx context.Context, crawlID int64) (*CrawlStatus, error) {
	var out CrawlStatus
	q := url.Values{"crawl_id": {strconv.FormatInt(crawlID, 10)}}
	return &out, c.call(ctx, request{op: "kb/crawlStatus", query: q}, &out)
}

func (c *Client) deleteByID(ctx context.Context, op string, id int64) error {
	r, err := jsonRequest(op, map[string]any{"id": id})
	if err != nil {
		return err
	}
	var out struct {
		Deleted bool `json:"deleted"`
	}
	return c.call(ctx, r, &out)
}

// multipartRequest builds a multipart/form-data body of fields and one file part "file".
// The body is kept whole (at most MaxUpload) so that a retry can send it again.
func multipartRequest(op string, fields map[string]string, filename string, file io.Reader) (request, error) {
	if file == nil {
		return request{}, fmt.Errorf("svcclient: %s: no file", op)
	}
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			return request{}, err
		}
	}
	part, err := w.CreateFormFile("file", filename)
	if err != nil {
		return request{}, err
	}
	n, err := io.Copy(part, io.LimitReader(file, MaxUpload+1))
	if err != nil {
		return request{}, fmt.Errorf("svcclient: %s: reading %s: %w", op, filename, err)
	}
	if n > MaxUpload {
		return request{}, fmt.Errorf("svcclient: %s: %s is larger than %d MiB", op, filename, MaxUpload>>20)
	}
	if err := w.Close(); err != nil {
		return request{}, err
	}
	return request{op: op, body: b.Bytes(), contentType: w.FormDataContentType()}, nil
}
