package users

// Metrics is what the users service reports to the service's metrics.
type Metrics interface {
	// SignInFailed counts a refused sign-in: "bad_credentials" or "throttled".
	SignInFailed(reason string)
}

func (s *Service) signInFailed(reason string) {
	if s.metrics != nil {
		s.metrics.SignInFailed(reason)
	}
}
