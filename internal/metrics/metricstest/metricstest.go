// Package metricstest scrapes a /metrics endpoint over HTTP, the way Prometheus does, and
// reads the series the tests assert on.
package metricstest

import (
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are the metric families of one scrape, by name.
type Families map[string]*dto.MetricFamily

// Scrape GETs url with the bearer token (none when empty), fails the test unless it answers
// 200 in the text format, and parses the body.
func Scrape(t testing.TB, client *http.Client, url, token string) Families {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	// Ask for the plain text format, as a scraper without protobuf support does.
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: status %d", url, resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	return fams
}

// Value is the value of the series of name whose labels include every one of labels
// (a counter's or gauge's value, a histogram's sample count), summed over the series that
// match; ok is false when none does.
func (f Families) Value(name string, labels map[string]string) (v float64, ok bool) {
	fam := f[name]
	if fam == nil {
		return 0, false
	}
	for _, m := range fam.GetMetric() {
		if !matches(m, labels) {
			continue
		}
		ok = true
		switch {
		case m.GetCounter() != nil:
			v += m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			v += m.GetGauge().GetValue()
		case m.GetHistogram() != nil:
			v += float64(m.GetHistogram().GetSampleCount())
		case m.GetUntyped() != nil:
			v += m.GetUntyped().GetValue()
		}
	}
	return v, ok
}

// LabelValues lists the values label takes over the series of name.
func (f Families) LabelValues(name, label string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range f[name].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == label && !seen[l.GetValue()] {
				seen[l.GetValue()] = true
				out = append(out, l.GetValue())
			}
		}
	}
	return out
}

func matches(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(want)
}
