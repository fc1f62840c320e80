package engine

import (
	"strings"

	"svc/internal/store"
)

// MaxSources is how many sources a reply names at most: the cited page first, then the pages
// of its product cards. More would bury the one the reply quotes.
const MaxSources = 4

// Sources names the documents of docIDs, in that order, as a reply lists them: a document
// is named by the passage read from it, or else by its product card (the product page). The
// list is deduplicated by URL (by title for a document without one) and capped at
// MaxSources; it is empty, never nil, when the reply quotes nothing. A document known by
// neither a passage nor a card is left out, and so is one with neither title nor URL.
func Sources(docIDs []int64, passages []Passage, cards []Card) []store.Source {
	out := []store.Source{}
	seen := map[string]bool{}
	for _, id := range docIDs {
		if len(out) == MaxSources {
			break
		}
		s, ok := sourceOf(id, passages, cards)
		if !ok {
			continue
		}
		key := "u " + s.URL
		if s.URL == "" {
			key = "t " + strings.ToLower(s.Title)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	return out
}

// sourceOf names one document; its title falls back to its URL so that it is never empty.
func sourceOf(id int64, passages []Passage, cards []Card) (store.Source, bool) {
	var s store.Source
	found := false
	for i := range passages {
		if p := &passages[i]; p.DocID == id {
			s, found = store.Source{Title: p.Title, URL: p.URL}, true
			break
		}
	}
	if !found {
		for i := range cards {
			if c := &cards[i]; c.DocID == id {
				s, found = store.Source{Title: c.Product.Name, URL: c.Product.URL}, true
				break
			}
		}
	}
	s.Title, s.URL = strings.TrimSpace(s.Title), strings.TrimSpace(s.URL)
	if s.Title == "" {
		s.Title = s.URL
	}
	return s, found && s.Title != ""
}
