package outbound

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The kinds of peer a call is made to: the label that tells their calls apart. RSA and override
// series appear once those clients exist and observe their calls here.
const (
	KindGateway   = "gateway"
	KindConnector = "connector"
	KindRSA       = "rsa"
	KindOverride  = "override"
)

// The outcomes of a call, from what came back: an answer by its status class, or no answer.
const (
	OutcomeSuccess         = "success"          // a 2xx
	OutcomeClientError     = "client_error"     // a 4xx: the peer refused the call
	OutcomeServerError     = "server_error"     // any other status (5xx, 3xx): the outcome is the peer's to tell
	OutcomeTimeout         = "timeout"          // no answer in time
	OutcomeConnectionError = "connection_error" // no answer: the connection failed or broke
	OutcomeNotSent         = "not_sent"         // the policy refused the address
)

// CallMetrics counts and times the calls made to configured URLs, every kind of peer in one
// pair of families, so that a dashboard shows them side by side. Its labels are bounded: kind,
// the protocol's name of the call (never a URL or a path, which carry ids), and the outcome.
// A nil *CallMetrics records nothing (clients built without metrics, in tests).
type CallMetrics struct {
	calls   *prometheus.CounterVec
	seconds *prometheus.HistogramVec
}

// NewCallMetrics registers the call metrics in reg.
func NewCallMetrics(reg prometheus.Registerer) *CallMetrics {
	m := &CallMetrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_outbound_calls_total",
			Help: "Calls made to configured peers, by kind (gateway, connector, rsa, override), call (the protocol's operation) and outcome (success, client_error, server_error, timeout, connection_error, not_sent).",
		}, []string{"kind", "call", "outcome"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "checkoutd_outbound_call_duration_seconds",
			Help:    "Time from sending a call to a configured peer to its answer read (or to giving up), by kind and call.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"kind", "call"}),
	}
	reg.MustRegister(m.calls, m.seconds)
	return m
}

// Observe records one call of kind named call, begun at began: res is its answer (its body
// read), err why there is none. A call whose request could not be built is not one.
func (m *CallMetrics) Observe(kind, call string, began time.Time, res *http.Response, err error) {
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	m.ObserveStatus(kind, call, began, status, err)
}

// ObserveStatus is Observe for a client whose answer is not an *http.Response: status is the
// answer's status code.
func (m *CallMetrics) ObserveStatus(kind, call string, began time.Time, status int, err error) {
	if m == nil {
		return
	}
	m.calls.WithLabelValues(kind, call, outcome(status, err)).Inc()
	m.seconds.WithLabelValues(kind, call).Observe(time.Since(began).Seconds())
}

// Outcome names what a call came to: its answer's status class, or why there was none.
func Outcome(res *http.Response, err error) string {
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	return outcome(status, err)
}

func outcome(status int, err error) string {
	if err != nil {
		if _, ok := AsRefused(err); ok {
			return OutcomeNotSent
		}
		var t interface{ Timeout() bool }
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &t) && t.Timeout() {
			return OutcomeTimeout
		}
		return OutcomeConnectionError
	}
	switch {
	case status >= 200 && status < 300:
		return OutcomeSuccess
	case status >= 400 && status < 500:
		return OutcomeClientError
	}
	return OutcomeServerError
}
