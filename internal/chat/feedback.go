package chat

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/store"
)

// Ratings accepted by feedback.
const (
	RatingHelpful    = "helpful"
	RatingNotHelpful = "not_helpful"
)

// Feedback rates an assistant message of the account's conversation. not_helpful puts the
// answer on the review list and withdraws it from the answer cache.
func (s *Service) Feedback(ctx context.Context, a store.Account, messageID int64, rating, comment string) error {
	return s.feedback(ctx, &store.Feedback{AccountID: a.ID, MessageID: messageID, Rating: rating, Comment: comment})
}

// feedback validates and saves f; with f.ConversationID set, the message must be in it.
func (s *Service) feedback(ctx context.Context, f *store.Feedback) error {
	messageID, rating, comment := f.MessageID, f.Rating, f.Comment
	if messageID <= 0 {
		return errs.New(errs.BadRequest, "messageId must be a positive message id.")
	}
	if rating != RatingHelpful && rating != RatingNotHelpful {
		return errs.New(errs.BadRequest, "rating must be helpful or not_helpful.")
	}
	comment = strings.TrimSpace(comment)
	if !utf8.ValidString(comment) {
		return errs.New(errs.BadRequest, "The comment is not valid UTF-8 text.")
	}
	if n := utf8.RuneCountInString(comment); n > MaxCommentChars {
		return errs.Newf(errs.BadRequest, "The comment is %d characters long; at most %d are allowed.", n, MaxCommentChars)
	}
	f.Comment = comment
	err := s.st.SaveFeedback(ctx, f)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errs.New(errs.NotFound, "No message with that id in this conversation.")
	case errors.Is(err, store.ErrNotAssistant):
		return errs.New(errs.BadRequest, "Feedback applies to assistant messages only.")
	}
	return err
}
