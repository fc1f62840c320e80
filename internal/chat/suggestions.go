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

// Suggestions lists the most viewed articles (those in the conversation's language first) and
// starter questions in the conversation's language: the curated questions first, then the questions visitors ask most.
func (s *Service) Suggestions(ctx context.Context, a store.Account) (Suggestions, error) {
	c, err := s.st.OpenConversation(ctx, a.ID, a.Lang)
	if err != nil {
		return Suggestions{}, err
	}
	return s.suggestions(ctx, a, c)
}

func (s *Service) suggestions(ctx context.Context, a store.Account, c store.Conversation) (Suggestions, error) {
	arts, err := s.st.Articles(ctx, a.ID, c.Lang, suggestedArticles)
	if err != nil {
		return Suggestions{}, err
	}
	curated, err := s.st.QAQuestions(ctx, a.ID, c.Lang, suggestedSeeds)
	if err != nil {
		return Suggestions{}, err
	}
	asked, err := s.st.TopQuestions(ctx, a.ID, c.Lang, suggestedSeeds)
	if err != nil {
		return Suggestions{}, err
	}
	seeds := []string{}
	seen := map[string]bool{}
	for _, q := range append(curated, asked...) {
		if len(seeds) == suggestedSeeds {
			break
		}
		if !seen[q] {
			seen[q] = true
			seeds = append(seeds, q)
		}
	}
	return Suggestions{Articles: arts, Seeds: seeds}, nil
}
