// Package embedtest is a fake embedding and rerank provider on loopback. It speaks four wire
// protocols closely enough for the clients of internal/embedding: OpenAI-compatible
// embeddings (POST /v1/embeddings), Ollama (POST /api/embed), Hugging Face TEI rerank
// (POST /rerank) and Cohere/Jina-compatible rerank (POST /v1/rerank). Vectors come from a
// concept dictionary (Concepts), so that paraphrases and translations land near each other
// and a test can ask a question in words that are not on the page; the rerankers score by
// the cosine of those vectors. Faults (error statuses, Retry-After, delays, malformed or
// wrongly shaped answers) are queued per call. Everything is deterministic.
package embedtest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Protocols a Call can arrive in.
const (
	ProtocolOpenAI = "openai"
	ProtocolOllama = "ollama"
	ProtocolTEI    = "tei"
	ProtocolCohere = "cohere"
)

// DefaultMaxRerankBatch is TEI's default --max-client-batch-size: a rerank of more texts is
// refused with 422, as the real server does.
const DefaultMaxRerankBatch = 32

// Fault is how the fake misbehaves on one call. The zero Fault answers normally.
type Fault struct {
	// Status of 400 or more answers with the protocol's error body and this status.
	Status  int
	Message string // the error's message; default the status text
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string
	// Delay is waited before answering; the wait ends early, without an answer, when the
	// client goes away or the server closes.
	Delay time.Duration
	// Body, when not empty, is answered with status 200 instead of the real answer: malformed
	// JSON, or JSON of the wrong shape.
	Body string
	// Dim cuts or zero-pads every vector to this many dimensions.
	Dim int
	// Reverse lists OpenAI's data, or the rerankers' results, in reverse order (each keeps its
	// right index).
	Reverse bool
	// NoUsage leaves out OpenAI's usage and Ollama's prompt_eval_count.
	NoUsage bool
	// Missing leaves the last vector or score out of the answer.
	Missing bool
	// ZeroVector answers the first vector as all zeros.
	ZeroVector bool
}

// Call is what arrived at the fake, recorded even when the fake refused it.
type Call struct {
	Protocol string
	Header   http.Header
	Body     []byte // raw, for assertions on fields the Call does not model
	Model    string
	Input    []string // embedding texts
	// EncodingFormat is OpenAI's encoding_format as sent ("" when absent).
	EncodingFormat string
	Query          string   // rerank
	Documents      []string // rerank texts or documents
	TopN           int      // Cohere's top_n; 0 when absent
	RawScores      *bool    // TEI's raw_scores
}

// Options configure a Server.
type Options struct {
	// APIKey, when not empty, is required as "Authorization: Bearer <key>" by every route.
	APIKey string
	// MaxRerankBatch bounds TEI's texts per call (default DefaultMaxRerankBatch).
	MaxRerankBatch int
}

// Server is a running fake provider. It is safe for concurrent use.
type Server struct {
	srv      *httptest.Server
	concepts *Concepts
	apiKey   string
	maxBatch int
	done     chan struct{}
	once     sync.Once

	mu     sync.Mutex
	calls  []Call
	faults []Fault
	always Fault
}

// New starts a fake provider; Close stops it. It panics if the embedded concept dictionary
// does not parse, which its own tests rule out.
func New(opts Options) *Server {
	concepts, err := LoadConcepts()
	if err != nil {
		panic(err)
	}
	s := &Server{concepts: concepts, apiKey: opts.APIKey, maxBatch: opts.MaxRerankBatch, done: make(chan struct{})}
	if s.maxBatch <= 0 {
		s.maxBatch = DefaultMaxRerankBatch
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.openAI)
	mux.HandleFunc("POST /api/embed", s.ollama)
	mux.HandleFunc("POST /rerank", s.tei)
	mux.HandleFunc("POST /v1/rerank", s.cohere)
	s.srv = httptest.NewServer(mux)
	return s
}

// Start is New for a test: the server closes when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	return s
}

// Close stops the server. Answers still waiting out a Delay are abandoned rather than
// waited for, so a test never hangs on its own slow fault.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// URL is the server's root, e.g. "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.srv.URL }

// OpenAIBaseURL is the base URL of the OpenAI-compatible embeddings: the root plus "/v1".
func (s *Server) OpenAIBaseURL() string { return s.srv.URL + "/v1" }

// OllamaBaseURL is the base URL of the Ollama embeddings: the root.
func (s *Server) OllamaBaseURL() string { return s.srv.URL }

// TEIBaseURL is the base URL of the TEI reranker: the root.
func (s *Server) TEIBaseURL() string { return s.srv.URL }

// CohereBaseURL is the base URL of the Cohere-compatible reranker: the root plus "/v1".
func (s *Server) CohereBaseURL() string { return s.srv.URL + "/v1" }

// Concepts is the dictionary the server's vectors come from.
func (s *Server) Concepts() *Concepts { return s.concepts }

// Vector is the vector the server answers for text.
func (s *Server) Vector(text string) []float32 { return s.concepts.Vector(text) }

// Push queues faults that meet the next calls, in order; a zero Fault answers normally.
func (s *Server) Push(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, faults...)
}

// SetDefault sets the fault of every call once the queue is empty: Fault{Status: 503} is a
// provider that is down until SetDefault(Fault{}) brings it back.
func (s *Server) SetDefault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.always = f
}

// Calls returns a copy of every call received so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// CallCount is len(Calls()) without the copy.
func (s *Server) CallCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// accept records c and takes its fault, or refuses it for a wrong key (answering 401 and
// reporting false).
func (s *Server) accept(w http.ResponseWriter, r *http.Request, c Call, refuse func(status int, msg string)) (Fault, bool) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	f := s.always
	if len(s.faults) > 0 {
		f, s.faults = s.faults[0], s.faults[1:]
	}
	s.mu.Unlock()
	if s.apiKey != "" && r.Header.Get("Authorization") != "Bearer "+s.apiKey {
		// Like the real services, the message never repeats the key that was sent.
		refuse(http.StatusUnauthorized, "invalid api key")
		return Fault{}, false
	}
	if !s.wait(r, f.Delay) {
		return Fault{}, false
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	if f.Status >= 400 {
		refuse(f.Status, f.message())
		return Fault{}, false
	}
	if f.Body != "" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(f.Body))
		return Fault{}, false
	}
	return f, true
}

func (f Fault) message() string {
	if f.Message != "" {
		return f.Message
	}
	return http.StatusText(f.Status)
}

// wait sleeps d unless the client leaves or the server closes first; it reports whether the
// answer should still be written.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}
