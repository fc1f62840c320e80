package sqlstore

import (
	"context"
	"fmt"

	"svc/internal/store"
)

// TermStats counts, for the account only, its chunks, their mean length and each term's
// document frequency, so that ranking of one tenant never depends on another's corpus. The
// statistics stay the whole account's when its search is scoped to one site (the method
// takes no query to scope); the candidates themselves are the site's only. The counts of
// chunks and terms are running totals kept with the chunks (kb_stats); a term's frequency
// reads that term's entries of this account in the index (Dialect.CountTerm), and is
// remembered under the version
// of the account's chunks it was counted at (see docFreqs).
func (s *Store) TermStats(ctx context.Context, accountID int64, terms []store.SearchTerm) (store.TermStats, error) {
	st := store.TermStats{DocFreq: make(map[string]int, len(terms))}
	var total, version int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(SUM(chunks), 0), COALESCE(SUM(terms), 0), COALESCE(SUM(version), 0)
		FROM kb_stats WHERE account_id = ?`, accountID).Scan(&st.Chunks, &total, &version)
	if err != nil {
		return st, fmt.Errorf("chunk stats: %w", err)
	}
	if st.Chunks > 0 {
		st.AvgLength = float64(total) / float64(st.Chunks)
	}
	for _, t := range terms {
		expr := s.d.TermExpr(accountID, t)
		if expr == "" {
			continue
		}
		if _, seen := st.DocFreq[t.Text]; seen {
			continue
		}
		key := dfKey{account: accountID, version: version, term: t.Text, prefix: t.Prefix}
		if n, ok := s.docFreqs.Get(key); ok {
			st.DocFreq[t.Text] = n
			continue
		}
		n, err := s.d.CountTerm(ctx, s.r, accountID, expr)
		if err != nil {
			return st, fmt.Errorf("term stats: %w", err)
		}
		st.DocFreq[t.Text] = n
		s.docFreqs.Add(key, n)
	}
	return st, nil
}

// dfKey names a term's document frequency in an account's chunks at one version of them.
//
// The versions of an account's kb_stats rows only grow, and every change of its chunks
// adds one to one of them in the same transaction, so their sum names one state of the
// chunks: a count remembered under it is the count of that state, and the first question
// after any change (by this process or another, such as `svc kb import`) reads a new sum and
// counts again. Counting was one index query a term, a sixth of a new answer's time.
type dfKey struct {
	account, version int64
	term             string
	prefix           bool
}

// docFreqsKept bounds the remembered term counts (a few MB at most).
const docFreqsKept = 32768
