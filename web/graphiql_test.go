package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/checkoutd/checkoutd/web"
)

func TestTheVendoredGraphiQLAndReactAreThePinnedReleases(t *testing.T) {
	for file, want := range map[string]string{
		// graphiql 3.9.0 graphiql.min.js and graphiql.min.css; react and react-dom 18.3.1 umd/*.production.min.js.
		web.GraphiQLScript: "a330a2be1d2389486840a9d0a834767d9083a23f105879e0de54e4fce83d3513",
		web.GraphiQLStyle:  "bdddd50aac5bdb0edd83e5c862ba2fed9db2964e4c75d4655ab62b0a7d5bd730",
		web.React:          "d949f1c3687aedadcedac85261865f29b17cd273997e7f6b2bfc53b2f9d4c4dd",
		web.ReactDOM:       "35f4f974f4b2bcd44da73963347f8952e341f83909e4498227d4e26b98f66f0d",
	} {
		b, err := os.ReadFile("static/" + file)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s has sha256 %s: not the pinned release (static/README.md)", file, got)
		}
	}
}
