package kb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"svc/internal/store"
)

// DocumentWriter is the part of the store Import writes to.
type DocumentWriter interface {
	ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[store.Document, error]) (store.ImportResult, error)
}

// Import parses an import file, builds every record and hands the documents to the store as
// they are built, in one transaction: a bad line or a failed build imports nothing. Records
// are read, built and written one at a time, so a file of any size is imported in bounded
// memory. siteID 0 means the documents belong to no particular site.
func Import(ctx context.Context, st DocumentWriter, accountID, siteID int64, r io.Reader) (store.ImportResult, error) {
	docs := func(yield func(store.Document, error) bool) {
		stopped := errors.New("stopped")
		err := ScanJSONL(r, func(rec Record) error {
			doc, err := Build(rec)
			if err != nil {
				return err
			}
			doc.AccountID, doc.SiteID = accountID, siteID
			if !yield(doc, nil) {
				return stopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, stopped) {
			yield(store.Document{}, err)
		}
	}
	res, err := st.ImportDocumentSeq(ctx, accountID, docs)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			return store.ImportResult{}, err
		}
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
