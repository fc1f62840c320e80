package dashboard

// Store is every store method the dashboard uses: exactly what the pages declare. The team
// page reads nothing of the store directly (users.Service owns the users).
type Store interface {
	profileStore
	overviewStore
	conversationsStore
	visitorDataStore
	reviewStore
	testsStore
	kbStore
	assistantStore
	widgetStore
	developerStore
	billingStore
	studioStore
}
