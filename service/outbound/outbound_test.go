package outbound

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// refusedForms are the spellings of internal addresses a hostile admin tried, with the reason
// each is refused and whether CHECKOUT_OUTBOUND_ALLOW_PRIVATE lifts it.
var refusedForms = []struct {
	url          string
	reason       string
	allowPrivate bool // allowed when private addresses are
}{
	{"http://169.254.169.254/latest/meta-data/", ReasonMetadata, false},
	{"http://2852039166/", ReasonMetadata, false},
	{"http://0xA9FEA9FE/", ReasonMetadata, false},
	{"http://0xa9.0xfe.0xa9.0xfe/", ReasonMetadata, false},
	{"http://0251.0376.0251.0376/", ReasonMetadata, false},
	{"http://169.254.43518/", ReasonMetadata, false},
	{"http://[::ffff:a9fe:a9fe]/", ReasonMetadata, false},
	{"http://[::ffff:169.254.169.254]/", ReasonMetadata, false},
	{"http://[64:ff9b::a9fe:a9fe]/", ReasonMetadata, false},
	{"http://[2002:a9fe:a9fe::1]/", ReasonMetadata, false},
	{"http://[fe80::1%25eth0]/", ReasonMetadata, false},
	{"http://[fd00:ec2::254]/", ReasonMetadata, false},
	{"http://100.100.100.200/", ReasonMetadata, false},
	{"http://metadata.google.internal/computeMetadata/v1/", ReasonMetadata, false},
	{"http://METADATA.Google.Internal./", ReasonMetadata, false},
	{"http://metadata/", ReasonMetadata, false},
	{"http://10.0.0.1/", ReasonPrivate, true},
	{"http://172.16.5.4/", ReasonPrivate, true},
	{"http://192.168.0.1/", ReasonPrivate, true},
	{"http://100.64.0.1/", ReasonPrivate, true},
	{"http://127.0.0.1:8080/", ReasonPrivate, true},
	{"http://2130706433/", ReasonPrivate, true},
	{"http://localhost/", ReasonPrivate, true},
	{"http://api.localhost/", ReasonPrivate, true},
	{"http://db.internal/", ReasonPrivate, true},
	{"http://[::1]/", ReasonPrivate, true},
	{"http://[::ffff:10.0.0.1]/", ReasonPrivate, true},
	{"http://0.0.0.0/", ReasonPrivate, true},
	{"http://0/", ReasonPrivate, true},
	{"http://[::]/", ReasonPrivate, true},
	{"http://[fc00::1]/", ReasonPrivate, true},
	{"http://224.0.0.1/", ReasonPrivate, true},
	{"http://255.255.255.255/", ReasonPrivate, true},
	{"http://240.0.0.1/", ReasonPrivate, true},
	{"http://192.0.2.10/", ReasonPrivate, true},
	{"http://user:pass@10.0.0.1/", ReasonUserinfo, false},
	{"https://user@pay.example.com/", ReasonUserinfo, false},
	{"ftp://pay.example.com/", ReasonScheme, false},
	{"file:///etc/passwd", ReasonScheme, false},
	{"gopher://127.0.0.1:6379/_INFO", ReasonScheme, false},
	{"http://999.1.1.1/", ReasonHost, false},
	{"http://1.2.3.4.5/", ReasonHost, false},
}

func TestInternalAddressesAreRefusedInEverySpelling(t *testing.T) {
	for _, f := range refusedForms {
		err := Policy{}.CheckURL(f.url)
		r, ok := AsRefused(err)
		if !ok || r.Reason != f.reason {
			t.Errorf("%s: %v, want refused because it %s", f.url, err, f.reason)
		}
	}
}

func TestAllowPrivateLiftsOnlyThePrivateRefusals(t *testing.T) {
	for _, f := range refusedForms {
		err := Policy{AllowPrivate: true}.CheckURL(f.url)
		if f.allowPrivate && err != nil {
			t.Errorf("%s refused with private addresses allowed: %v", f.url, err)
		}
		if !f.allowPrivate && err == nil {
			t.Errorf("%s allowed with private addresses allowed; it is refused always", f.url)
		}
	}
}

func TestPublicURLsAreAllowed(t *testing.T) {
	for _, u := range []string{"https://pay.example.com/epg", "http://93.184.215.14:8443/x", "https://[2606:4700::1]/hooks",
		"https://hooks.example.com./in", "https://0x.example.com/", "http://[64:ff9b::5db8:d70e]/"} {
		if err := (Policy{}).CheckURL(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// counter is a test server that counts the requests that reach it.
func counter(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if h != nil {
			h(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestALoopbackReceiverIsNotCalledUnlessPrivateAddressesAreAllowed(t *testing.T) {
	srv, calls := counter(t, nil)
	_, err := NewClient(time.Second, Policy{}).Get(srv.URL)
	if r, ok := AsRefused(err); !ok || r.Reason != ReasonPrivate {
		t.Fatalf("got %v, want a refusal", err)
	}
	if calls.Load() != 0 {
		t.Fatal("the refused receiver got a request")
	}
	res, err := NewClient(time.Second, Policy{AllowPrivate: true}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if calls.Load() != 1 {
		t.Fatalf("%d requests with private addresses allowed, want 1", calls.Load())
	}
}

// fakeLookup is a resolver that answers addrs for hooks.example.test and nothing else.
func fakeLookup(addrs ...string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		if host != "hooks.example.test" {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		out := make([]netip.Addr, len(addrs))
		for i, a := range addrs {
			out[i] = netip.MustParseAddr(a)
		}
		return out, nil
	}
}

func TestANameThatResolvesToARefusedAddressIsRefusedWhenConnecting(t *testing.T) {
	srv, calls := counter(t, nil)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	u := "http://hooks.example.test:" + port + "/in"
	if err := (Policy{}).CheckURL(u); err != nil {
		t.Fatalf("the name itself is not refused: %v", err)
	}
	_, err := newClient(time.Second, Policy{}, fakeLookup("127.0.0.1")).Get(u)
	if r, ok := AsRefused(err); !ok || r.Reason != ReasonPrivate {
		t.Fatalf("got %v, want a refusal of the resolved address", err)
	}
	_, err = newClient(time.Second, Policy{AllowPrivate: true}, fakeLookup("169.254.169.254")).Get(u)
	if r, ok := AsRefused(err); !ok || r.Reason != ReasonMetadata {
		t.Fatalf("got %v, want a refusal of the metadata address", err)
	}
	if calls.Load() != 0 {
		t.Fatal("a refused address got a request")
	}
	// Of several answers, only an allowed one is connected to.
	res, err := newClient(time.Second, Policy{AllowPrivate: true}, fakeLookup("169.254.169.254", "127.0.0.1")).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if calls.Load() != 1 {
		t.Fatalf("%d requests, want 1", calls.Load())
	}
}

func TestTheDialerRefusesLocalhostAsTheSystemResolvesIt(t *testing.T) {
	srv, calls := counter(t, nil)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	d := &dialer{policy: Policy{}, lookup: lookupNetIP}
	d.net.Control = d.control
	_, err := d.dialContext(context.Background(), "tcp", "localhost:"+port)
	if _, ok := AsRefused(err); !ok {
		t.Fatalf("got %v, want a refusal", err)
	}
	if calls.Load() != 0 {
		t.Fatal("localhost got a request")
	}
}

func TestARedirectIsNotFollowed(t *testing.T) {
	inner, innerCalls := counter(t, nil)
	for _, target := range []string{inner.URL + "/internal", "http://169.254.169.254/latest/meta-data/"} {
		outer, _ := counter(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusTemporaryRedirect)
		})
		res, err := NewClient(time.Second, Policy{AllowPrivate: true}).Post(outer.URL, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusTemporaryRedirect {
			t.Fatalf("redirect to %s: status %d, want the 307 itself", target, res.StatusCode)
		}
	}
	if innerCalls.Load() != 0 {
		t.Fatal("the redirect was followed")
	}
}

func TestTheClientIgnoresTheEnvironmentsProxy(t *testing.T) {
	proxy, proxied := counter(t, nil)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	srv, calls := counter(t, nil)
	// Without the proxy the address is not reachable from a test; with it, the proxy would answer.
	res, err := NewClient(300*time.Millisecond, Policy{AllowPrivate: true}).Get(strings.Replace(srv.URL, "127.0.0.1", "93.184.215.14", 1))
	if err == nil {
		res.Body.Close()
	}
	if proxied.Load() != 0 || calls.Load() != 0 {
		t.Fatalf("proxied %d, direct %d: the request went through the proxy", proxied.Load(), calls.Load())
	}
}
