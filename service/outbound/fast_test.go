package outbound

import (
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// post sends an empty JSON POST to u with the fast client c, and answers its status.
func post(c *fasthttp.Client, u string) (int, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(u)
	req.Header.SetMethod(http.MethodPost)
	req.SetBodyString("{}")
	err := c.DoTimeout(req, res, time.Second)
	return res.StatusCode(), err
}

func TestTheFastClientRefusesANameThatResolvesToARefusedAddressWhenConnecting(t *testing.T) {
	srv, calls := counter(t, nil)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	u := "http://hooks.example.test:" + port + "/in"
	_, err := post(newFastClient(Policy{}, 1<<20, fakeLookup("127.0.0.1")), u)
	if r, ok := AsRefused(err); !ok || r.Reason != ReasonPrivate {
		t.Fatalf("got %v, want a refusal of the resolved address", err)
	}
	_, err = post(newFastClient(Policy{AllowPrivate: true}, 1<<20, fakeLookup("169.254.169.254")), u)
	if r, ok := AsRefused(err); !ok || r.Reason != ReasonMetadata {
		t.Fatalf("got %v, want a refusal of the metadata address", err)
	}
	if calls.Load() != 0 {
		t.Fatal("a refused address got a request")
	}
	status, err := post(newFastClient(Policy{AllowPrivate: true}, 1<<20, fakeLookup("169.254.169.254", "127.0.0.1")), u)
	if err != nil || status != http.StatusOK || calls.Load() != 1 {
		t.Fatalf("status %d, error %v, %d requests; want 200 from the one allowed address", status, err, calls.Load())
	}
}

func TestTheFastClientFollowsNoRedirect(t *testing.T) {
	inner, innerCalls := counter(t, nil)
	outer, _ := counter(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/internal", http.StatusTemporaryRedirect)
	})
	status, err := post(NewFastClient(Policy{AllowPrivate: true}, 1<<20), outer.URL)
	if err != nil || status != http.StatusTemporaryRedirect || innerCalls.Load() != 0 {
		t.Fatalf("status %d, error %v, %d requests followed; want the 307 itself", status, err, innerCalls.Load())
	}
}

func TestTheFastClientVerifiesTheCertificateOfAnHTTPSURL(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	_, err := post(NewFastClient(Policy{AllowPrivate: true}, 1<<20), srv.URL)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("got %v, want the test server's certificate refused", err)
	}
}
