package kb

import (
	"context"
	"iter"
	"strings"
	"testing"

	"svc/internal/store"
)

// recordingKB records what Import wrote. Like the store, it writes all the documents of an
// import or, when the sequence reports an error, none of them; calls counts the imports
// that wrote something.
type recordingKB struct {
	calls int
	docs  []store.Document
}

func (k *recordingKB) ImportDocumentSeq(_ context.Context, accountID int64, seq iter.Seq2[store.Document, error]) (store.ImportResult, error) {
	var docs []store.Document
	for d, err := range seq {
		if err != nil {
			return store.ImportResult{}, err
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return store.ImportResult{}, nil
	}
	k.calls++
	k.docs = docs
	var r store.ImportResult
	for _, d := range docs {
		switch d.Type {
		case store.DocPage:
			r.Pages++
		case store.DocQA:
			r.QA++
		case store.DocProduct:
			r.Products++
		case store.DocArticle:
			r.Articles++
		}
	}
	return r, nil
}

func TestImport(t *testing.T) {
	good := `{"type":"page","url":"https://x.test/a","title":"A","body":"Alpha text.","lang":"en"}
{"type":"qa","question":"q?","answer":"a.","lang":"en"}
{"type":"product","name":"Tent","price":"$10.00","lang":"en"}
{"type":"article","slug":"s","title":"T","body":"Body.","lang":"en"}
`
	tests := []struct {
		name      string
		file      string
		wantErr   string
		wantCalls int
		want      store.ImportResult
	}{
		{"all types in one call", good, "", 1, store.ImportResult{Pages: 1, QA: 1, Products: 1, Articles: 1}},
		{"bad line imports nothing", good + `{"type":"qa","question":"q"}` + "\n", "line 5: qa needs question and answer", 0, store.ImportResult{}},
		{"body without text imports nothing", good + `{"type":"page","title":"x","body":"<nav>m</nav>"}` + "\n", "line 5:", 0, store.ImportResult{}},
		{"empty file", "\n", "", 0, store.ImportResult{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &recordingKB{}
			got, err := Import(context.Background(), st, 7, 3, strings.NewReader(tt.file))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if st.calls != tt.wantCalls {
				t.Errorf("%d imports wrote documents, want %d", st.calls, tt.wantCalls)
			}
			if got != tt.want {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
			for _, d := range st.docs {
				if d.AccountID != 7 || d.SiteID != 3 {
					t.Errorf("doc %q has account %d site %d, want 7 and 3", d.Title, d.AccountID, d.SiteID)
				}
			}
		})
	}
}
