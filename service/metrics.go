package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the order and checkout metrics, in the platform's registry (one per Service, so
// that tests may run many).
type metrics struct {
	// fieldChanges counts changes of an order's own row by how they were written: "kept" in one
	// conditional statement on the order this process kept, "locked" in a transaction.
	fieldChanges *prometheus.CounterVec
	// processCompletions counts process_order's last transactions by path: "reserved" on the rows
	// as its reservation left them, "locked" on rows read again because one moved on.
	processCompletions *prometheus.CounterVec
}

func newMetrics(s *Service) *metrics {
	m := &metrics{
		fieldChanges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_field_changes_total",
			Help: "Changes of an order's own row (customer, addresses, shipping line, taxes, discount codes), by path: kept (one statement on the order this process kept, still current) or locked (a transaction on the locked row).",
		}, []string{"path"}),
		processCompletions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_process_completions_total",
			Help: "process_order's last transactions (every payment authorized), by path: reserved (conditional updates of the rows as the order's reservation left them) or locked (the rows locked and read again, one having moved on).",
		}, []string{"path"}),
	}
	s.p.Metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.fieldChanges, m.processCompletions)
	return m
}

// Metrics is what /metrics serves.
func (s *Service) Metrics() prometheus.Gatherer { return s.p.Metrics }
