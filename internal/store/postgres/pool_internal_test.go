package postgres

import "testing"

func TestRebind(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`SELECT 1`:                              `SELECT 1`,
		`SELECT ? + ?`:                          `SELECT $1 + $2`,
		`SELECT '?', "a?b", ? FROM t WHERE x=?`: `SELECT '?', "a?b", $1 FROM t WHERE x=$2`,
		`SELECT 'it''s ?', ?`:                   `SELECT 'it''s ?', $1`,
		`c.terms_tsv @@ ?::tsquery`:             `c.terms_tsv @@ $1::tsquery`,
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}
