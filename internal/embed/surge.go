package embed

import (
	"math"
	"time"
)

// SurgeOptions tunes surge protection; a zero or negative field takes its default.
type SurgeOptions struct {
	Window time.Duration // bucket length; default 1 minute
	Floor  int           // a bucket above max(Floor, Factor×baseline) is a spike; default 20
	Factor float64       // default 4
	// PerAddress is the questions a client address may ask in a bucket at a human pace;
	// default 6. A bucket is a spike only when more than Floor/2 of its questions came
	// beyond that pace (see Surge).
	PerAddress int
	Alpha      float64       // EWMA weight of a finished bucket in the baseline (at most 1); default 0.2
	Cooldown   time.Duration // stay in surge this long after the last spiking bucket; default 10 minutes
}

// The detector's bounds, the same for every SurgeStore (surgeredis's Lua script takes them
// from here).
const (
	// SurgeMaxCatchUp bounds the empty buckets folded one by one after a quiet spell. Past it the
	// baseline is taken as 0: with the default weight it would be under 0.8^60 (about a
	// millionth) of what it was, which moves no threshold.
	SurgeMaxCatchUp = 60
	// SurgeIdle is how long a token may go without questions before it is forgotten (at
	// least SurgeMaxCatchUp windows, so forgetting loses no baseline worth keeping); a token in
	// surge is kept until the surge ends.
	SurgeIdle = time.Hour
	// SurgeMaxAddresses bounds the distinct addresses remembered per token and bucket.
	SurgeMaxAddresses = 4096
	// sweepEvery is how often Observe looks for idle tokens.
	sweepEvery = time.Minute
)

func (o SurgeOptions) withDefaults() SurgeOptions {
	if o.Window <= 0 {
		o.Window = time.Minute
	}
	if o.Floor <= 0 {
		o.Floor = 20
	}
	if o.Factor <= 0 {
		o.Factor = 4
	}
	if o.PerAddress <= 0 {
		o.PerAddress = 6
	}
	if o.Alpha <= 0 || o.Alpha > 1 {
		o.Alpha = 0.2
	}
	if o.Cooldown <= 0 {
		o.Cooldown = 10 * time.Minute
	}
	return o
}

// Surge detects abnormal spikes of widget questions per embed token, in process. A token's
// questions are counted in fixed buckets of Window; finished buckets feed an exponentially
// weighted baseline of its normal traffic. When the current bucket's count exceeds
// max(Floor, Factor×baseline) the token is in surge until Cooldown after that bucket ends,
// and the widget answers from the cache only, so an attack (or a runaway script on the
// owner's page) cannot spend the owner's money. Buckets that fall in a surge are not folded
// into the baseline, so a long attack never becomes normal; the surge ends by itself.
//
// A crowd is not an attack. People read an answer before they type the next question, one
// every 15-20 seconds at the very most (4 a minute), so a bucket is a spike only when, beside
// exceeding the threshold, more than Floor/2 of its questions came from addresses past
// PerAddress questions: 40 or 500 shoppers at a launch, each on an address of their own, add
// nothing to that excess, while a script is held to 30 requests a minute per address by the
// embed surface and spends its excess at once, even hidden in a crowd. A script spread over
// so many addresses that each stays at a human pace looks like a crowd, and is left to the
// token's daily budget and its 60 new answers a minute. Addresses are counted up to
// SurgeMaxAddresses a bucket; questions from addresses past that add no excess.
//
// Time comes only from the callers' now, never the clock. A Surge is safe for concurrent
// use. Its state lives in a SurgeStore: this process's memory (NewSurge), or a store shared
// by every replica (NewSharedSurge, Redis), so that a script spread over several replicas is
// counted as one.
type Surge struct {
	opt SurgeOptions
	// store holds the state; mem is this process's own state: the store itself, or the
	// fallback of a shared store that did not answer.
	store  SurgeStore
	mem    *memorySurge
	health SharedHealth // nil when store is mem
}

// SurgeStore holds the detector's per-token state and applies its rules to it, each call in
// one atomic step. o has its defaults filled in. An error means the state could not be
// reached; the Surge then decides that call in its own memory.
type SurgeStore interface {
	// Observe counts one question on the token from addr at now and reports whether the
	// token is in surge, counting this question (see Surge.Observe).
	Observe(o SurgeOptions, tokenID int64, addr string, now time.Time) (bool, error)
	// Active reports whether the token is in surge at now, counting nothing.
	Active(o SurgeOptions, tokenID int64, now time.Time) (bool, error)
	// Threshold is the most questions the token's bucket at now may hold without spiking.
	Threshold(o SurgeOptions, tokenID int64, now time.Time) (int, error)
}

// SharedHealth decides when to ask a shared store and hears how each call went, to log an
// outage and a recovery once each and count the calls decided in memory
// (redisconn.Health).
type SharedHealth interface {
	Try() bool
	Failed(err error)
	OK()
}

// NewSurge returns a detector with o's settings, defaults filled in, holding its state in
// this process's memory.
func NewSurge(o SurgeOptions) *Surge {
	mem := newMemorySurge()
	return &Surge{opt: o.withDefaults(), store: mem, mem: mem}
}

// NewSharedSurge returns a detector with o's settings whose state is in store, shared by the
// replicas that use the same store. A call the store fails (or that health says not to try)
// is decided in this process's memory: questions are then counted per replica, which a
// short outage can afford, since only the spend of one token is at stake and its daily
// budget still holds. A nil health always tries the store.
func NewSharedSurge(o SurgeOptions, store SurgeStore, health SharedHealth) *Surge {
	if health == nil {
		health = alwaysTry{}
	}
	return &Surge{opt: o.withDefaults(), store: store, mem: newMemorySurge(), health: health}
}

// Observe counts one question on the token from the client address addr (any stable key of
// it; "" counts as one address) at now and reports whether the token is in surge, counting
// this question: the one that makes the bucket spike is already answered from cache.
func (s *Surge) Observe(tokenID int64, addr string, now time.Time) bool {
	return decide(s, func(st SurgeStore) (bool, error) { return st.Observe(s.opt, tokenID, addr, now) })
}

// Active reports whether the token is in surge at now, without counting a question.
func (s *Surge) Active(tokenID int64, now time.Time) bool {
	return decide(s, func(st SurgeStore) (bool, error) { return st.Active(s.opt, tokenID, now) })
}

// Threshold is the most questions the token's bucket at now may hold without being a spike,
// max(Floor, Factor×baseline) rounded down, for logs and docs. It changes nothing.
func (s *Surge) Threshold(tokenID int64, now time.Time) int {
	return decide(s, func(st SurgeStore) (int, error) { return st.Threshold(s.opt, tokenID, now) })
}

// decide runs f on the shared store when there is one and it answers, else on memory.
func decide[T any](s *Surge, f func(SurgeStore) (T, error)) T {
	if s.health != nil && s.health.Try() {
		v, err := f(s.store)
		if err == nil {
			s.health.OK()
			return v
		}
		s.health.Failed(err)
	}
	v, _ := f(s.mem) // memory never fails
	return v
}

func (s *Surge) bucketOf(now time.Time) int64 { return s.opt.BucketOf(now) }

// BucketOf is the number of the bucket now falls in, counted in windows from the Unix epoch.
func (o SurgeOptions) BucketOf(now time.Time) int64 {
	return floorDiv(now.UnixNano(), int64(o.Window))
}

// alwaysTry is the health of a shared store given none.
type alwaysTry struct{}

func (alwaysTry) Try() bool    { return true }
func (alwaysTry) Failed(error) {}
func (alwaysTry) OK()          {}

// SurgeSnapshot is one token's state as a shared store keeps it, enough to compute its
// threshold at any time with the same arithmetic as memory (SurgeSnapshot.Threshold).
type SurgeSnapshot struct {
	Bucket   int64   // the current bucket
	Count    int     // questions in it
	Baseline float64 // EWMA of finished buckets outside surges
	Until    int64   // in surge while now is before this, in Unix nanoseconds; 0 if never
}

// Threshold is the snapshot's threshold at now: its finished buckets folded in as Observe
// would fold them, nothing changed.
func (sn SurgeSnapshot) Threshold(o SurgeOptions, now time.Time) int {
	st := surgeState{bucket: sn.Bucket, count: sn.Count, baseline: sn.Baseline, until: sn.Until}
	st.advance(o.BucketOf(now), &o)
	return st.threshold(&o)
}

// advance moves the state to bucket k, folding the finished buckets into the baseline: the
// current one with its count, the ones skipped since as zero. A bucket that began before
// until was part of a surge (it spiked, or fell in the cooldown) and is left out, which
// freezes the baseline for the whole surge. A k at or before the current bucket (the same
// bucket, or a wall clock stepped back) leaves the state as it is.
func (st *surgeState) advance(k int64, o *SurgeOptions) {
	if k <= st.bucket {
		return
	}
	w := int64(o.Window)
	if st.bucket*w >= st.until {
		st.baseline = o.Alpha*float64(st.count) + (1-o.Alpha)*st.baseline
	}
	// Skipped buckets from the first one that began at or after until.
	first := max(st.bucket+1, ceilDiv(st.until, w))
	if empty := k - first; empty > SurgeMaxCatchUp {
		st.baseline = 0
	} else {
		for range empty {
			st.baseline *= 1 - o.Alpha
		}
	}
	st.bucket, st.count, st.excess = k, 0, 0
	clear(st.addrs)
}

// threshold is max(Floor, Factor×baseline) rounded down: a whole count exceeds the real
// number exactly when it exceeds its floor.
func (st *surgeState) threshold(o *SurgeOptions) int {
	t := o.Factor * st.baseline
	switch {
	case t < float64(o.Floor):
		return o.Floor
	case t >= math.MaxInt32:
		return math.MaxInt32
	default:
		return int(t)
	}
}

// floorDiv and ceilDiv round toward minus and plus infinity, also for times before 1970.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
