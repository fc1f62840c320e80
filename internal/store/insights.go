package store

import "time"

// States of a question's review item (AskedQuestion.Review): a question answered by a
// fallback is an open review item until it is answered (resolved) or dismissed.
const (
	QuestionReviewOpen      = "open"
	QuestionReviewResolved  = "resolved"
	QuestionReviewDismissed = "dismissed"
)

// AskedQuestion is a visitor's question with what became of it, as the overview's insights
// read it.
type AskedQuestion struct {
	MessageID int64 // the question
	ReplyID   int64
	Question  string
	Lang      string
	// Source is the reply's (SourceAI, SourceCacheTenant, SourceFallback, SourceSystem).
	Source string
	// Rating is the reply's: RatingHelpful, RatingNotHelpful or "" when unrated.
	Rating string
	// Review is the state of the question's review item (QuestionReview*), "" for a question
	// that did not get a fallback.
	Review  string
	AskedAt time.Time
}
