package rest

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// HTTPMetrics count and time the requests served, by route pattern, method and status. A
// request is labelled by the pattern the router matched (r.Pattern), never by its path, which
// carries shops and order ids without bound; one no route matched, or refused before routing,
// is the catch-all "/".
//
// The series of a pattern, method and status are looked up once and kept: a request after that
// costs a read-locked map lookup and two atomic adds, and allocates nothing.
type HTTPMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec

	mu     sync.RWMutex
	routes map[routeKey]*routeSeries
}

type routeKey struct{ pattern, method string }

// routeSeries are the series of one pattern and method: its duration, and its count by status
// (a copy-on-write list: a route answers few statuses, and a new one is rare).
type routeSeries struct {
	duration prometheus.Observer
	statuses atomic.Pointer[[]statusCounter]
	mu       sync.Mutex
}

type statusCounter struct {
	status int
	count  prometheus.Counter
}

// NewHTTPMetrics registers the request metrics in reg.
func NewHTTPMetrics(reg prometheus.Registerer) *HTTPMetrics {
	m := &HTTPMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"pattern", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "checkoutd_http_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer's end, by route pattern and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"pattern", "method"}),
		routes: map[routeKey]*routeSeries{},
	}
	m.requests = register(reg, m.requests)
	m.duration = register(reg, m.duration)
	return m
}

// register registers c in reg, or answers the collector registered before it (a second handler
// on one service counts in the same series).
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		are, ok := err.(prometheus.AlreadyRegisteredError)
		if !ok {
			panic(err)
		}
		return are.ExistingCollector.(C)
	}
	return c
}

// observe records one request. A nil *HTTPMetrics records nothing.
func (m *HTTPMetrics) observe(pattern, method string, status int, took time.Duration) {
	if m == nil {
		return
	}
	if pattern == "" {
		pattern = "/"
	}
	key := routeKey{pattern, knownMethod(method)}
	m.mu.RLock()
	rs := m.routes[key]
	m.mu.RUnlock()
	if rs == nil {
		rs = m.route(key)
	}
	rs.duration.Observe(took.Seconds())
	rs.counter(m, key, status).Inc()
}

func (m *HTTPMetrics) route(key routeKey) *routeSeries {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rs := m.routes[key]; rs != nil {
		return rs
	}
	rs := &routeSeries{duration: m.duration.WithLabelValues(key.pattern, key.method)}
	rs.statuses.Store(&[]statusCounter{})
	m.routes[key] = rs
	return rs
}

func (rs *routeSeries) counter(m *HTTPMetrics, key routeKey, status int) prometheus.Counter {
	for _, sc := range *rs.statuses.Load() {
		if sc.status == status {
			return sc.count
		}
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	old := *rs.statuses.Load()
	for _, sc := range old {
		if sc.status == status {
			return sc.count
		}
	}
	c := m.requests.WithLabelValues(key.pattern, key.method, strconv.Itoa(status))
	next := append(append(make([]statusCounter, 0, len(old)+1), old...), statusCounter{status, c})
	rs.statuses.Store(&next)
	return c
}

// knownMethod is method when it is one of HTTP's, "other" when not: a client chooses the
// method, and a label must not take any value it sends.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}
