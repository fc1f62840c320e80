package engine

import (
	"strconv"
	"strings"
)

// EvidenceDoc returns the document an evidence name (Answer.Evidence, "docID:hash") points
// to: the one the engine would quote. ok is false for "" or a malformed name.
func EvidenceDoc(evidence string) (id int64, ok bool) {
	head, _, found := strings.Cut(evidence, ":")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(head, 10, 64)
	return id, err == nil && id > 0
}
