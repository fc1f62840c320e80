package bench

import "encoding/json"

// Report is every figure of one run: the JSON object `svc bench` prints.
type Report struct {
	Command  string     `json:"command"`
	Started  string     `json:"started"`
	Seconds  float64    `json:"seconds"`
	Machine  Machine    `json:"machine"`
	Settings Settings   `json:"settings"`
	KBs      []KBInfo   `json:"kbs"`
	Through  *Through   `json:"throughput,omitempty"`
	Latency  []Latency  `json:"latency,omitempty"`
	Growth   []Growth   `json:"latency_growth,omitempty"` // one per KB shape
	Hybrid   []Hybrid   `json:"hybrid,omitempty"`
	Writes   *Writes    `json:"writes,omitempty"`
	RSS      *RSS       `json:"rss,omitempty"`
	Import   *Import    `json:"import,omitempty"`
	Binary   *Binary    `json:"binary,omitempty"`
	Errors   []string   `json:"errors,omitempty"`
	Warnings []string   `json:"warnings,omitempty"`
	Goals    []GoalLine `json:"goals"`
}

// Machine is where the figures were measured.
type Machine struct {
	CPU        string          `json:"cpu"`
	NumCPU     int             `json:"num_cpu"`
	GOMAXPROCS int             `json:"gomaxprocs"`
	MemTotalMB float64         `json:"mem_total_mb,omitempty"`
	Go         string          `json:"go"`
	SVC        json.RawMessage `json:"svc_version,omitempty"`
}

// Settings are the run's parameters.
type Settings struct {
	SVC          string   `json:"svc"`
	Reference    string   `json:"reference"`
	XQuAD        string   `json:"xquad"`
	Sizes        []int    `json:"sizes"`
	Shapes       []string `json:"shapes"`
	Duration     string   `json:"duration"`
	Conns        int      `json:"conns"`
	Runs         int      `json:"runs"`
	HitQuestions int      `json:"hit_questions"`
	Warmup       int      `json:"warmup"`
	Questions    int      `json:"questions"`
	Writes       int      `json:"writes"`
	CacheFill    int      `json:"cache_fill"`
	EmbedDim     int      `json:"embed_dim"`
	RSSRequests  int      `json:"rss_requests"`
	Idle         string   `json:"idle"`
	Work         string   `json:"work"`
	Scenarios    []string `json:"scenarios"`
}

// KBInfo is one knowledge base the run used.
type KBInfo struct {
	Shape         string  `json:"shape"`
	Size          int     `json:"size"` // chunks of each account
	Accounts      int     `json:"accounts"`
	Chunks        int     `json:"chunks"`
	Pages         int     `json:"pages"`
	Synthesized   int     `json:"synthesized_pages"`
	Reused        bool    `json:"reused"`
	BuiltBy       string  `json:"built_by"`
	ImportSeconds float64 `json:"import_seconds"`
	ImportPeakMB  float64 `json:"import_peak_rss_mb"`
}

// Rate is one load target's throughput over the rounds.
type Rate struct {
	PerSecond    float64   `json:"req_per_s"` // median of the rounds
	Rounds       []float64 `json:"rounds_req_per_s"`
	RoundSeconds []float64 `json:"rounds_seconds"` // shorter than the duration when a run hit its request budget
	Latency      Latencies `json:"latency"`        // every answer of every round
	// CPUPerRequest is the median of the rounds' server CPU time a request (user and
	// system, from /proc), in microseconds; 0 where the platform does not report it.
	CPUPerRequest float64   `json:"server_cpu_us_per_req"`
	CPURounds     []float64 `json:"rounds_server_cpu_us_per_req"`
}

// Through is the throughput scenario: the bare reference, cache-hit sends and greetings.
type Through struct {
	KBSize   int    `json:"kb_size"`
	Conns    int    `json:"conns"`
	Duration string `json:"duration"`
	Rounds   int    `json:"rounds"`
	Accounts int    `json:"accounts"` // one for cache hits, one for greetings
	SendRate int    `json:"send_rate_per_min"`
	Question string `json:"question"` // the first of Questions
	// Questions are the cached questions the cache-hit runs send (HitQuestions of them).
	Questions []string `json:"questions"`
	Bare      Rate     `json:"bare"`
	CacheHit  Rate     `json:"cache_hit"`
	Greeting  Rate     `json:"greeting"`
	// HitShare and GreetingShare are the medians of each round's service rate over the same
	// round's bare rate.
	HitShare      float64 `json:"cache_hit_share"`
	GreetingShare float64 `json:"greeting_share"`
	// HitCPUShare and GreetingCPUShare are the medians of each round's bare CPU time a
	// request over the service's: the rate share a load generator that cost nothing would
	// see, the same whichever generator measures it (0 when not measured).
	HitCPUShare      float64 `json:"cache_hit_cpu_share"`
	GreetingCPUShare float64 `json:"greeting_cpu_share"`
	RateLimited      int     `json:"rate_limited"`
	Failed           int     `json:"failed"`
}

// Latency is the sequential cache-miss latency on one KB.
type Latency struct {
	Shape    string         `json:"shape"`
	KBSize   int            `json:"kb_size"` // chunks of each account
	Accounts int            `json:"accounts"`
	Chunks   int            `json:"chunks"` // of every account
	Asked    int            `json:"asked"`
	Sources  map[string]int `json:"sources"`
	AI       Latencies      `json:"ai"` // the answers with source ai only
	// CPUPerQuestion is the server's CPU time over the measured questions (every source)
	// divided by their number, in milliseconds (0 when not measured): unlike the response
	// times, it holds when the machine is busy with other work.
	CPUPerQuestion float64 `json:"server_cpu_ms_per_question"`
}

// Growth compares the p99 (and p50) of two KB sizes of one shape.
type Growth struct {
	Shape    string  `json:"shape"`
	From     int     `json:"from"`
	To       int     `json:"to"`
	P99Ratio float64 `json:"p99_ratio"`
	P50Ratio float64 `json:"p50_ratio"`
}

// Hybrid is the hybrid scenario on one mixed KB: the same cache-miss questions as the
// latency scenario, asked of two copies of the KB once every chunk is embedded, one served
// without an embedding provider (keyword-only) and one with the in-process fake provider
// (hybrid), each question of both servers in turn; the provider's own time for each
// question's embedding is measured where it answers.
type Hybrid struct {
	KBSize int `json:"kb_size"`
	Chunks int `json:"chunks"`
	// Provider, Model and Dim describe the fake provider the hybrid server used.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Dim      int    `json:"dim"`
	// Vectors are the chunks `svc kb reindex` embedded, in EmbedSeconds.
	Vectors      int     `json:"vectors"`
	EmbedSeconds float64 `json:"embed_seconds"`
	// Index is the kind of vector index the measured questions searched (exact, hnsw), ready
	// IndexSeconds after the first question asked for it (a graph is built in the background).
	Index        string  `json:"index"`
	IndexSeconds float64 `json:"index_ready_seconds"`
	Keyword      Latency `json:"keyword"` // no provider configured
	Hybrid       Latency `json:"hybrid"`  // the fake provider configured
	// ProviderLatency is the fake's own time for each question's embedding during the measured
	// questions, from the request's arrival to the end of its answer; ProviderCalls counts them.
	ProviderLatency Latencies `json:"provider_latency"`
	ProviderCalls   int       `json:"provider_calls"`
	// Degraded counts the measured questions whose search went without vectors
	// (svc_semantic_degraded_total): above 0, the hybrid figures are partly keyword-only.
	Degraded int `json:"degraded"`
	// Rounds are the measured rounds (Config.Runs of Questions each; the first asks the
	// latency scenario's questions). Keyword, Hybrid and ProviderLatency above are all
	// rounds together.
	Rounds []HybridRound `json:"rounds"`
	// AddedP99 is the median over the rounds of each round's hybrid p99 less its keyword-only
	// p99 less the provider's p99: what retrieval by meaning adds on top of the provider
	// (AddedP50 likewise).
	AddedP99 float64 `json:"added_p99_ms"`
	AddedP50 float64 `json:"added_p50_ms"`
	// AddedCPU is the hybrid server's CPU time a question less the keyword-only one's, in
	// milliseconds (0 when not measured): the work retrieval by meaning adds in the server
	// (the provider runs in the bench process), which holds when other work makes the
	// response times noisy.
	AddedCPU float64 `json:"added_server_cpu_ms_per_question"`
	// PairedN questions got a built-in answer in both runs; PairedMedian is the median of
	// their hybrid less keyword-only times (the provider's time included), a reading that
	// the tail's noise moves less.
	PairedN      int     `json:"paired_n"`
	PairedMedian float64 `json:"paired_median_ms"`
}

// HybridRound is one round of the hybrid scenario: its built-in answers' times on both
// servers, the provider's time for its questions, and what hybrid retrieval added.
type HybridRound struct {
	Keyword  Latencies `json:"keyword"`
	Hybrid   Latencies `json:"hybrid"`
	Provider Latencies `json:"provider"`
	AddedP99 float64   `json:"added_p99_ms"`
	AddedP50 float64   `json:"added_p50_ms"`
}

// WritesPhase is one phase of the writes scenario.
type WritesPhase struct {
	CacheBefore int            `json:"cache_entries_before"`
	Asked       int            `json:"asked"`
	Sources     map[string]int `json:"sources"`
	Seconds     float64        `json:"seconds"`
	PerSecond   float64        `json:"ai_per_s"`
	AI          Latencies      `json:"ai"`
	// CPUPerAnswer is the server's CPU time (user and system) over the phase divided by its
	// ai answers, in milliseconds (0 when not measured): what an answer costs, whatever
	// else the machine was doing.
	CPUPerAnswer float64 `json:"server_cpu_ms_per_ai"`
}

// Writes is the rate of distinct cache-miss answers, on an empty answer cache and on a full one.
type Writes struct {
	KBSize int         `json:"kb_size"`
	Conns  int         `json:"conns"`
	Fresh  WritesPhase `json:"fresh"`
	Fill   WritesPhase `json:"fill"`
	Full   WritesPhase `json:"full"`
	// Flat is Full's rate over Fresh's.
	Flat float64 `json:"flat"`
	// Synthesized counts the questions made past the end of the XQuAD pool (see questionFeed).
	Synthesized int `json:"synthesized_questions"`
}

// RSS is the service's memory after mixed requests and an idle wait.
type RSS struct {
	KBSize      int            `json:"kb_size"`
	Requests    int            `json:"requests"`
	Sources     map[string]int `json:"sources"`
	Seconds     float64        `json:"seconds"`
	IdleSeconds float64        `json:"idle_seconds"`
	VmRSSMB     float64        `json:"vm_rss_mb"`
	VmHWMMB     float64        `json:"vm_hwm_mb"`
}

// Import is the memory of importing the largest KB.
type Import struct {
	KBSize    int     `json:"kb_size"`
	Chunks    int     `json:"chunks"`
	Measured  bool    `json:"measured"`
	PeakRSSMB float64 `json:"peak_rss_mb,omitempty"`
	Seconds   float64 `json:"seconds,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// Binary is the size of the svc binary and what it carries.
type Binary struct {
	Path    string  `json:"path"`
	Bytes   int64   `json:"bytes"`
	MB      float64 `json:"mb"`
	Symbols bool    `json:"symbols"`
	DWARF   bool    `json:"dwarf"`
}
