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
	"io"
	"net/http"
	"testing"
	"time"

	"svc/internal/remote/remotetest"
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
	// Observe, when set, is told of every call once it is answered (or refused): its
	// protocol, how many texts it carried and how long the fake took from the request's
	// arrival to the end of its answer. That is the provider's own time, which `svc bench`
	// subtracts from an answer's. It is called on the request's goroutine, so it must be safe
	// for concurrent use.
	Observe func(protocol string, texts int, took time.Duration)
	// NoRecord keeps no Call (Calls stays empty): a long run that embeds a large KB through
	// the fake would otherwise hold every request's body.
	NoRecord bool
}

// Server is a running fake provider. It is safe for concurrent use. Close, URL, Push (faults
// that meet the next calls, in order), SetDefault (the fault of every call once the queue is
// empty: Fault{Status: 503} is a provider that is down until SetDefault(Fault{}) brings it
// back), Calls and CallCount are remotetest.Fake's.
type Server struct {
	*remotetest.Fake[Call, Fault]
	concepts *Concepts
	apiKey   string
	maxBatch int
	observe  func(protocol string, texts int, took time.Duration)
	noRecord bool
}

// New starts a fake provider; Close stops it. It panics if the embedded concept dictionary
// does not parse, which its own tests rule out.
func New(opts Options) *Server {
	concepts, err := LoadConcepts()
	if err != nil {
		panic(err)
	}
	s := &Server{concepts: concepts, apiKey: opts.APIKey, maxBatch: opts.MaxRerankBatch, observe: opts.Observe,
		noRecord: opts.NoRecord}
	if s.maxBatch <= 0 {
		s.maxBatch = DefaultMaxRerankBatch
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.handle(s.openAI()))
	mux.HandleFunc("POST /api/embed", s.handle(s.ollama()))
	mux.HandleFunc("POST /rerank", s.handle(s.tei()))
	mux.HandleFunc("POST /v1/rerank", s.handle(s.cohere()))
	// The listener serves before NewFake returns: a request must not read s.Fake before it is
	// set. One from this process could not come sooner; one from another process (svc bench's
	// children) is ordered only by the network, which the race detector does not see.
	ready := make(chan struct{})
	s.Fake = remotetest.NewFake[Call](http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-ready
		mux.ServeHTTP(w, r)
	}), Fault{}, nil)
	close(ready)
	return s
}

// Start is New for a test: the server closes when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	return s
}

// OpenAIBaseURL is the base URL of the OpenAI-compatible embeddings: the root plus "/v1".
func (s *Server) OpenAIBaseURL() string { return s.URL() + "/v1" }

// OllamaBaseURL is the base URL of the Ollama embeddings: the root.
func (s *Server) OllamaBaseURL() string { return s.URL() }

// TEIBaseURL is the base URL of the TEI reranker: the root.
func (s *Server) TEIBaseURL() string { return s.URL() }

// CohereBaseURL is the base URL of the Cohere-compatible reranker: the root plus "/v1".
func (s *Server) CohereBaseURL() string { return s.URL() + "/v1" }

// Concepts is the dictionary the server's vectors come from.
func (s *Server) Concepts() *Concepts { return s.concepts }

// Vector is the vector the server answers for text.
func (s *Server) Vector(text string) []float32 { return s.concepts.Vector(text) }

// protocol is one wire protocol of the fake.
type protocol struct {
	name string
	// parse reads body into c and says why the real service would refuse it ("" if not).
	parse func(body []byte, c *Call) (status int, problem string)
	// refuse writes the protocol's error body.
	refuse func(w http.ResponseWriter, status int, message string)
	// answer is the success body.
	answer func(c Call, f Fault) any
}

// maxBody bounds what the fake reads, so a runaway test fails instead of eating memory.
const maxBody = 8 << 20

// handle serves one protocol: the call recorded, the key checked, then the next fault, then
// the service's own refusal, then the answer.
func (s *Server) handle(p protocol) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		c := Call{Protocol: p.name, Header: r.Header.Clone(), Body: body}
		status, problem := http.StatusBadRequest, "could not read the body"
		if err == nil {
			status, problem = p.parse(body, &c)
		}
		if s.observe != nil {
			defer func() { s.observe(p.name, max(len(c.Input), len(c.Documents)), time.Since(start)) }()
		}
		if !s.noRecord {
			s.Record(c)
		}
		if s.apiKey != "" && r.Header.Get("Authorization") != "Bearer "+s.apiKey {
			// Like the real services, the message never repeats the key that was sent.
			p.refuse(w, http.StatusUnauthorized, "invalid api key")
			return
		}
		f := s.Next(c)
		if !s.Wait(r, f.Delay) {
			return
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		switch {
		case f.Status >= 400:
			p.refuse(w, f.Status, f.message())
		case f.Body != "":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(f.Body))
		case problem != "":
			p.refuse(w, status, problem)
		default:
			writeJSON(w, http.StatusOK, p.answer(c, f))
		}
	}
}

func (f Fault) message() string {
	if f.Message != "" {
		return f.Message
	}
	return http.StatusText(f.Status)
}
