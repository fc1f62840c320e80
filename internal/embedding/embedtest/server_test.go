package embedtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// post sends body to url with the key and decodes the answer into out.
func post(t *testing.T, url, key, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("decode: %v", err)
		}
	}
	return res.StatusCode
}

func TestServerSpeaksEachProtocol(t *testing.T) {
	t.Parallel()
	s := Start(t, Options{APIKey: "k"})

	var oa struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
		Model string `json:"model"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if st := post(t, s.OpenAIBaseURL()+"/embeddings", "k", `{"model":"m","input":["refund","Lieferzeit"],"encoding_format":"float"}`, &oa); st != 200 ||
		len(oa.Data) != 2 || oa.Data[1].Index != 1 || len(oa.Data[0].Embedding) != Dim || oa.Model != "m" || oa.Usage.PromptTokens != 4 {
		t.Errorf("openai: %d %+v", st, oa)
	}

	var ol struct {
		Model      string      `json:"model"`
		Embeddings [][]float32 `json:"embeddings"`
		Count      int         `json:"prompt_eval_count"`
	}
	if st := post(t, s.OllamaBaseURL()+"/api/embed", "k", `{"model":"bge-m3","input":"iade"}`, &ol); st != 200 ||
		len(ol.Embeddings) != 1 || Cosine(ol.Embeddings[0], s.Vector("refund")) < 0.5 || ol.Count != 1 {
		t.Errorf("ollama: %d %+v", st, ol.Count)
	}

	var tei []struct {
		Index int     `json:"index"`
		Score float64 `json:"score"`
	}
	if st := post(t, s.TEIBaseURL()+"/rerank", "k", `{"query":"money back","texts":["opening hours","Rückerstattung"],"raw_scores":false}`, &tei); st != 200 ||
		len(tei) != 2 || tei[0].Index != 1 || tei[0].Score <= tei[1].Score {
		t.Errorf("tei: %d %+v", st, tei)
	}

	var co struct {
		Results []struct {
			Index int     `json:"index"`
			Score float64 `json:"relevance_score"`
		} `json:"results"`
	}
	if st := post(t, s.CohereBaseURL()+"/rerank", "k", `{"model":"r","query":"money back","documents":["opening hours",{"text":"Rückerstattung"},"iade"],"top_n":2}`, &co); st != 200 ||
		len(co.Results) != 2 || co.Results[0].Index == 0 || co.Results[1].Index == 0 {
		t.Errorf("cohere: %d %+v", st, co)
	}
	if n := s.CallCount(); n != 4 {
		t.Errorf("%d calls recorded", n)
	}
	if c := s.Calls()[3]; c.Protocol != ProtocolCohere || c.TopN != 2 || len(c.Documents) != 3 || c.Documents[1] != "Rückerstattung" {
		t.Errorf("cohere call %+v", c)
	}
}

func TestServerRefusesLikeTheRealOnes(t *testing.T) {
	t.Parallel()
	s := Start(t, Options{APIKey: "k", MaxRerankBatch: 2})
	tests := []struct {
		name, url, key, body string
		want                 int
		message              string // a fragment of the error body
	}{
		{"wrong key", s.OpenAIBaseURL() + "/embeddings", "x", `{"model":"m","input":["a"]}`, 401, "invalid api key"},
		{"openai without model", s.OpenAIBaseURL() + "/embeddings", "k", `{"input":["a"]}`, 400, "model"},
		{"openai empty text", s.OpenAIBaseURL() + "/embeddings", "k", `{"model":"m","input":[""]}`, 400, "input"},
		{"openai base64", s.OpenAIBaseURL() + "/embeddings", "k", `{"model":"m","input":["a"],"encoding_format":"base64"}`, 400, "float"},
		{"ollama bad JSON", s.OllamaBaseURL() + "/api/embed", "k", `{"model":`, 400, "parse"},
		{"tei over its batch size", s.TEIBaseURL() + "/rerank", "k", `{"query":"q","texts":["a","b","c"]}`, 422, "maximum allowed batch size 2"},
		{"cohere without model", s.CohereBaseURL() + "/rerank", "k", `{"query":"q","documents":["a"]}`, 400, "model"},
	}
	for _, tc := range tests {
		var body map[string]any
		if st := post(t, tc.url, tc.key, tc.body, &body); st != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, st, tc.want)
		}
		if b, _ := json.Marshal(body); !strings.Contains(string(b), tc.message) {
			t.Errorf("%s: body %s lacks %q", tc.name, b, tc.message)
		}
	}
}

func TestServerFaults(t *testing.T) {
	t.Parallel()
	s := Start(t, Options{})
	s.Push(Fault{Status: 429, RetryAfter: "3"}, Fault{Dim: 8, Missing: true}, Fault{Body: `{"data":`})
	s.SetDefault(Fault{Status: 503, Message: "down"})
	req, _ := http.NewRequest(http.MethodPost, s.OpenAIBaseURL()+"/embeddings", strings.NewReader(`{"model":"m","input":["a","b"]}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") != "3" {
		t.Errorf("first: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	var ol struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if post(t, s.OllamaBaseURL()+"/api/embed", "", `{"model":"m","input":["a","b"]}`, &ol); len(ol.Embeddings) != 1 || len(ol.Embeddings[0]) != 8 {
		t.Errorf("second: %d vectors of %d", len(ol.Embeddings), len(ol.Embeddings[0]))
	}
	if st := post(t, s.OpenAIBaseURL()+"/embeddings", "", `{"model":"m","input":["a"]}`, nil); st != 200 {
		t.Errorf("third: %d", st)
	}
	var down struct {
		Error string `json:"error"`
	}
	if st := post(t, s.OllamaBaseURL()+"/api/embed", "", `{"model":"m","input":["a"]}`, &down); st != 503 || down.Error != "down" {
		t.Errorf("default: %d %q", st, down.Error)
	}
}

// Observe is told of each call with its protocol, texts and time, and NoRecord keeps none.
func TestServerObservesWithoutRecording(t *testing.T) {
	t.Parallel()
	type seen struct {
		protocol string
		texts    int
	}
	var mu sync.Mutex
	var got []seen
	s := Start(t, Options{NoRecord: true, Observe: func(protocol string, texts int, took time.Duration) {
		if took <= 0 {
			t.Errorf("%s call took %s", protocol, took)
		}
		mu.Lock()
		got = append(got, seen{protocol, texts})
		mu.Unlock()
	}})
	s.SetDefault(Fault{Dim: 384})
	var oa struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if st := post(t, s.OpenAIBaseURL()+"/embeddings", "", `{"model":"m","input":["refund","Lieferzeit","iade"]}`, &oa); st != 200 ||
		len(oa.Data) != 3 || len(oa.Data[0].Embedding) != 384 {
		t.Fatalf("openai: %d %+v", st, oa)
	}
	if st := post(t, s.TEIBaseURL()+"/rerank", "", `{"query":"refund","texts":["a","b"]}`, nil); st != 200 {
		t.Fatalf("tei: %d", st)
	}
	// The handler reports once its answer is written, which the client may have read already.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []seen{{ProtocolOpenAI, 3}, {ProtocolTEI, 2}}; !slices.Equal(got, want) {
		t.Errorf("observed %v, want %v", got, want)
	}
	if n := s.CallCount(); n != 0 {
		t.Errorf("%d calls recorded with NoRecord", n)
	}
}
