package tokencount

import (
	"strings"
	"testing"
)

// benchText is every XQuAD dev paragraph and question, the kind of text the engine counts.
func benchText(b *testing.B) []string {
	var all []string
	for _, texts := range xquadTexts(b) {
		all = append(all, texts...)
	}
	return all
}

func BenchmarkCount(b *testing.B) {
	texts := benchText(b)
	c := counter(b)
	b.SetBytes(int64(len(strings.Join(texts, ""))))
	for b.Loop() {
		for _, s := range texts {
			if _, err := c.Count(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLibraryCount(b *testing.B) {
	texts := benchText(b)
	lib := library(b)
	b.SetBytes(int64(len(strings.Join(texts, ""))))
	for b.Loop() {
		for _, s := range texts {
			if _, err := lib.Count(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLoadVocab(b *testing.B) {
	for b.Loop() {
		if _, err := loadVocab(o200kBaseTokens); err != nil {
			b.Fatal(err)
		}
	}
}
