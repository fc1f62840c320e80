package sqlstore

import "strconv"

// TokenPrefix is an account's prefix of its full-text tokens in both stores ("a17_"): every
// term is indexed as a token of its account, so a term's index entry lists that account's
// chunks only.
func TokenPrefix(accountID int64) string { return "a" + strconv.FormatInt(accountID, 10) + "_" }
