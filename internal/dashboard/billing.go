package dashboard

// billingStore is what the billing pages read and change.
type billingStore interface{}

func (s *Server) billingRoutes(rt router) {}
