package dashboard

import (
	"errors"
	"net/http"
	"strconv"

	"svc/internal/store"
)

var pageTranscript = page{name: "transcript", title: "conversations.transcript_title", nav: "conversations"}

// transcriptPerPage is how many messages a transcript page shows; "Earlier messages" pages
// back from the oldest one shown.
const transcriptPerPage = 100

// transcriptMsg is a message with the links the page shows beside it.
type transcriptMsg struct {
	store.TranscriptMessage
	// FallbackReview and RatingReview are the review items this reply stands for ("" none).
	FallbackReview, RatingReview string
}

type transcriptData struct {
	Conv     store.Conversation
	Channel  string // the embed token's name; "" for the API conversation
	Messages []transcriptMsg
	// Earlier is the URL of the page before this one ("" when this one starts the
	// conversation); Latest the conversation's last page when this is an earlier one.
	Earlier, Latest string
}

// transcriptPage shows a conversation's messages. With htmx, "Earlier messages" asks for
// the fragment alone and puts it in place of the link, above the messages shown.
func (s *Server) transcriptPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	var before int64
	if v := r.URL.Query().Get("before"); v != "" {
		if before, err = strconv.ParseInt(v, 10, 64); err != nil || before <= 0 {
			return invalid("conversations.error_before")
		}
	}
	conv, err := s.st.GetConversation(r.Context(), c.Account.ID, id)
	if err != nil {
		return err
	}
	// One message more than shown: it tells whether there are earlier ones, and it is the
	// question of a fallback reply that opens the page.
	msgs, err := s.st.Transcript(r.Context(), c.Account.ID, id, before, transcriptPerPage+1)
	if err != nil {
		return err
	}
	d := transcriptData{Conv: conv}
	base := "/dashboard/conversations/" + strconv.FormatInt(id, 10)
	var prev *store.TranscriptMessage
	if len(msgs) > transcriptPerPage {
		prev, msgs = &msgs[0], msgs[1:]
		d.Earlier = base + "?before=" + strconv.FormatInt(msgs[0].ID, 10)
	}
	if before > 0 {
		d.Latest = base
	}
	for i := range msgs {
		m := transcriptMsg{TranscriptMessage: msgs[i]}
		if m.Role != store.RoleUser {
			if m.Source == store.SourceFallback && prev != nil && prev.Role == store.RoleUser {
				// A fallback's review item is its question (store.ReviewFallback).
				m.FallbackReview = reviewItemURL(store.ReviewFallback, prev.ID)
			}
			if m.Rating == store.RatingNotHelpful {
				// The item's id is the rating's, which the transcript does not carry.
				m.RatingReview = "/dashboard/review/rated/" + strconv.FormatInt(m.ID, 10)
			}
		}
		d.Messages = append(d.Messages, m)
		prev = &msgs[i]
	}
	if conv.EmbedTokenID != 0 {
		t, err := s.st.GetEmbedToken(r.Context(), c.Account.ID, conv.EmbedTokenID)
		switch {
		case err == nil:
			d.Channel = tokenName(t)
		case errors.Is(err, store.ErrNotFound):
			d.Channel = s.cat.T(c.Lang, "conversations.channel_widget")
		default:
			return err
		}
	}
	if before > 0 {
		// "Earlier messages": htmx puts the older page in place of the link.
		s.renderPart(w, r, c, pageTranscript, "transcript-page", 0, d)
		return nil
	}
	s.render(w, r, c, pageTranscript, 0, d)
	return nil
}
