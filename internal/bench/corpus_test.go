package bench

import (
	"os"
	"path/filepath"
	"testing"

	"svc/internal/textindex"
)

func TestQuestionPoolInterleavesLanguages(t *testing.T) {
	t.Parallel()
	c := tinyCorpus()
	c.questions = append(c.questions, c.questions[0]) // a duplicate is asked once
	pool := c.questionPool()
	if len(pool) != 9 {
		t.Fatalf("pool has %d questions, want 9", len(pool))
	}
	for i, q := range pool {
		if q.lang != langs[i%3] {
			t.Errorf("question %d is %s, want %s", i, q.lang, langs[i%3])
		}
	}
	again := c.questionPool()
	for i := range pool {
		if pool[i] != again[i] {
			t.Fatalf("the pool's order is not fixed: %v then %v", pool, again)
		}
	}
}

// Past the pool the feed appends a number; each pass must be a different cache key (the
// analyzer keeps the number), or the writes scenario would count cache hits.
func TestQuestionFeedMakesDistinctQuestions(t *testing.T) {
	t.Parallel()
	pool := []question{{lang: "en", text: "How long does delivery to Germany take?"},
		{lang: "de", text: "Wie lange dauert die Lieferung nach Deutschland?"}}
	f := &questionFeed{pool: pool}
	keys := map[string]bool{}
	for range 6 {
		q := f.take()
		k := q.lang + ":" + textindex.NormalizeQuestion(q.text, q.lang)
		if keys[k] {
			t.Errorf("%q has the cache key of an earlier question: %s", q.text, k)
		}
		keys[k] = true
	}
	if f.synthesized != 4 {
		t.Errorf("synthesized = %d, want 4", f.synthesized)
	}
}

// The real XQuAD dev files, when they are beside the repository.
func TestLoadCorpus(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "..", "shared", "eval", "xquad-dev")
	if _, err := os.Stat(filepath.Join(dir, "xquad.en.dev.json")); err != nil {
		t.Skip("XQuAD dev files not found at " + dir)
	}
	c, err := loadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.paragraphs) != 360 || len(c.questions) != 3*632 {
		t.Errorf("%d paragraphs and %d questions, want 360 and 1896", len(c.paragraphs), len(c.questions))
	}
	if len(c.questionPool()) < 1800 {
		t.Errorf("only %d distinct questions", len(c.questionPool()))
	}
	if _, err := newGenerator(c); err != nil {
		t.Error(err)
	}
	if _, err := loadCorpus(t.TempDir()); err == nil {
		t.Error("an empty folder loaded")
	}
}
