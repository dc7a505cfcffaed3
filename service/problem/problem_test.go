package problem_test

import (
	"encoding/json"
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
)

// A kept problem names its kind, so that reordering the kinds cannot change what it says.
func TestEveryKindIsWrittenAndReadByItsName(t *testing.T) {
	for k := problem.Internal; k <= problem.Unavailable; k++ {
		b, err := json.Marshal(k)
		if err != nil || string(b) != `"`+k.String()+`"` {
			t.Fatalf("%v is written %s (%v)", k, b, err)
		}
		var back problem.Kind
		if err := json.Unmarshal(b, &back); err != nil || back != k {
			t.Fatalf("%s is read as %v (%v)", b, back, err)
		}
	}
	var k problem.Kind
	if err := json.Unmarshal([]byte(`"teapot"`), &k); err == nil {
		t.Fatal("an unknown kind was read")
	}
}
