package eval

import (
	"fmt"
	"io"
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
