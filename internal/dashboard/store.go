package dashboard

import "svc/internal/store"

// Store is every store method the dashboard uses, gathered from what each page declares.
type Store interface {
	store.Dashboard
	profileStore
	overviewStore
	conversationsStore
	reviewStore
	kbStore
	assistantStore
	widgetStore
	developerStore
	billingStore
	studioStore
	teamStore
}
