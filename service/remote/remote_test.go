package remote_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/remote"
)

var secret = []byte("remote-secret")

// server is a remote that checks every call's signature and answers status (a 401 when the
// signature is wrong), after delay.
type server struct {
	*httptest.Server
	calls  atomic.Int32
	status atomic.Int32
	delay  atomic.Int64
}

// newServer starts the server, configured by each of configure first.
func newServer(t *testing.T, configure ...func(*http.Server)) *server {
	s := &server{}
	s.status.Store(http.StatusOK)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		if err := hmacsig.Verify(r.Header, secret, time.Now()); err != nil || r.Header.Get("User-Agent") != remote.UserAgent {
			http.Error(w, `{"error":"bad signature"}`, http.StatusUnauthorized)
			return
		}
		if d := time.Duration(s.delay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(s.status.Load()))
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	for _, c := range configure {
		c(s.Config)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func call(c *remote.Client, s *server, timeout time.Duration) (*remote.Answer, remote.Exchange, error) {
	return c.Do(context.Background(), remote.Request{Remote: "override:1", URL: s.URL + "/tax", Secret: secret, Timeout: timeout,
		Body: map[string]any{"order": "o-1"}})
}

func outcomeOf(err error) remote.Outcome {
	var re *remote.Error
	if errors.As(err, &re) {
		return re.Outcome
	}
	return ""
}

func TestACallIsSignedWithTheRemotesSharedSecret(t *testing.T) {
	s := newServer(t)
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now)
	a, ex, err := call(c, s, 0)
	if err != nil || a.Status != 200 || string(a.Body) != `{"ok":true}` {
		t.Fatalf("answer %+v, %v", a, err)
	}
	if ex.Outcome != remote.Answered || string(ex.Request) != `{"order":"o-1"}` || ex.Status != 200 || ex.Latency <= 0 {
		t.Fatalf("exchange %+v", ex)
	}
}

func TestA4xxIsTheRemotesAnswerAndDoesNotCountAgainstIt(t *testing.T) {
	s := newServer(t)
	s.status.Store(http.StatusBadRequest)
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now)
	for range remote.TripAfter + 2 {
		a, ex, err := call(c, s, 0)
		if err != nil || a.Status != 400 || ex.Outcome != remote.Refused {
			t.Fatalf("answer %+v, exchange %+v, %v", a, ex, err)
		}
	}
	if n := s.calls.Load(); n != remote.TripAfter+2 {
		t.Fatalf("%d calls reached the remote", n)
	}
}

func TestACallWaitsNoLongerThanTheRemotesTimeout(t *testing.T) {
	s := newServer(t)
	s.delay.Store(int64(5 * time.Second))
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now)
	start := time.Now()
	_, ex, err := call(c, s, 100*time.Millisecond)
	if outcomeOf(err) != remote.TimedOut || ex.Outcome != remote.TimedOut {
		t.Fatalf("%v, exchange %+v", err, ex)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the call took %s", took)
	}
}

func TestTimeoutsDefaultToTwoSecondsAndAreAtMostTen(t *testing.T) {
	if remote.Timeout(0) != 2*time.Second || remote.Timeout(20*time.Second) != 10*time.Second || remote.Timeout(time.Second) != time.Second {
		t.Fatal(remote.Timeout(0), remote.Timeout(20*time.Second), remote.Timeout(time.Second))
	}
}

func TestFiveFailuresInARowOpenTheCircuitUntilATrialCallAfterTheCoolDown(t *testing.T) {
	s := newServer(t)
	s.status.Store(http.StatusServiceUnavailable)
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now, remote.WithCoolDown(300*time.Millisecond))
	for i := range remote.TripAfter {
		if _, ex, err := call(c, s, 0); outcomeOf(err) != remote.Failed || ex.Status != 503 {
			t.Fatalf("call %d: %v, exchange %+v", i, err, ex)
		}
	}
	// Open: answered at once, the remote not called.
	_, ex, err := call(c, s, 0)
	if outcomeOf(err) != remote.CircuitOpen || ex.Outcome != remote.CircuitOpen {
		t.Fatalf("%v, exchange %+v", err, ex)
	}
	if n := s.calls.Load(); n != remote.TripAfter {
		t.Fatalf("%d calls reached the remote, want %d", n, remote.TripAfter)
	}
	// After the cool-down one trial call goes; the remote is back, so the circuit closes.
	s.status.Store(http.StatusOK)
	time.Sleep(400 * time.Millisecond)
	for range 3 {
		if _, _, err := call(c, s, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.calls.Load(); n != remote.TripAfter+3 {
		t.Fatalf("%d calls reached the remote", n)
	}
}

func TestAFailedTrialCallOpensTheCircuitAgain(t *testing.T) {
	s := newServer(t)
	s.status.Store(http.StatusBadGateway)
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now, remote.WithCoolDown(200*time.Millisecond))
	for range remote.TripAfter {
		_, _, _ = call(c, s, 0)
	}
	time.Sleep(250 * time.Millisecond)
	if _, _, err := call(c, s, 0); outcomeOf(err) != remote.Failed {
		t.Fatalf("trial: %v", err)
	}
	if _, _, err := call(c, s, 0); outcomeOf(err) != remote.CircuitOpen {
		t.Fatalf("after a failed trial: %v", err)
	}
}

func TestAnAddressTheGuardRefusesIsNotSentAndSaysNothingOfTheRemotesHealth(t *testing.T) {
	s := newServer(t)
	c := remote.New(outbound.Policy{}, time.Now)
	for range remote.TripAfter + 2 {
		if _, ex, err := call(c, s, 0); outcomeOf(err) != remote.NotSent || ex.Outcome != remote.NotSent {
			t.Fatalf("%v, exchange %+v", err, ex)
		}
	}
	if n := s.calls.Load(); n != 0 {
		t.Fatalf("%d calls reached a loopback remote", n)
	}
}

func TestEachRemoteHasItsOwnCircuit(t *testing.T) {
	down, up := newServer(t), newServer(t)
	down.status.Store(http.StatusInternalServerError)
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now)
	for range remote.TripAfter + 1 {
		_, _, _ = c.Do(context.Background(), remote.Request{Remote: "override:down", URL: down.URL, Secret: secret, Body: map[string]any{}})
	}
	if _, _, err := c.Do(context.Background(), remote.Request{Remote: "override:up", URL: up.URL, Secret: secret, Body: map[string]any{}}); err != nil {
		t.Fatalf("a healthy remote was refused with another's circuit: %v", err)
	}
}

type recorded struct{ got []remote.Exchange }

func (r *recorded) Record(_ context.Context, ex remote.Exchange) { r.got = append(r.got, ex) }

func TestEveryCallIsHandedToTheRecorderWithWhoseItWas(t *testing.T) {
	s := newServer(t)
	rec := &recorded{}
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now, remote.WithRecorder(rec))
	_, _, err := c.Do(context.Background(), remote.Request{Remote: "override:1", Kind: remote.KindOverride, Call: "tax", ShopID: 7,
		PublicOrderID: "o-1", URL: s.URL + "/tax", Secret: secret, Body: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.got) != 1 || rec.got[0].Kind != remote.KindOverride || rec.got[0].Call != "tax" || rec.got[0].ShopID != 7 ||
		rec.got[0].PublicOrderID != "o-1" || rec.got[0].Outcome != remote.Answered {
		t.Fatalf("recorded %+v", rec.got)
	}
}

func TestACallOnAConnectionTheRemoteClosedWhileIdleIsSentOnANewOne(t *testing.T) {
	s := newServer(t, func(srv *http.Server) { srv.IdleTimeout = 50 * time.Millisecond })
	c := remote.New(outbound.Policy{AllowPrivate: true}, time.Now)
	for i := range 3 {
		if i > 0 {
			time.Sleep(200 * time.Millisecond) // the remote closes the idle connection meanwhile
		}
		if a, _, err := call(c, s, time.Second); err != nil || a.Status != http.StatusOK {
			t.Fatalf("call %d: %v %v, want 200", i+1, a, err)
		}
	}
	if n := s.calls.Load(); n != 3 {
		t.Fatalf("the remote answered %d calls, want 3", n)
	}
}
