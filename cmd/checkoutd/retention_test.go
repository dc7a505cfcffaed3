package main

import (
	"testing"
	"time"
)

func TestRetentionIsWrittenInDaysOrHours(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "72h": 72 * time.Hour, "90m": 90 * time.Minute} {
		var k keepFor
		if err := k.UnmarshalText([]byte(in)); err != nil || time.Duration(k) != want {
			t.Fatalf("%s: %v, %v", in, time.Duration(k), err)
		}
	}
	for _, bad := range []string{"0d", "-1d", "d", "1.5d", "soon", "0s"} {
		var k keepFor
		if err := k.UnmarshalText([]byte(bad)); err == nil {
			t.Fatalf("%q was taken", bad)
		}
	}
}
