package graph

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestAnErrorThatIsNotAServiceErrorIsAnsweredAsInternalWithoutItsMessage(t *testing.T) {
	gerr := presentError(context.Background(), errors.New("SQL logic error: LIKE or GLOB pattern too complex"))
	if gerr.Extensions["code"] != "02-50" || gerr.Extensions["type"] != "server.internal_error" {
		t.Fatalf("extensions %v", gerr.Extensions)
	}
	if strings.Contains(gerr.Message, "SQL") {
		t.Fatalf("message %q", gerr.Message)
	}
}
