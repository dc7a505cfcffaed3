package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestShopCreatePrintsOneLineOfJSONAndRefusesAnExistingIdentifier(t *testing.T) {
	t.Setenv("CHECKOUT_DATABASE_URL", "file:"+filepath.Join(t.TempDir(), "c.db"))
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"migrate"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"shop", "create", "--identifier", "acme", "--name", "Acme"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one line, got %q", stdout.String())
	}
	var out map[string]string
	if err := json.Unmarshal([]byte(lines[0]), &out); err != nil || out["shop_identifier"] != "acme" || len(out["access_token"]) < 43 {
		t.Fatalf("output %q (%v)", lines[0], err)
	}
	if err := run(ctx, []string{"shop", "create", "--identifier", "acme"}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second create: %v", err)
	}
	stdout.Reset()
	if err := run(ctx, []string{"shop", "token", "--identifier", "acme"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out["access_token"] == "" {
		t.Fatalf("token output %q", stdout.String())
	}
}
