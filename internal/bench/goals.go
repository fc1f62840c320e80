package bench

import (
	"fmt"
	"io"
	"strings"
)

// GoalLine is one row of issue 14's table: what was measured and whether it meets the goal.
type GoalLine struct {
	What     string `json:"what"`
	Measured string `json:"measured"`
	Goal     string `json:"goal"`
	// Pass is nil when the row has no goal or was not measured.
	Pass *bool `json:"pass"`
}

// Goals of issue 14.
const (
	goalHitShare      = 0.15
	goalGreetingShare = 0.20
	goalP99At10k      = 20.0 // ms
	goalP99At50k      = 40.0 // ms
	goalGrowth        = 2.0
	goalImportMB      = 150.0
	goalWritesPerSec  = 500.0
	goalWritesFlat    = 0.8 // "flat": the rate with a full cache is at least this share of the fresh one
	goalBinaryMB      = 60.0
	goalIdleRSSMB     = 60.0
	// goalHybridAdded is issue 25's: hybrid retrieval adds at most this (ms, p99) at 50,000
	// chunks on top of the embedding provider's own latency.
	goalHybridAdded = 5.0
)

const notMeasured = "not measured"

func check(ok bool) *bool { return &ok }

// goals builds the table from the report's figures.
func goals(r Report) []GoalLine {
	var out []GoalLine
	add := func(what, measured, goal string, pass *bool) {
		out = append(out, GoalLine{What: what, Measured: measured, Goal: goal, Pass: pass})
	}
	if t := r.Through; t != nil {
		questions := ""
		if n := len(t.Questions); n > 1 {
			questions = fmt.Sprintf(", %d cached questions", n)
		}
		add(fmt.Sprintf("cache-hit `send` throughput, as a share of the bare handler (KB %s, %d conns%s)", chunksLabel(t.KBSize), t.Conns, questions),
			fmt.Sprintf("%.1f%% (%.0f vs %.0f req/s)%s", 100*t.HitShare, t.CacheHit.PerSecond, t.Bare.PerSecond,
				cpuShare(t.HitCPUShare, t.CacheHit.CPUPerRequest, t.Bare.CPUPerRequest)),
			fmt.Sprintf(">= %.0f%%", 100*goalHitShare), check(t.HitShare >= goalHitShare))
		add("greeting (`cache_shared`) throughput share",
			fmt.Sprintf("%.1f%% (%.0f req/s)%s", 100*t.GreetingShare, t.Greeting.PerSecond,
				cpuShare(t.GreetingCPUShare, t.Greeting.CPUPerRequest, t.Bare.CPUPerRequest)),
			fmt.Sprintf(">= %.0f%%", 100*goalGreetingShare), check(t.GreetingShare >= goalGreetingShare))
	} else {
		add("cache-hit `send` throughput share", notMeasured, fmt.Sprintf(">= %.0f%%", 100*goalHitShare), nil)
		add("greeting (`cache_shared`) throughput share", notMeasured, fmt.Sprintf(">= %.0f%%", 100*goalGreetingShare), nil)
	}
	if len(r.Latency) == 0 {
		add("built-in answer (cache miss) p99 (and p50), KB of 10,000 chunks", notMeasured, fmt.Sprintf("<= %.0f ms", goalP99At10k), nil)
		add("the same at 50,000 chunks", notMeasured, fmt.Sprintf("<= %.0f ms", goalP99At50k), nil)
	}
	for _, l := range r.Latency {
		measured := fmt.Sprintf("p99 %.1f ms (p50 %.1f, p90 %.1f; %d answers)", l.AI.P99, l.AI.P50, l.AI.P90, l.AI.N)
		if l.CPUPerQuestion > 0 {
			measured = fmt.Sprintf("p99 %.1f ms (p50 %.1f, p90 %.1f; %d answers; %.1f ms of server CPU a question)",
				l.AI.P99, l.AI.P50, l.AI.P90, l.AI.N, l.CPUPerQuestion)
		}
		kb := shapeLabel(l.Shape, l.KBSize)
		switch l.KBSize {
		case 10000:
			add("built-in answer (cache miss) p99 (and p50), "+kb, measured,
				fmt.Sprintf("<= %.0f ms", goalP99At10k), check(l.AI.N > 0 && l.AI.P99 <= goalP99At10k))
		case 50000:
			what := "the same at 50,000 chunks"
			if l.Shape == ShapeLanguages {
				what = "the same, " + kb
			}
			add(what, measured, fmt.Sprintf("<= %.0f ms", goalP99At50k), check(l.AI.N > 0 && l.AI.P99 <= goalP99At50k))
		default:
			add("built-in answer (cache miss) latency, "+kb, measured, "–", nil)
		}
	}
	out = append(out, hybridGoals(r)...)
	if r.Import == nil {
		add("peak RSS of importing the 50k-chunk KB", notMeasured, fmt.Sprintf("<= %.0f MB", goalImportMB), nil)
	}
	if i := r.Import; i != nil {
		goal := "–"
		var pass *bool
		if i.KBSize == 50000 {
			goal = fmt.Sprintf("<= %.0f MB", goalImportMB)
		}
		measured := i.Note
		if i.Measured {
			measured = fmt.Sprintf("%.0f MB (%.0f s)", i.PeakRSSMB, i.Seconds)
			if i.KBSize == 50000 {
				pass = check(i.PeakRSSMB <= goalImportMB)
			}
		}
		add(fmt.Sprintf("peak RSS of importing the %s-chunk KB", chunksLabel(i.KBSize)), measured, goal, pass)
	}
	if len(r.Growth) == 0 {
		add("how latency grows with the KB: p99 at 50k over p99 at 10k", notMeasured, fmt.Sprintf("<= %.0fx", goalGrowth), nil)
	}
	for _, g := range r.Growth {
		goal, pass := "–", (*bool)(nil)
		if g.From == 10000 && g.To == 50000 {
			goal, pass = fmt.Sprintf("<= %.0fx", goalGrowth), check(g.P99Ratio > 0 && g.P99Ratio <= goalGrowth)
		}
		what := fmt.Sprintf("how latency grows with the KB: p99 at %s over p99 at %s", chunksLabel(g.To), chunksLabel(g.From))
		if g.Shape == ShapeLanguages {
			what += " (an account per language)"
		}
		add(what, fmt.Sprintf("%.2fx (p50 %.2fx)", g.P99Ratio, g.P50Ratio), goal, pass)
	}
	writesGoal := fmt.Sprintf(">= %.0f, flat (full >= %.0f%% of fresh)", goalWritesPerSec, 100*goalWritesFlat)
	if w := r.Writes; w != nil {
		add(fmt.Sprintf("distinct cache-miss answers written per second (%d conns, KB %s)", w.Conns, chunksLabel(w.KBSize)),
			fmt.Sprintf("%.0f fresh; %.0f at %d cache entries (%.0f%%); %.2f / %.2f ms of server CPU an answer",
				w.Fresh.PerSecond, w.Full.PerSecond, w.Full.CacheBefore, 100*w.Flat, w.Fresh.CPUPerAnswer, w.Full.CPUPerAnswer),
			writesGoal, check(w.Fresh.PerSecond >= goalWritesPerSec && w.Full.PerSecond >= goalWritesPerSec && w.Flat >= goalWritesFlat))
	} else {
		add("distinct cache-miss answers written per second", notMeasured, writesGoal, nil)
	}
	if b := r.Binary; b != nil {
		add("binary size", fmt.Sprintf("%.1f MB (symbols %s, DWARF %s)", b.MB, yesNo(b.Symbols), yesNo(b.DWARF)),
			fmt.Sprintf("<= %.0f MB default build", goalBinaryMB), check(b.MB <= goalBinaryMB))
	} else {
		add("binary size", notMeasured, fmt.Sprintf("<= %.0f MB default build", goalBinaryMB), nil)
	}
	if m := r.RSS; m != nil {
		goal, pass := "–", (*bool)(nil)
		if m.KBSize == 10000 {
			goal, pass = fmt.Sprintf("<= %.0f MB", goalIdleRSSMB), check(m.VmRSSMB <= goalIdleRSSMB)
		}
		add(fmt.Sprintf("RSS idle after %s requests on the %s KB", thousands(m.Requests), chunksLabel(m.KBSize)),
			fmt.Sprintf("%.0f MB (peak %.0f MB)", m.VmRSSMB, m.VmHWMMB), goal, pass)
	} else {
		add("RSS idle after 1,000 requests on the 10k KB", notMeasured, fmt.Sprintf("<= %.0f MB", goalIdleRSSMB), nil)
	}
	return out
}

// hybridGoals are the rows of the hybrid scenario (issue 25): what retrieval by meaning adds
// at each size, the goal at 50,000 chunks, and the keyword-only figures of a KB whose vectors
// are stored but whose server has no provider beside the latency scenario's on the plain KB.
func hybridGoals(r Report) []GoalLine {
	goal := fmt.Sprintf("<= %.0f ms", goalHybridAdded)
	if len(r.Hybrid) == 0 {
		return []GoalLine{{What: "hybrid retrieval adds ≤ 5 ms p99 at 50k chunks on top of the provider (`--only hybrid`)",
			Measured: notMeasured, Goal: goal}}
	}
	var out []GoalLine
	for _, h := range r.Hybrid {
		each := make([]string, len(h.Rounds))
		for i, rd := range h.Rounds {
			each[i] = fmt.Sprintf("%+.1f", rd.AddedP99)
		}
		measured := fmt.Sprintf("%+.1f ms at p99, median of %d rounds (%s; each the round's hybrid p99 − keyword-only p99 − provider p99); all rounds: hybrid p99 %.1f, keyword-only %.1f, provider %.2f ms over %d and %d answers; p50 %+.1f ms; paired median %+.1f ms; %s index of %s vectors of %d dimensions",
			h.AddedP99, len(h.Rounds), strings.Join(each, ", "), h.Hybrid.AI.P99, h.Keyword.AI.P99, h.ProviderLatency.P99,
			h.Hybrid.AI.N, h.Keyword.AI.N, h.AddedP50, h.PairedMedian, h.Index, thousands(h.Vectors), h.Dim)
		if h.AddedCPU != 0 {
			measured += fmt.Sprintf("; %+.2f ms of server CPU a question", h.AddedCPU)
		}
		if h.Degraded > 0 {
			measured += fmt.Sprintf("; %d searches went without vectors", h.Degraded)
		}
		ok := h.Hybrid.AI.N > 0 && h.Keyword.AI.N > 0 && h.Degraded == 0 && h.AddedP99 <= goalHybridAdded
		if h.KBSize == 50000 {
			out = append(out, GoalLine{What: "hybrid retrieval adds ≤ 5 ms p99 at 50k chunks on top of the provider",
				Measured: measured, Goal: goal, Pass: check(ok)})
		} else {
			out = append(out, GoalLine{What: "what hybrid retrieval adds on top of the provider, " + shapeLabel(ShapeMixed, h.KBSize),
				Measured: measured, Goal: "–"})
		}
		// The first round asks the latency scenario's questions: the two compare.
		if len(h.Rounds) == 0 || h.Rounds[0].Keyword.N == 0 {
			continue
		}
		kw := h.Rounds[0].Keyword
		for _, l := range r.Latency {
			if l.Shape == ShapeMixed && l.KBSize == h.KBSize {
				out = append(out, GoalLine{What: fmt.Sprintf("no provider configured: keyword-only p99 with the vectors stored, %s",
					shapeLabel(ShapeMixed, h.KBSize)),
					Measured: fmt.Sprintf("%.1f ms (p50 %.1f); the plain KB (latency, the same questions): %.1f ms (p50 %.1f)",
						kw.P99, kw.P50, l.AI.P99, l.AI.P50),
					Goal: "nothing measurable changes"})
			}
		}
	}
	return out
}

// cpuShare writes the share by server CPU time a request, when it was measured.
func cpuShare(share, service, bare float64) string {
	if share <= 0 {
		return ""
	}
	return fmt.Sprintf("; by server CPU %.1f%% (%.0f vs %.0f µs a request)", 100*share, service, bare)
}

// shapeLabel describes a KB of the latency scenario: "KB of 10,000 chunks" for the mixed
// shape (the three languages in one account), "10,000 chunks in each language's account (3
// accounts)" for the languages shape.
func shapeLabel(shape string, size int) string {
	if shape == ShapeLanguages {
		return fmt.Sprintf("%s chunks in each language's account (%d accounts)", thousands(size), len(langs))
	}
	return fmt.Sprintf("KB of %s chunks", thousands(size))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// chunksLabel writes a KB size as the issue does: 1k, 10k, 50k, or the number.
func chunksLabel(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return thousands(n)
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// WriteMarkdown writes the report as issue 14's table with a pass mark per goal, the machine
// and the command line.
func WriteMarkdown(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "`svc bench` %s on %s (%d CPUs, GOMAXPROCS %d), %s\n\n", r.Started, r.Machine.CPU,
		r.Machine.NumCPU, r.Machine.GOMAXPROCS, svcVersionLabel(r.Machine.SVC))
	b.WriteString("| what | measured | goal | |\n|---|---|---|---|\n")
	for _, g := range r.Goals {
		mark := "–"
		if g.Pass != nil {
			mark = "FAIL"
			if *g.Pass {
				mark = "pass"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(g.What), cell(g.Measured), cell(g.Goal), mark)
	}
	fmt.Fprintf(&b, "\nCommand: `%s` (%.0f s)\n", r.Command, r.Seconds)
	for _, k := range r.KBs {
		how := fmt.Sprintf("built in this run, import %.0f s, peak RSS %.0f MB", k.ImportSeconds, k.ImportPeakMB)
		if k.Reused {
			how = "reused from the work folder"
		}
		name := chunksLabel(k.Size)
		if k.Shape == ShapeLanguages {
			name += fmt.Sprintf(" in each language's account (%d accounts)", k.Accounts)
		}
		fmt.Fprintf(&b, "\nKB %s: %s chunks, %s pages (%s synthesized), %s.", name, thousands(k.Chunks),
			thousands(k.Pages), thousands(k.Synthesized), how)
	}
	if len(r.KBs) > 0 {
		b.WriteString("\n")
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "\nError: %s\n", e)
	}
	for _, e := range r.Warnings {
		fmt.Fprintf(&b, "\nWarning: %s\n", e)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell keeps a table cell on one line and its pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}
