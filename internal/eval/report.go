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

// WriteSiteTable prints a site report's hit rates, one language a row, then its misses (or
// every reply, when the report holds them), for `svc eval site`'s stderr and the tests' logs.
func WriteSiteTable(w io.Writer, r SiteReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lang\tquestions\thits\thit rate\tfallbacks\tstray cards\tmean reply chars\t")
	for _, l := range r.Langs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%d\t%d\t%.0f\t\n", l.Lang, l.Questions, l.Hits, 100*l.HitRate,
			l.Fallbacks, l.StrayCards, l.MeanReplyChars)
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%.1f%%\t\t\t\t\n", r.Questions, r.Hits, 100*r.HitRate)
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
