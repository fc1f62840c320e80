package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable prints reports as an aligned text table, one language (and half) a row, for the
// `svc eval xquad` command.
func WriteTable(w io.Writer, reports []LangReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lang\thalf\tquestions\ttop-1\ttop-5\tanswer in reply\tmean reply chars\tmax reply chars\tfallbacks\t")
	for _, r := range reports {
		half := r.Half
		if half == "" {
			half = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%.1f%%\t%.1f%%\t%.0f\t%d\t%d\t\n", r.Lang, half, r.Questions,
			100*r.Top1, 100*r.Top5, 100*r.AnswerInReply, r.MeanReplyChars, r.MaxReplyChars, r.Fallbacks)
	}
	return tw.Flush()
}

// WriteSiteTable prints a site report as a table, one language a row followed by its two
// halves, then its misses (or every reply, when the report holds them), for `svc eval site`'s
// stderr and the tests' logs. "answered" is the answerable questions answered right out of
// all answerable ones, "wrong" those of them answered wrongly rather than with the fallback,
// "declined" the unanswerable questions that got the fallback out of all unanswerable ones.
func WriteSiteTable(w io.Writer, r SiteReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lang\thalf\tquestions\thits\thit rate\tanswered\twrong\tdeclined\tdecline rate\tfallbacks\tstray cards\tmean reply chars\t")
	row := func(l SiteLangReport) {
		half := l.Half
		if half == "" {
			half = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t%d/%d\t%d\t%d/%d\t%s\t%d\t%d\t%.0f\t\n", l.Lang, half, l.Questions, l.Hits,
			100*l.HitRate, l.AnswerableHits, l.Answerable, l.AnsweredWrong, l.Declines, l.Unanswerable, percent(l.Declines, l.Unanswerable),
			l.Fallbacks, l.StrayCards, l.MeanReplyChars)
	}
	for _, l := range r.Langs {
		row(l)
		for _, h := range r.Halves {
			if h.Lang == l.Lang {
				row(h)
			}
		}
	}
	fmt.Fprintf(tw, "all\t\t%d\t%d\t%.1f%%\t\t\t\t\t\t\t\t\n", r.Questions, r.Hits, 100*r.HitRate)
	if err := tw.Flush(); err != nil {
		return err
	}
	list := r.Misses
	if r.Replies != nil {
		list = r.Replies
	}
	for _, m := range list {
		if len(m.Why) == 0 {
			fmt.Fprintf(w, "HIT  line %d [%s] %s\n", m.Line, m.Lang, m.Question)
		} else {
			fmt.Fprintf(w, "MISS line %d [%s] %s\n  why:   %s\n", m.Line, m.Lang, m.Question, strings.Join(m.Why, "; "))
		}
		if m.Decline {
			fmt.Fprintf(w, "  want:  the fallback\n")
		}
		if m.Expect != "" {
			fmt.Fprintf(w, "  want:  /%s/\n", m.Expect)
		}
		if m.Product != "" {
			fmt.Fprintf(w, "  card:  %s\n", m.Product)
		}
		fmt.Fprintf(w, "  got:   [%s %s] %s\n", m.ReplyLang, m.Source, strings.ReplaceAll(m.Reply, "\n", " ⏎ "))
		if len(m.Cards) > 0 {
			fmt.Fprintf(w, "  cards: %s\n", strings.Join(m.Cards, " | "))
		}
	}
	return nil
}

// percent prints n/d as a percentage, or "-" when there is nothing to divide.
func percent(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}
