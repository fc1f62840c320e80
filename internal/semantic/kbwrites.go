package semantic

import (
	"context"
	"iter"

	"svc/internal/store"
)

// NotifyKBWrites returns st with every write of KB chunks reported to notify(accountID)
// once it has committed: imports (API-less `svc kb import` runs in its own process and is
// found by the worker's poll instead), product upserts, crawls' pages and removals, the
// dashboard's uploads, edits and deletions, review and fallback resolutions, and account
// deletion. These are all
// the store's methods that insert or delete chunks; the worker then embeds the new ones at
// once, and the Service re-checks the account's index at its next search. Everything else
// passes through unchanged.
//
// One wrapper at the store, rather than a call in each of the crawler, the dashboard, the API
// and the review code, so that a write path added later cannot forget it: it can only go
// through one of these methods.
func NotifyKBWrites(st store.Store, notify func(accountID int64)) store.Store {
	return &kbWrites{Store: st, notify: notify}
}

type kbWrites struct {
	store.Store
	notify func(int64)
}

func (s *kbWrites) done(accountID int64, err error) {
	if err == nil {
		s.notify(accountID)
	}
}

func (s *kbWrites) ImportDocuments(ctx context.Context, accountID int64, docs []store.Document) (store.ImportResult, error) {
	r, err := s.Store.ImportDocuments(ctx, accountID, docs)
	s.done(accountID, err)
	return r, err
}

func (s *kbWrites) ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[store.Document, error]) (store.ImportResult, error) {
	r, err := s.Store.ImportDocumentSeq(ctx, accountID, docs)
	s.done(accountID, err)
	return r, err
}

func (s *kbWrites) SavePage(ctx context.Context, accountID, siteID int64, p store.PageState, docs []store.Document) (store.ImportResult, error) {
	r, err := s.Store.SavePage(ctx, accountID, siteID, p, docs)
	s.done(accountID, err)
	return r, err
}

func (s *kbWrites) RemovePages(ctx context.Context, accountID, siteID int64, urls []string) (int, error) {
	n, err := s.Store.RemovePages(ctx, accountID, siteID, urls)
	if n > 0 {
		s.done(accountID, err)
	}
	return n, err
}

func (s *kbWrites) DeleteDocument(ctx context.Context, accountID, docID int64) error {
	err := s.Store.DeleteDocument(ctx, accountID, docID)
	s.done(accountID, err)
	return err
}

func (s *kbWrites) ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error {
	err := s.Store.ReplaceDocument(ctx, accountID, oldID, doc)
	s.done(accountID, err)
	return err
}

func (s *kbWrites) ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *store.Document) error {
	err := s.Store.ResolveReview(ctx, accountID, feedbackID, doc)
	s.done(accountID, err)
	return err
}

func (s *kbWrites) ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error {
	err := s.Store.ResolveFallback(ctx, accountID, messageID, doc)
	s.done(accountID, err)
	return err
}

func (s *kbWrites) DeleteAccount(ctx context.Context, accountID int64) (store.AccountDeletion, error) {
	d, err := s.Store.DeleteAccount(ctx, accountID)
	s.done(accountID, err)
	return d, err
}

func (s *kbWrites) UpsertProducts(ctx context.Context, accountID int64, docs []store.Document) (store.UpsertResult, error) {
	r, err := s.Store.UpsertProducts(ctx, accountID, docs)
	s.done(accountID, err)
	return r, err
}
