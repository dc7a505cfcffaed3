package httpsig_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

func TestTheSignatureCoversRequestTargetAndDate(t *testing.T) {
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	r, _ := http.NewRequest("POST", "http://gw.example/epg/auth", nil)
	httpsig.Sign(r, "Authorization", "api_token", []byte("secret"), now)
	if got := r.Header.Get("Date"); got != "Mon, 23 Nov 2026 18:00:00 GMT" {
		t.Fatalf("Date %q", got)
	}
	h := r.Header.Get("Authorization")
	// HMAC-SHA256("secret", "(request-target): post /epg/auth\ndate: Mon, 23 Nov 2026 18:00:00 GMT"), base64.
	want := `Signature keyId="api_token",algorithm="hmac-sha256",headers="(request-target) date",signature="wBSeyS3UP0WYlBVexc5Z33j/NrFlPAqIuV6ofA8i/f0="`
	if h != want {
		t.Fatalf("Authorization %q", h)
	}
	if err := httpsig.Verify(r, "Authorization", []byte("secret"), time.Minute, now); err != nil {
		t.Fatal(err)
	}
	if err := httpsig.Verify(r, "Authorization", []byte("other"), time.Minute, now); err != httpsig.ErrMismatch {
		t.Fatalf("wrong secret: %v", err)
	}
	if err := httpsig.Verify(r, "Authorization", []byte("secret"), time.Minute, now.Add(time.Hour)); err != httpsig.ErrStale {
		t.Fatalf("old date: %v", err)
	}
	r.URL.Path = "/epg/capture"
	if err := httpsig.Verify(r, "Authorization", []byte("secret"), time.Minute, now); err != httpsig.ErrMismatch {
		t.Fatalf("other target: %v", err)
	}
}

func TestTheWebhookFormHasNoSchemePrefix(t *testing.T) {
	r, _ := http.NewRequest("POST", "http://receiver.example/hooks", nil)
	httpsig.Sign(r, "Signature", "shared_secret", []byte("s"), time.Now())
	if h := r.Header.Get("Signature"); !strings.HasPrefix(h, `keyId="shared_secret",algorithm="hmac-sha256"`) {
		t.Fatalf("Signature %q", h)
	}
}

// A URL without a path goes on the wire as "/": it is signed as "/", so the receiver's check of
// what it got holds (a webhook callback_url of a bare host).
func TestAURLWithoutAPathIsSignedAsTheSlashItIsSentAs(t *testing.T) {
	secret := []byte("secret")
	verified := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verified <- httpsig.Verify(r, "Authorization", secret, time.Minute, time.Now())
	}))
	defer srv.Close()
	r, _ := http.NewRequest("POST", srv.URL, nil)
	httpsig.Sign(r, "Authorization", "api_token", secret, time.Now())
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := <-verified; err != nil {
		t.Fatalf("the receiver refused the signature: %v", err)
	}
}
