package httpsig_test

import (
	"net/http"
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
