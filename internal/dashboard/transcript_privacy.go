package dashboard

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"svc/internal/errs"
	"svc/internal/privacy"
	"svc/internal/store"
)

// A widget visitor's data request, from the transcript of one of their conversations: the
// owner downloads everything stored about the visitor (every conversation they had with the
// account's widgets) or deletes it. What is exported, deleted and kept is internal/privacy's,
// the same as `svc visitor export|delete`.

// visitorDataStore is what the transcript's visitor-data actions use.
type visitorDataStore interface {
	privacy.VisitorStore
}

func (s *Server) visitorDataRoutes(rt router) {
	rt.handle("GET /dashboard/conversations/{id}/visitor-data", ownerOnly, s.visitorDataDownload)
	rt.handle("POST /dashboard/conversations/{id}/visitor-data/delete", ownerOnly, s.visitorDataDelete)
}

// transcriptVisitor reads the route's conversation of the signed-in account and its visitor;
// another account's conversation and the API conversation, which has no visitor, are 404s.
func (s *Server) transcriptVisitor(r *http.Request, c *reqCtx) (store.Conversation, error) {
	conv, err := routeItem(r, c, func(ctx context.Context, c *reqCtx, id int64) (store.Conversation, error) {
		return s.st.GetConversation(ctx, c.Account.ID, id)
	})
	if err != nil {
		return conv, err
	}
	if conv.Visitor == "" {
		return conv, errs.New(errs.NotFound, "No such item.")
	}
	return conv, nil
}

// visitorDataDownload answers the visitor's data as a JSON file to save.
func (s *Server) visitorDataDownload(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	conv, err := s.transcriptVisitor(r, c)
	if err != nil {
		return err
	}
	exp, err := privacy.ExportVisitor(r.Context(), s.st, c.Account.ID, conv.Visitor, s.now())
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(exp, "", "  ")
	if err != nil {
		return err
	}
	s.log.Info("visitor data exported", slog.Int64("account_id", c.Account.ID), slog.Int64("user_id", c.User.ID),
		slog.Int64("conversation_id", conv.ID), slog.Int("conversations", len(exp.Conversations)))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="visitor-`+conv.Visitor+`.json"`)
	_, _ = w.Write(append(body, '\n'))
	return nil
}

// visitorDataDelete deletes the visitor's conversations and what belongs only to them, then
// returns to the conversation list: this transcript is gone with them.
func (s *Server) visitorDataDelete(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	conv, err := s.transcriptVisitor(r, c)
	if err != nil {
		return err
	}
	d, err := privacy.DeleteVisitor(r.Context(), s.st, c.Account.ID, conv.Visitor)
	if err != nil {
		return err
	}
	s.log.Info("visitor data deleted", slog.Int64("account_id", c.Account.ID), slog.Int64("user_id", c.User.ID),
		slog.Int("conversations", d.Conversations), slog.Int("messages", d.Messages))
	s.redirect(w, r, "/dashboard/conversations", "flash.visitor_deleted")
	return nil
}
