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

// A question heading whose answer is told in the subsections under it, its own text a label
// ("Beginning"): the subsections are part of its section and answer it.
func TestSectionSubsections(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{MinAnswerability: -1}, [3]string{"About us", "# About us\n\n" +
		"We write free guides to the Lumen network.\n\n" +
		"## Who owns lumen.org?\n\nBeginning\n\n" +
		"### Ada Marsh and Bo Lind\n\nThe site was registered in 2015 by the first two developers, Ada Marsh and Bo Lind. " +
		"They later passed the domain to more people to share the duty.\n\n" +
		"### Today\n\nThe site is an open project run by volunteers from many countries.\n\n" +
		"## Who controls Lumen?\n\nLumen is controlled by all of its users.", "en"})
	a := ask(t, e, acct, "en", "Who actually owns lumen.org?")
	if !strings.Contains(a.Text, "Ada Marsh and Bo Lind.") {
		t.Errorf("quote lacks the subsection that answers:\n%s", a.Text)
	}
}
