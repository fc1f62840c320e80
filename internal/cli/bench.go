package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"svc/internal/bench"
)

// cmdBench runs `svc bench`: the speed and memory suite of issue 14 (internal/bench), against
// this binary or --svc. The hidden `svc bench reference` is the bare handler it compares the
// service with, run as a child of the same binary.
func cmdBench(ctx context.Context, args []string, env Env) error {
	if len(args) > 0 && args[0] == "reference" {
		return cmdBenchReference(ctx, args[1:], env)
	}
	d := bench.Defaults
	fs := flag.NewFlagSet("svc bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	svcPath := fs.String("svc", "", "the svc binary to measure (default: this one)")
	xquad := fs.String("xquad", d.XQuAD, "folder with xquad.{en,de,tr}.dev.json")
	sizes := fs.String("sizes", "1000,10000,50000", "KB sizes in chunks, comma-separated")
	duration := fs.Duration("duration", d.Duration, "each throughput run")
	conns := fs.Int("conns", d.Conns, "concurrent connections of the throughput, writes and rss scenarios")
	runs := fs.Int("runs", d.Runs, "throughput rounds (bare, cache hit, greeting) and hybrid rounds of --questions; medians are reported")
	hitQuestions := fs.Int("hit-questions", d.HitQuestions, "distinct cached questions the cache-hit runs send, spread over the connections")
	shapes := fs.String("shapes", strings.Join(d.Shapes, ","), "KB shapes of the latency scenario: mixed (one account, the three languages), "+
		"languages (an account per language, each holding the size in its language)")
	questions := fs.Int("questions", d.Questions, "measured cache-miss questions per KB in the latency scenario")
	writes := fs.Int("writes", d.Writes, "questions of each measured phase of the writes scenario")
	cacheFill := fs.Int("cache-fill", d.CacheFill, "cache entries before the second writes phase")
	rssRequests := fs.Int("rss-requests", d.RSSRequests, "mixed requests before the idle memory is read")
	idle := fs.Duration("idle", d.Idle, "wait after those requests before reading the memory")
	embedDim := fs.Int("embed-dim", d.EmbedDim, "dimension of the hybrid scenario's fake embedding vectors (256 to 4096)")
	work := fs.String("work", "", "folder for the KB data directories, kept and reused across runs (default: a temporary folder, removed)")
	only := fs.String("only", "", "comma-separated subset of: "+strings.Join(bench.Scenarios, ", ")+
		" (default: all but hybrid, which embeds each KB and waits minutes for its vector index)")
	markdown := fs.Bool("markdown", false, "print the goals table as markdown instead of the JSON object")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(env.Stderr, "usage: svc bench [flags]\n\nMeasures throughput, latency, write rate and memory of the svc binary against a bare net/http handler\n(issue 14), and with --only hybrid what retrieval by meaning adds to an answer (issue 25). Prints one JSON object, or the goals table with --markdown; progress goes to stderr.")
			fs.SetOutput(env.Stderr)
			fs.PrintDefaults()
			return err
		}
		return usagef("bench: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("bench: unexpected argument %q", fs.Arg(0))
	}
	// bench.Config reads a zero as "the default"; on the command line a zero is a mistake.
	for _, f := range []struct {
		name string
		v    int
	}{{"conns", *conns}, {"runs", *runs}, {"hit-questions", *hitQuestions}, {"questions", *questions}, {"writes", *writes}, {"cache-fill", *cacheFill},
		{"rss-requests", *rssRequests}, {"embed-dim", *embedDim}} {
		if f.v < 1 {
			return usagef("bench: --%s must be at least 1, not %d", f.name, f.v)
		}
	}
	if *duration <= 0 || *idle < 0 {
		return usagef("bench: --duration must be above zero and --idle not below it")
	}
	cfg := bench.Config{SVC: *svcPath, XQuAD: *xquad, Duration: *duration, Conns: *conns, Runs: *runs, HitQuestions: *hitQuestions,
		Warmup: d.Warmup, Questions: *questions, Writes: *writes, CacheFill: *cacheFill, EmbedDim: *embedDim, RSSRequests: *rssRequests,
		Idle: *idle, Work: *work, Progress: env.Stderr, Command: strings.Join(append([]string{"svc", "bench"}, args...), " ")}
	if *idle == 0 {
		cfg.Idle = -1 // no wait, rather than the default
	}
	var err error
	if cfg.Sizes, err = bench.ParseSizes(*sizes); err != nil {
		return usagef("bench: --sizes: %v", err)
	}
	if *only != "" {
		cfg.Only = splitList(*only)
	}
	if cfg.Shapes = splitList(*shapes); len(cfg.Shapes) == 0 {
		return usagef("bench: --shapes: none of %s given", strings.Join(bench.Shapes, ", "))
	}
	if cfg.SVC == "" {
		if cfg.SVC, err = os.Executable(); err != nil {
			return fmt.Errorf("bench: find this binary: %w (pass --svc)", err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return usagef("bench: %v", err)
	}
	rep, err := bench.Run(ctx, cfg)
	if rep.Started == "" {
		return err // nothing was measured: no report to print
	}
	if *markdown {
		if werr := bench.WriteMarkdown(env.Stdout, rep); werr != nil {
			return werr
		}
	} else if werr := json.NewEncoder(env.Stdout).Encode(rep); werr != nil {
		return werr
	}
	return err
}

// cmdBenchReference serves the bench's bare reference handler until SIGINT/SIGTERM. Not in
// the usage: `svc bench` starts it.
func cmdBenchReference(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("svc bench reference", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	if err := fs.Parse(args); err != nil {
		return usagef("bench reference: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("bench reference: unexpected argument %q", fs.Arg(0))
	}
	return bench.ServeReference(ctx, *addr, env.Stdout)
}
