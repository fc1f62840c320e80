package dashboard

// widgetStore is what the widget pages read and change.
type widgetStore interface{}

func (s *Server) widgetRoutes(rt router) {}
