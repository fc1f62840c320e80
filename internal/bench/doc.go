// Package bench is `svc bench`: the reproducible speed and memory measurements of issue 14.
//
// Everything runs against real processes of one svc binary, so that the figures are what an
// operator would see: the knowledge bases are imported with `svc kb import`, the service is a
// `svc serve` child, and the reference it is compared with (a bare net/http handler that
// parses a form and writes a JSON envelope) is a `svc bench reference` child of the same
// binary, under the same conditions. The load generator runs in the bench process.
//
// The knowledge bases are built from the public XQuAD dev files: every paragraph of the three
// languages is a page (so that the XQuAD questions are answerable), and synthesized pages,
// deterministic recombinations of same-language sentences, bring the KB to the asked number
// of chunks. A KB is built once per size (and kbVersion) into a template data
// directory; every scenario runs on a fresh copy of it, so that no answer cache or
// conversation of one scenario (or of an earlier run) leaks into another.
package bench
