package chat

import "svc/internal/store"

// Observer is told of every reply a send committed (the service's metrics). It is called
// after the commit, so a send that failed or rolled back is never counted.
type Observer interface {
	// Answer counts one reply by its source, its language and the channel that asked: "api"
	// for the account's own conversation, "widget" for a visitor's.
	Answer(source, lang, channel string)
}

// observe reports a committed turn to the observer, if any.
func (s *Service) observe(t *store.Turn) {
	if s.observer == nil {
		return
	}
	channel := "api"
	if t.EmbedTokenID != 0 {
		channel = "widget"
	}
	s.observer.Answer(t.Reply.Source, t.Reply.Lang, channel)
}
