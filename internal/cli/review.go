package cli

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"svc/internal/kb"
	"svc/internal/store"
)

// reviewItem is a flagged answer as the review commands print it; id is the assistant
// message's id, the one `review answer` takes.
type reviewItem struct {
	ID        int64  `json:"id"`
	Question  string `json:"question"`
	Answer    string `json:"answer"`
	Lang      string `json:"lang"`
	Comment   string `json:"comment"`
	FlaggedAt string `json:"flagged_at"`
	Resolved  bool   `json:"resolved"`
}

func cmdReviewList(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("review list", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	open := c.fs.Bool("open", false, "only the items not answered yet")
	st, err := c.openForAccount(ctx, args, id)
	if err != nil {
		return err
	}
	defer st.Close()
	items, err := st.ReviewList(ctx, *id)
	if err != nil {
		return err
	}
	out := make([]reviewItem, 0, len(items))
	for _, it := range items {
		if *open && it.Resolved {
			continue
		}
		out = append(out, reviewItem{it.MessageID, it.Question, it.Answer, it.Lang, it.Comment,
			it.CreatedAt.Format(time.RFC3339), it.Resolved})
	}
	return c.print(map[string]any{"items": out})
}

// cmdReviewAnswer turns an owner's correction of a flagged answer into a curated Q&A entry
// for the question that was asked, in its language. Curated entries are served before the
// cache and the engine, so the next similar question gets the correction.
func cmdReviewAnswer(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("review answer", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	text := c.fs.String("text", "", "the corrected answer")
	pos, err := c.parse(args)
	if err != nil {
		return err
	}
	if err := c.requireAccount(*id); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("review answer: exactly one item ID (from review list) is required")
	}
	msgID, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || msgID <= 0 {
		return usagef("review answer: %q is not an item id", pos[0])
	}
	answer := strings.TrimSpace(*text)
	if answer == "" {
		return usagef("review answer: --text is required")
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	items, err := st.ReviewList(ctx, *id)
	if err != nil {
		return err
	}
	var item *store.ReviewItem
	for i := range items {
		if items[i].MessageID == msgID {
			item = &items[i]
		}
	}
	if item == nil {
		return usagef("review answer: account %d has no flagged answer %d (see svc review list)", *id, msgID)
	}
	if strings.TrimSpace(item.Question) == "" {
		return usagef("review answer: item %d has no question to attach the answer to", msgID)
	}
	doc, err := kb.CuratedAnswer(item.Question, answer, item.Lang)
	if err != nil {
		return usagef("review answer: %v", err)
	}
	err = st.ResolveReview(ctx, *id, item.FeedbackID, &doc)
	if errors.Is(err, store.ErrNotFound) {
		return usagef("review answer: item %d is no longer flagged", msgID)
	}
	if err != nil {
		return err
	}
	return c.print(map[string]any{"resolved": true, "id": msgID, "qa_id": doc.ID, "question": item.Question,
		"lang": doc.Lang})
}
