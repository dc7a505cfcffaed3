package platform

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestEveryLogLineOfARequestCarriesItsId(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(RequestIDHandler(slog.NewTextHandler(&out, nil))).With("part", "checkout")
	log.InfoContext(WithRequestID(context.Background(), "req-7"), "capture settled")
	log.InfoContext(context.Background(), "no request")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "request_id=req-7") || strings.Contains(lines[1], "request_id") {
		t.Fatalf("log:\n%s", out.String())
	}
}
