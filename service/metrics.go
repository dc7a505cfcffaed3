package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// registerProcessMetrics adds the Go runtime's and the process's figures to the platform's
// registry, beside the domains' own (one registry per Service, so that tests may run many).
func (s *Service) registerProcessMetrics() {
	s.p.Metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}

// Metrics is what /metrics serves.
func (s *Service) Metrics() prometheus.Gatherer { return s.p.Metrics }

// MetricsRegisterer is where the front doors register their own metrics, beside the service's.
func (s *Service) MetricsRegisterer() prometheus.Registerer { return s.p.Metrics }
