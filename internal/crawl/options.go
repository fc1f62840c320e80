package crawl

import "time"

// Options bound one crawl. The zero value of a field means its default.
type Options struct {
	MaxPages    int           // pages fetched (attempted), default 500
	MaxDepth    int           // link hops from the start URL, default 10
	MaxDuration time.Duration // the whole crawl, default 30 minutes
	Workers     int           // fetches in flight over all hosts, default 4
	PerHost     int           // fetches in flight to one host, default 2 (1 when robots.txt sets a crawl-delay)
	MinDelay    time.Duration // pause between two fetches to one host, default 0
	MaxQueue    int           // URLs waiting, default 20 × MaxPages
	// Fetch limits, passed to package fetch.
	Timeout      time.Duration // one request including its body, default 15s
	MaxBodyBytes int64         // default 5 MiB
	MaxRedirects int           // default 5
	AllowPrivate bool          // loopback and private addresses (intranets, tests)
	UserAgent    string        // default "svc-crawler/1.0"
	// Metrics counts the pages fetched, as they are; may be nil.
	Metrics PageCounter
}

// Defaults of Options.
const (
	DefaultMaxPages    = 500
	DefaultMaxDepth    = 10
	DefaultMaxDuration = 30 * time.Minute
	DefaultWorkers     = 4
	DefaultPerHost     = 2
	robotsAgent        = "svc-crawler"
)

func (o Options) withDefaults() Options {
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxDuration <= 0 {
		o.MaxDuration = DefaultMaxDuration
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.PerHost <= 0 {
		o.PerHost = DefaultPerHost
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = 20 * o.MaxPages
	}
	if o.UserAgent == "" {
		o.UserAgent = robotsAgent + "/1.0"
	}
	return o
}
