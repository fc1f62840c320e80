package dashboard

import (
	"context"

	"svc/internal/testsets"
)

// The test set's regression as the overview and the tests page show it
// (templates/partials/tests_overview.html): "N tests broke after the crawl of <time>", the
// questions that broke and a link to the run. Kept apart from overview.go, which only calls
// overviewTests and holds its result.

// regressionShown is how many broken questions the notice lists; the run's page has them
// all.
const regressionShown = 5

// testsRegression is a regression as the notice shows it.
type testsRegression struct {
	testsets.Regression
	Shown []testsets.Change // the first regressionShown broken tests
	More  int               // how many more broke
}

// regressionView is reg as the notice shows it; nil for none.
func regressionView(reg *testsets.Regression) *testsRegression {
	if reg == nil {
		return nil
	}
	n := min(len(reg.Broken), regressionShown)
	return &testsRegression{Regression: *reg, Shown: reg.Broken[:n], More: len(reg.Broken) - n}
}

// overviewTests reads the account's regression that still stands: the latest run that passed
// fewer tests than the one before, while no completed run has followed it. A regression that
// a later run has left behind is no news (the tests page lists the runs). nil when there is
// none.
func (s *Server) overviewTests(ctx context.Context, accountID int64) (*testsRegression, error) {
	reg, ok, err := s.d.Tests.LatestRegression(ctx, accountID)
	if err != nil || !ok || !reg.Current {
		return nil, err
	}
	return regressionView(&reg), nil
}
