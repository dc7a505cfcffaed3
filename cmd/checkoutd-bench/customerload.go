package main

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/lib/pq"
)

// Loading the customers figure's population straight into the database the harness created,
// beside the running server: a million customers through checkoutd's notifications would take
// the better part of an hour. The rows are those a Customer Saved writes (the columns of
// ent/schema/customer.go, the id the database's), and the search indexes are kept as in
// production: on PostgreSQL the GIN trigram index takes every row of the COPY, on SQLite the
// triggers fill the FTS5 table row by row.

var customerColumns = []string{"shop_id", "platform_id", "first_name", "last_name", "email", "phone",
	"platform_created_at", "platform_updated_at", "platform_deleted_at", "created_at", "updated_at"}

// sqliteWriteDSN is how checkoutd's own SQLite writer opens the file (service/platform's
// sqlitePragmas): times written in SQLite's format in UTC, as checkoutd writes and compares them.
const sqliteWriteDSN = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite&_timezone=UTC"

// customerLoad is what loading took.
type customerLoad struct {
	insert, analyze time.Duration
}

func (c benchCustomer) values(shopID int64) []any {
	var deleted any
	if c.PlatformDeletedAt != nil {
		deleted = c.PlatformDeletedAt.UTC()
	}
	return []any{shopID, c.PlatformID, c.FirstName, c.LastName, c.Email, c.Phone, c.PlatformCreatedAt.UTC(),
		c.PlatformUpdatedAt.UTC(), deleted, c.CreatedAt.UTC(), c.UpdatedAt.UTC()}
}

// loadCustomers writes n customers of the shop the list shows, and those deleted beside them
// (customerRows), into the database at dbURL.
func loadCustomers(dbURL, shop string, n int, now time.Time) (customerLoad, error) {
	n = customerRows(n)
	if strings.HasPrefix(dbURL, "postgres") {
		return loadCustomersPostgres(dbURL, shop, n, now)
	}
	return loadCustomersSQLite(dbURL, shop, n, now)
}

// loadCustomersPostgres copies the rows in one COPY, then has PostgreSQL vacuum and analyze
// the table, as its autovacuum would soon after such a load (the benchmark's server runs
// without autovacuum): the planner's statistics and the visibility map that index-only scans
// need are those of a table that has been there a while.
func loadCustomersPostgres(dbURL, shop string, n int, now time.Time) (customerLoad, error) {
	var out customerLoad
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return out, err
	}
	defer db.Close()
	var shopID int64
	if err := db.QueryRow("SELECT id FROM shops WHERE identifier = $1", shop).Scan(&shopID); err != nil {
		return out, fmt.Errorf("reading the shop's id: %w", err)
	}
	began := time.Now()
	tx, err := db.Begin()
	if err != nil {
		return out, err
	}
	defer tx.Rollback()
	stmt, err := tx.Prepare(pq.CopyIn("customers", customerColumns...))
	if err != nil {
		return out, err
	}
	gen := newCustomerGen(n, now)
	for i := range n {
		if _, err := stmt.Exec(gen.next(i).values(shopID)...); err != nil {
			return out, fmt.Errorf("copying customer %d: %w", i, err)
		}
	}
	if _, err := stmt.Exec(); err != nil {
		return out, fmt.Errorf("copying customers: %w", err)
	}
	if err := stmt.Close(); err != nil {
		return out, err
	}
	if err := tx.Commit(); err != nil {
		return out, err
	}
	out.insert = time.Since(began)
	began = time.Now()
	// The customers and the search's lexicon its triggers filled (whose index-only scans need
	// the pages VACUUM marks visible), and the customers' addresses, which the connector
	// figures' sync filled before (100,000 rows) on this server without autovacuum: unanalyzed,
	// PostgreSQL read every address for each page's hundred customers (about 45 ms a page).
	if _, err := db.Exec("VACUUM (ANALYZE) customers, customer_names, customer_addresses"); err != nil {
		return out, fmt.Errorf("vacuum analyze: %w", err)
	}
	out.analyze = time.Since(began)
	return out, nil
}

// sqliteBatch is the rows of one INSERT, and sqliteTxRows of one transaction: short enough
// that the server's own writer (its job queue) waits for the lock well within its busy timeout.
const (
	sqliteBatch  = 500
	sqliteTxRows = 10_000
)

func loadCustomersSQLite(dbURL, shop string, n int, now time.Time) (customerLoad, error) {
	var out customerLoad
	db, err := sql.Open("sqlite", dbURL+"?"+sqliteWriteDSN)
	if err != nil {
		return out, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var shopID int64
	if err := db.QueryRow("SELECT id FROM shops WHERE identifier = ?", shop).Scan(&shopID); err != nil {
		return out, fmt.Errorf("reading the shop's id: %w", err)
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", len(customerColumns)), ",") + ")"
	insert := func(rows int) string {
		return "INSERT INTO customers (" + strings.Join(customerColumns, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
	}
	began := time.Now()
	gen := newCustomerGen(n, now)
	args := make([]any, 0, sqliteBatch*len(customerColumns))
	for done := 0; done < n; {
		tx, err := db.Begin()
		if err != nil {
			return out, err
		}
		full, err := tx.Prepare(insert(sqliteBatch))
		if err != nil {
			tx.Rollback()
			return out, err
		}
		for end := min(n, done+sqliteTxRows); done < end; {
			rows := min(sqliteBatch, end-done)
			args = args[:0]
			for i := range rows {
				args = append(args, gen.next(done+i).values(shopID)...)
			}
			stmt := full
			if rows < sqliteBatch {
				stmt, err = tx.Prepare(insert(rows))
				if err != nil {
					tx.Rollback()
					return out, err
				}
			}
			if _, err := stmt.Exec(args...); err != nil {
				tx.Rollback()
				return out, fmt.Errorf("inserting customers %d to %d: %w", done, done+rows, err)
			}
			done += rows
		}
		if err := tx.Commit(); err != nil {
			return out, err
		}
	}
	out.insert = time.Since(began)
	return out, nil
}
