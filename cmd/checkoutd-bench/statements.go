package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"time"
)

// Markers around the one checkout of -mark-one-checkout, as they appear in PostgreSQL's
// statement log.
const (
	markBegin = "checkoutd-bench: one guest checkout begins"
	markEnd   = "checkoutd-bench: one guest checkout ends"
)

// markOneCheckout runs one guest checkout between two marker statements on the benchmark's
// database: with log_statement = 'all' for the role the benchmark connects as, the statements
// checkoutd sends for that checkout are the log's lines between the markers (River's own queue
// polling aside: its statements start with a "-- name:" comment).
func markOneCheckout(ctx context.Context, dbURL string, checkout func() ([]time.Duration, error)) error {
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	// The queue's periodic jobs (the sweeps) run once when its leader starts: let them finish
	// first, so that the window holds the checkout alone.
	time.Sleep(10 * time.Second)
	// One more checkout loads again what the shop cache let go during the pause.
	if _, err := checkout(); err != nil {
		return err
	}
	mark := func(text string) error {
		var s string
		return db.QueryRowContext(ctx, "SELECT '"+text+"'").Scan(&s)
	}
	if err := mark(markBegin); err != nil {
		return fmt.Errorf("marker: %w", err)
	}
	if _, err := checkout(); err != nil {
		return err
	}
	if err := mark(markEnd); err != nil {
		return fmt.Errorf("marker: %w", err)
	}
	log.Printf("one guest checkout ran between %q and %q", markBegin, markEnd)
	return nil
}
