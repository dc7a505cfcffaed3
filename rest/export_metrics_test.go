package rest

import "time"

// ObserveRequest records one request in m as CommonMeasured does.
func ObserveRequest(m *HTTPMetrics, pattern, method string, status int) {
	m.observe(pattern, method, status, time.Millisecond)
}
