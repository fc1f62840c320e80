package embedtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"svc/internal/remote/remotetest"
)

// maxOpenAIInputs is OpenAI's bound on inputs per request.
const maxOpenAIInputs = 2048

// embedRequest is the body of both embedding protocols (Ollama has no encoding_format).
type embedRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	EncodingFormat string          `json:"encoding_format"`
}

// parseEmbed reads an embedding request; maxInputs 0 is no bound.
func parseEmbed(body []byte, c *Call, maxInputs int) (int, string) {
	var req embedRequest
	if json.Unmarshal(body, &req) != nil {
		return http.StatusBadRequest, "could not parse the JSON body of your request"
	}
	inputs, err := texts(req.Input)
	c.Model, c.Input, c.EncodingFormat = req.Model, inputs, req.EncodingFormat
	switch {
	case req.Model == "":
		return http.StatusBadRequest, "you must provide a model parameter"
	case err != nil:
		return http.StatusBadRequest, err.Error()
	case len(inputs) == 0 || blank(inputs):
		return http.StatusBadRequest, "'$.input' is invalid: empty text"
	case maxInputs > 0 && len(inputs) > maxInputs:
		return http.StatusBadRequest, "too many inputs: at most " + strconv.Itoa(maxInputs)
	}
	return 0, ""
}

// openAI is POST /v1/embeddings.
func (s *Server) openAI() protocol {
	return protocol{
		name: ProtocolOpenAI,
		parse: func(body []byte, c *Call) (int, string) {
			if status, problem := parseEmbed(body, c, maxOpenAIInputs); problem != "" {
				return status, problem
			}
			if c.EncodingFormat != "" && c.EncodingFormat != "float" {
				return http.StatusBadRequest, "this fake answers encoding_format float only"
			}
			return 0, ""
		},
		refuse: func(w http.ResponseWriter, status int, msg string) {
			writeJSON(w, status, map[string]any{"error": map[string]any{
				"message": msg, "type": remotetest.OpenAIErrorType(status), "param": nil, "code": nil}})
		},
		answer: func(c Call, f Fault) any {
			data := []any{}
			for i, v := range s.vectors(c.Input, f) {
				data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
			}
			if f.Reverse {
				slices.Reverse(data)
			}
			body := map[string]any{"object": "list", "data": data, "model": c.Model}
			if !f.NoUsage {
				n := usage(c.Input)
				body["usage"] = map[string]any{"prompt_tokens": n, "total_tokens": n}
			}
			return body
		},
	}
}

// ollama is POST /api/embed.
func (s *Server) ollama() protocol {
	return protocol{
		name:  ProtocolOllama,
		parse: func(body []byte, c *Call) (int, string) { return parseEmbed(body, c, 0) },
		refuse: func(w http.ResponseWriter, status int, msg string) {
			writeJSON(w, status, map[string]any{"error": msg})
		},
		answer: func(c Call, f Fault) any {
			body := map[string]any{
				"model":          c.Model,
				"embeddings":     s.vectors(c.Input, f),
				"total_duration": 1_000_000,
				"load_duration":  100_000,
			}
			if !f.NoUsage {
				body["prompt_eval_count"] = usage(c.Input)
			}
			return body
		},
	}
}

// teiRequest is the body of TEI's POST /rerank.
type teiRequest struct {
	Query     string          `json:"query"`
	Texts     json.RawMessage `json:"texts"`
	RawScores *bool           `json:"raw_scores"`
}

// tei is POST /rerank: every text scored, best first. With raw_scores the score is a
// logit-like 10·cos − 5 instead of the cosine in [0, 1].
func (s *Server) tei() protocol {
	return protocol{
		name: ProtocolTEI,
		parse: func(body []byte, c *Call) (int, string) {
			var req teiRequest
			if json.Unmarshal(body, &req) != nil {
				return http.StatusUnprocessableEntity, "Failed to deserialize the JSON body"
			}
			docs, err := texts(req.Texts)
			c.Query, c.Documents, c.RawScores = req.Query, docs, req.RawScores
			switch {
			case strings.TrimSpace(req.Query) == "" || err != nil || len(docs) == 0:
				return http.StatusUnprocessableEntity, "`query` and `texts` must be given and not empty"
			case len(docs) > s.maxBatch:
				return http.StatusUnprocessableEntity,
					"batch size " + strconv.Itoa(len(docs)) + " > maximum allowed batch size " + strconv.Itoa(s.maxBatch)
			}
			return 0, ""
		},
		refuse: func(w http.ResponseWriter, status int, msg string) {
			writeJSON(w, status, map[string]any{"error": msg, "error_type": teiErrorType(status)})
		},
		answer: func(c Call, f Fault) any {
			raw := c.RawScores != nil && *c.RawScores
			ranks := s.rank(c.Query, c.Documents, f)
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
			return out
		},
	}
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

// cohere is POST /v1/rerank: the results best first, cut to top_n.
func (s *Server) cohere() protocol {
	return protocol{
		name: ProtocolCohere,
		parse: func(body []byte, c *Call) (int, string) {
			var req cohereRequest
			if json.Unmarshal(body, &req) != nil {
				return http.StatusBadRequest, "invalid request: could not parse the body"
			}
			docs, err := texts(req.Documents)
			c.Model, c.Query, c.Documents = req.Model, req.Query, docs
			if req.TopN != nil {
				c.TopN = *req.TopN
			}
			switch {
			case req.Model == "":
				return http.StatusBadRequest, "invalid request: model is required"
			case strings.TrimSpace(req.Query) == "" || err != nil || len(docs) == 0:
				return http.StatusBadRequest, "invalid request: query and documents must not be empty"
			case req.TopN != nil && *req.TopN < 1:
				return http.StatusBadRequest, "invalid request: top_n must be at least 1"
			}
			return 0, ""
		},
		refuse: func(w http.ResponseWriter, status int, msg string) {
			writeJSON(w, status, map[string]any{"message": msg})
		},
		answer: func(c Call, f Fault) any {
			ranks := s.rank(c.Query, c.Documents, f)
			if c.TopN > 0 && len(ranks) > c.TopN {
				ranks = ranks[:c.TopN]
			}
			if f.Reverse {
				slices.Reverse(ranks)
			}
			results := []any{}
			for _, rk := range ranks {
				results = append(results, map[string]any{"index": rk.Index, "relevance_score": rk.Score})
			}
			return map[string]any{
				"id":      "rerank-fake",
				"results": results,
				"meta":    map[string]any{"billed_units": map[string]any{"search_units": 1}},
			}
		},
	}
}
