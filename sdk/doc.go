// Package sdk holds the repository's checks of the three client libraries beneath it
// (go/svcclient, typescript, python): that each covers every operation of the OpenAPI
// document (drift_test.go), that each works against a real `svc serve` and that their
// quickstarts print what DECISIONS.md says (live_test.go), and that the committed
// TypeScript build is what its sources compile to (typescript_test.go). It has no code of
// its own; the libraries import nothing of svc.
package sdk
