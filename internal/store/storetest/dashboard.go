package storetest

// dashboardTests are the conformance tests of store.Dashboard.
func dashboardTests() []suiteTest { return nil }

// dashboardClockedTests are the conformance tests of store.Dashboard that move the clock.
func dashboardClockedTests() []clockedTest { return nil }
