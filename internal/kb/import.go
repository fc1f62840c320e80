package kb

import (
	"context"
	"fmt"
	"io"

	"svc/internal/store"
)

// Import parses an import file, builds every record and hands all documents to the store in
// one call, which is one transaction: a bad line or a failed build imports nothing. siteID 0
// means the documents belong to no particular site.
func Import(ctx context.Context, st store.KB, accountID, siteID int64, r io.Reader) (store.ImportResult, error) {
	recs, err := ParseJSONL(r)
	if err != nil {
		return store.ImportResult{}, err
	}
	docs, err := BuildAll(recs)
	if err != nil {
		return store.ImportResult{}, err
	}
	for i := range docs {
		docs[i].AccountID = accountID
		docs[i].SiteID = siteID
	}
	if len(docs) == 0 {
		return store.ImportResult{}, nil
	}
	res, err := st.ImportDocuments(ctx, accountID, docs)
	if err != nil {
		return store.ImportResult{}, fmt.Errorf("import documents: %w", err)
	}
	return res, nil
}

// BuildAll builds every record, stopping at the first one that fails.
func BuildAll(recs []Record) ([]store.Document, error) {
	docs := make([]store.Document, 0, len(recs))
	for _, rec := range recs {
		doc, err := Build(rec)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	return docs, nil
}
