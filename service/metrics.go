package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the checkout metrics, in the platform's registry (one per Service, so
// that tests may run many).
type metrics struct {
	// processCompletions counts process_order's last transactions by path: "reserved" on the rows
	// as its reservation left them, "locked" on rows read again because one moved on.
	processCompletions *prometheus.CounterVec
}

func newMetrics(s *Service) *metrics {
	m := &metrics{
		processCompletions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_process_completions_total",
			Help: "process_order's last transactions (every payment authorized), by path: reserved (conditional updates of the rows as the order's reservation left them) or locked (the rows locked and read again, one having moved on).",
		}, []string{"path"}),
	}
	s.p.Metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.processCompletions)
	return m
}

// Metrics is what /metrics serves.
func (s *Service) Metrics() prometheus.Gatherer { return s.p.Metrics }
