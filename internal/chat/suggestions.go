package chat

import (
	"context"

	"svc/internal/store"
)

// Suggestions are articles to read and starter questions to ask.
type Suggestions struct {
	Articles []store.Article
	Seeds    []string
}

// Pools the suggestions choose from: the most viewed articles, and the headings of the first
// documents, of which only the question-shaped ones become seeds.
const (
	articlePool = 100
	headingPool = 300
)

// Suggestions lists articles and starter questions in the conversation's language (see
// suggestions).
func (s *Service) Suggestions(ctx context.Context, a store.Account) (Suggestions, error) {
	c, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return Suggestions{}, err
	}
	return s.suggestions(ctx, a, c)
}

// suggestions lists articles in the conversation's language: the most viewed, several
// sections represented and grouped by section. Only when the KB has no article in that
// language does it list the account's own language's articles (a site documented in one
// language still has something to read), never a mix. Starter questions are only ever in the
// conversation's language: the curated Q&A questions (a site's FAQ entries included) first,
// then the questions visitors ask most, then the site's question-shaped headings
// (headingSeeds).
func (s *Service) suggestions(ctx context.Context, a store.Account, c store.Conversation) (Suggestions, error) {
	arts, err := s.st.Articles(ctx, a.ID, c.Lang, articlePool)
	if err != nil {
		return Suggestions{}, err
	}
	if len(arts) == 0 && a.Lang != c.Lang {
		if arts, err = s.st.Articles(ctx, a.ID, a.Lang, articlePool); err != nil {
			return Suggestions{}, err
		}
	}
	seeds, err := s.Seeds(ctx, a, c.Lang)
	if err != nil {
		return Suggestions{}, err
	}
	return Suggestions{Articles: bySection(arts, suggestedArticles), Seeds: seeds}, nil
}

// Seeds are the starter questions in lang: the curated Q&A questions first, then the
// questions visitors ask most, then the site's question-shaped headings. It opens no
// conversation (the dashboard offers them to the owner to choose a widget's starters).
func (s *Service) Seeds(ctx context.Context, a store.Account, lang string) ([]string, error) {
	curated, err := s.st.QAQuestions(ctx, a.ID, lang, suggestedSeeds)
	if err != nil {
		return nil, err
	}
	asked, err := s.st.TopQuestions(ctx, a.ID, lang, suggestedSeeds)
	if err != nil {
		return nil, err
	}
	seeds := []string{}
	seen := map[string]bool{}
	add := func(q string) {
		if len(seeds) < suggestedSeeds && !seen[q] {
			seen[q] = true
			seeds = append(seeds, q)
		}
	}
	for _, q := range append(curated, asked...) {
		add(q)
	}
	if len(seeds) < suggestedSeeds {
		heads, err := s.st.Headings(ctx, a.ID, lang, headingPool)
		if err != nil {
			return nil, err
		}
		for _, q := range headingSeeds(heads, lang) {
			add(q)
		}
	}
	return seeds, nil
}

// bySection picks up to n of arts (most viewed first) taking one article of each section in
// turn, so that a site's sections are all represented rather than the first one filling the
// list, and returns them grouped by section, sections in the order of their most viewed
// article.
func bySection(arts []store.Article, n int) []store.Article {
	var order []string
	groups := map[string][]store.Article{}
	for _, a := range arts {
		k := a.CategorySlug + "\x00" + a.CategoryName
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], a)
	}
	taken := map[string]int{}
	picked := 0
	for round := 0; picked < n && picked < len(arts); round++ {
		for _, k := range order {
			if picked < n && round < len(groups[k]) {
				taken[k]++
				picked++
			}
		}
	}
	out := make([]store.Article, 0, picked)
	for _, k := range order {
		out = append(out, groups[k][:taken[k]]...)
	}
	return out
}
