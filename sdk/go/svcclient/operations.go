package svcclient

import "slices"

// Operation is one action of the API: its method and its name under /api/v1/ ("chat/send",
// "intelligence/answer", "kb/documentUpload").
type Operation struct {
	Method string
	Name   string
}

// Path is the operation's URL path.
func (o Operation) Path() string { return "/api/v1/" + o.Name }

// operations is every action this package calls, in the order of the API's documentation.
// Each method of Client finds its method and path here, so this table is exactly what the
// package can call; the repository's drift test holds it against the OpenAPI document.
var operations = []Operation{
	{"GET", "chat/start"},
	{"POST", "chat/send"},
	{"GET", "chat/suggestions"},
	{"GET", "chat/sync"},
	{"POST", "chat/feedback"},
	{"GET", "chat/apiKey"},
	{"GET", "chat/usageSummary"},
	{"GET", "chat/getTone"},
	{"GET", "chat/embedTokens"},
	{"POST", "chat/embedTokenCreate"},
	{"POST", "chat/embedTokenUpdate"},
	{"POST", "chat/embedTokenRevoke"},
	{"POST", "chat/marketingGenerate"},
	{"POST", "intelligence/answer"},
	{"POST", "intelligence/summarize"},
	{"POST", "intelligence/compare"},
	{"POST", "intelligence/extract"},
	{"POST", "intelligence/data"},
	{"GET", "kb/documents"},
	{"POST", "kb/documentUpload"},
	{"POST", "kb/documentDelete"},
	{"POST", "kb/qaCreate"},
	{"POST", "kb/qaUpdate"},
	{"POST", "kb/qaDelete"},
	{"POST", "kb/productsUpsert"},
	{"POST", "kb/import"},
	{"POST", "kb/crawlStart"},
	{"GET", "kb/crawlStatus"},
}

// Operations returns every operation the client calls.
func Operations() []Operation { return slices.Clone(operations) }

// lookup finds an operation by name; ok is false for a name the table does not hold.
func lookup(name string) (Operation, bool) {
	i := slices.IndexFunc(operations, func(o Operation) bool { return o.Name == name })
	if i < 0 {
		return Operation{}, false
	}
	return operations[i], true
}
