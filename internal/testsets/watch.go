package testsets

import (
	"context"
	"iter"
	"time"

	"svc/internal/store"
)

// WatchKB returns st with every committed change of an account's knowledge base reported to
// hook, named by what made it: a crawl once it has finished (ReleaseSite with its summary;
// the pages it saved on the way are not reported one by one), documents imported or
// uploaded, curated Q&A entries added, edited or deleted, review items answered. One
// wrapper at the store, as semantic.NotifyKBWrites does for the embedder, so that no write
// path (the dashboard's, the API's, the crawl scheduler's, a path added later) has to
// remember the hook; everything else passes through unchanged.
func WatchKB(st store.Store, hook KBHook) store.Store {
	return &kbWatch{Store: st, hook: hook}
}

type kbWatch struct {
	store.Store
	hook KBHook
}

func (w *kbWatch) changed(accountID int64, trigger string, err error) {
	if err == nil {
		w.hook.KBChanged(accountID, trigger)
	}
}

// docsTrigger names an import by what it held: only curated Q&A entries is a Q&A edit.
func docsTrigger(docs []store.Document) string {
	for _, d := range docs {
		if d.Type != store.DocQA {
			return store.TestTriggerUpload
		}
	}
	return store.TestTriggerQA
}

func (w *kbWatch) ImportDocuments(ctx context.Context, accountID int64, docs []store.Document) (store.ImportResult, error) {
	r, err := w.Store.ImportDocuments(ctx, accountID, docs)
	if len(docs) > 0 && r.Unchanged < len(docs) {
		w.changed(accountID, docsTrigger(docs), err)
	}
	return r, err
}

func (w *kbWatch) ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[store.Document, error]) (store.ImportResult, error) {
	r, err := w.Store.ImportDocumentSeq(ctx, accountID, docs)
	if r.Pages+r.QA+r.Products+r.Articles > 0 {
		trigger := store.TestTriggerUpload
		if r.QA > 0 && r.Pages+r.Products+r.Articles == 0 {
			trigger = store.TestTriggerQA
		}
		w.changed(accountID, trigger, err)
	}
	return r, err
}

func (w *kbWatch) ReleaseSite(ctx context.Context, accountID, siteID int64, finishedAt time.Time, summary string) error {
	err := w.Store.ReleaseSite(ctx, accountID, siteID, finishedAt, summary)
	if summary != "" {
		w.changed(accountID, store.TestTriggerCrawl, err)
	}
	return err
}

func (w *kbWatch) DeleteDocument(ctx context.Context, accountID, docID int64) error {
	trigger := store.TestTriggerUpload
	if d, err := w.Store.GetDocument(ctx, accountID, docID); err == nil && d.Type == store.DocQA {
		trigger = store.TestTriggerQA
	}
	err := w.Store.DeleteDocument(ctx, accountID, docID)
	w.changed(accountID, trigger, err)
	return err
}

func (w *kbWatch) ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error {
	err := w.Store.ReplaceDocument(ctx, accountID, oldID, doc)
	w.changed(accountID, docsTrigger([]store.Document{*doc}), err)
	return err
}

func (w *kbWatch) ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *store.Document) error {
	err := w.Store.ResolveReview(ctx, accountID, feedbackID, doc)
	w.changed(accountID, store.TestTriggerQA, err)
	return err
}

func (w *kbWatch) ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error {
	err := w.Store.ResolveFallback(ctx, accountID, messageID, doc)
	w.changed(accountID, store.TestTriggerQA, err)
	return err
}
