package engine

import (
	"strings"
	"testing"
)

// An FAQ answer longer than a chunk is stored as two: the second repeats the question's words
// more often and ranks first, the first holds the answer. The whole entry is read as one text:
// the quote starts where the answer does, not in the chunk that ranked best.
func TestSectionReadWhole(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{MinAnswerability: -1}, [3]string{"FAQ", "# FAQ\n\n" +
		"## Who created Lumen?\n\n" +
		"Lumen is the first working form of an idea called the open ledger, which was first described in 2011 by Vera Lind on the Cypherlist mailing list of the Open Ledger Group. " +
		"It proposed a new kind of money that uses cryptography, not a central authority, to control how the money is made and moved. " +
		"The first Lumen specification and a working prototype were published in 2015 by Ada Marsh. " +
		"The community has grown a great deal since then.\n\n" +
		"The anonymity of Lumen's creator often raised concerns, many of which come from misunderstanding how open Lumen really is. " +
		"The Lumen protocol and the Lumen software are published openly, and any developer around the world can review the Lumen code. " +
		"Like the Lumen developers of today, the creator could only ever change Lumen where its users adopted the change. " +
		"So who created Lumen matters about as much today as who created paper.\n\n" +
		"## Is Lumen free?\n\nYes. Lumen costs nothing to use.", "en"})
	a := ask(t, e, acct, "en", "Who created Lumen?")
	if !strings.Contains(a.Text, "by Ada Marsh") {
		t.Errorf("quote lacks the answer in the entry's first chunk:\n%s", a.Text)
	}
}
