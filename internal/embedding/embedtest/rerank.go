package embedtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// teiRequest is the body of TEI's POST /rerank.
type teiRequest struct {
	Query     string          `json:"query"`
	Texts     json.RawMessage `json:"texts"`
	RawScores *bool           `json:"raw_scores"`
}

// tei serves POST /rerank. With raw_scores the score is a logit-like 10·cos − 5 instead of
// the cosine in [0, 1].
func (s *Server) tei(w http.ResponseWriter, r *http.Request) {
	c, readErr := readBody(r, ProtocolTEI)
	var req teiRequest
	decodeErr := json.Unmarshal(c.Body, &req)
	docs, docsErr := texts(req.Texts)
	if decodeErr == nil {
		c.Query, c.Documents, c.RawScores = req.Query, docs, req.RawScores
	}
	refuse := func(status int, msg string) {
		writeJSON(w, status, map[string]any{"error": msg, "error_type": teiErrorType(status)})
	}
	f, ok := s.accept(w, r, c, refuse)
	if !ok {
		return
	}
	switch {
	case readErr != nil || decodeErr != nil:
		refuse(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body")
		return
	case strings.TrimSpace(req.Query) == "" || docsErr != nil || len(docs) == 0:
		refuse(http.StatusUnprocessableEntity, "`query` and `texts` must be given and not empty")
		return
	case len(docs) > s.maxBatch:
		refuse(http.StatusUnprocessableEntity, "batch size "+strconv.Itoa(len(docs))+" > maximum allowed batch size "+strconv.Itoa(s.maxBatch))
		return
	}
	raw := req.RawScores != nil && *req.RawScores
	ranks := s.rank(req.Query, docs, f)
	if f.Reverse {
		slices.Reverse(ranks)
	}
	out := []any{}
	for _, rk := range ranks {
		score := rk.Score
		if raw {
			score = 10*score - 5
		}
		out = append(out, map[string]any{"index": rk.Index, "score": score})
	}
	writeJSON(w, http.StatusOK, out)
}

func teiErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "overloaded"
	case status == http.StatusUnprocessableEntity || status == http.StatusRequestEntityTooLarge:
		return "validation"
	case status >= 500:
		return "backend"
	default:
		return "unknown"
	}
}

// cohereRequest is the body of Cohere's (and Jina's) POST /v1/rerank.
type cohereRequest struct {
	Model     string          `json:"model"`
	Query     string          `json:"query"`
	Documents json.RawMessage `json:"documents"`
	TopN      *int            `json:"top_n"`
}

// cohere serves POST /v1/rerank: the results sorted best first and cut to top_n.
func (s *Server) cohere(w http.ResponseWriter, r *http.Request) {
	c, readErr := readBody(r, ProtocolCohere)
	var req cohereRequest
	decodeErr := json.Unmarshal(c.Body, &req)
	docs, docsErr := texts(req.Documents)
	if decodeErr == nil {
		c.Model, c.Query, c.Documents = req.Model, req.Query, docs
		if req.TopN != nil {
			c.TopN = *req.TopN
		}
	}
	refuse := func(status int, msg string) { writeJSON(w, status, map[string]any{"message": msg}) }
	f, ok := s.accept(w, r, c, refuse)
	if !ok {
		return
	}
	switch {
	case readErr != nil || decodeErr != nil:
		refuse(http.StatusBadRequest, "invalid request: could not parse the body")
		return
	case req.Model == "":
		refuse(http.StatusBadRequest, "invalid request: model is required")
		return
	case strings.TrimSpace(req.Query) == "" || docsErr != nil || len(docs) == 0:
		refuse(http.StatusBadRequest, "invalid request: query and documents must not be empty")
		return
	case req.TopN != nil && *req.TopN < 1:
		refuse(http.StatusBadRequest, "invalid request: top_n must be at least 1")
		return
	}
	ranks := s.rank(req.Query, docs, f)
	if req.TopN != nil && len(ranks) > *req.TopN {
		ranks = ranks[:*req.TopN]
	}
	if f.Reverse {
		slices.Reverse(ranks)
	}
	results := []any{}
	for _, rk := range ranks {
		results = append(results, map[string]any{"index": rk.Index, "relevance_score": rk.Score})
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      "rerank-fake",
		"results": results,
		"meta":    map[string]any{"billed_units": map[string]any{"search_units": 1}},
	})
}
